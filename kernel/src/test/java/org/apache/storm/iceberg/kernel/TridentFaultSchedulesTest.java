/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *   http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing,
 * software distributed under the License is distributed on an
 * "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
 * KIND, either express or implied.  See the License for the
 * specific language governing permissions and limitations
 * under the License.
 */

package org.apache.storm.iceberg.kernel;

import org.apache.storm.iceberg.testing.SeededRuns;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Random fault schedules of the Trident states (see {@link TridentFaultSchedules}): 200 in the quick
 * tier ({@code mvn verify}), 1,000 in the long tier ({@code -Plong}); {@code -DtridentSchedules=N}
 * runs N, {@code -Dschedule.seed=S} starts at seed S ({@code S % 4}: per-partition transactional,
 * whole-stream transactional, per-partition opaque, whole-stream opaque), so {@code
 * -DtridentSchedules=1 -Dschedule.seed=S} replays one.
 */
class TridentFaultSchedulesTest {
  @Test
  void noTridentScheduleLosesDuplicatesOrMisplacesATransaction() {
    int count = Integer.getInteger("tridentSchedules", 200);
    long firstSeed = Long.getLong("schedule.seed", 1L);
    TridentFaultSchedules schedules = new TridentFaultSchedules();
    long started = System.nanoTime();
    long cpuStarted = processCpuNanos();
    // Schedules are independent (own catalog and faults), so both cores run them.
    List<TridentFaultSchedules.Outcome> outcomes = SeededRuns.map(firstSeed, count, schedules::run);
    long seconds = (System.nanoTime() - started) / 1_000_000_000L;
    long cpuSeconds = (processCpuNanos() - cpuStarted) / 1_000_000_000L;
    for (TridentSchedule.Variant variant : TridentSchedule.Variant.values()) {
      for (var type : TridentFaultSchedules.types()) {
        List<TridentFaultSchedules.Outcome> some =
            outcomes.stream().filter(o -> o.variant() == variant && o.type() == type).toList();
        System.out.printf("%s %s: %d schedules, %d crashes, %d replayed attempts, %d failed batches, %d snapshots,"
                + " %d opaque replacements, %d fences, %d regressions refused%n", variant, type, some.size(),
            some.stream().mapToInt(TridentFaultSchedules.Outcome::crashes).sum(),
            some.stream().mapToInt(TridentFaultSchedules.Outcome::replays).sum(),
            some.stream().mapToInt(TridentFaultSchedules.Outcome::failedBatches).sum(),
            some.stream().mapToInt(TridentFaultSchedules.Outcome::snapshots).sum(),
            some.stream().mapToInt(TridentFaultSchedules.Outcome::replacements).sum(),
            some.stream().mapToInt(TridentFaultSchedules.Outcome::fences).sum(),
            some.stream().mapToInt(TridentFaultSchedules.Outcome::regressionsRefused).sum());
      }
    }
    int faults = outcomes.stream().mapToInt(TridentFaultSchedules.Outcome::faults).sum();
    System.out.printf("%d Trident fault schedules passed in %d s (%d CPU-s): %d steps, %d faults armed%n", outcomes.size(),
        seconds, cpuSeconds,
        outcomes.stream().mapToInt(TridentFaultSchedules.Outcome::steps).sum(), faults);
    assertThat(outcomes).hasSize(count);
    if (count >= 4) {
      assertThat(faults).as("the schedules did inject faults").isPositive();
      assertThat(outcomes).extracting(TridentFaultSchedules.Outcome::variant).as("both sinks were driven")
          .contains(TridentSchedule.Variant.values());
      assertThat(outcomes.stream().mapToInt(TridentFaultSchedules.Outcome::replacements).sum())
          .as("opaque replays replaced transactions").isPositive();
      assertThat(outcomes.stream().mapToInt(TridentFaultSchedules.Outcome::regressionsRefused).sum())
          .as("txid regressions were tried").isPositive();
    }
  }

  /** The JVM's CPU time: on a shared machine, a fairer measure of the schedules' cost than wall time. */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
