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
 * Random fault schedules, half against IcebergBolt's task and half against the split pair: 300 in
 * the quick tier ({@code mvn verify}), 2,000 in the long tier ({@code -Plong}); {@code
 * -Dschedules=N} runs N (100,000 on demand), {@code -Dschedule.seed=S}
 * starts at seed S (even seeds drive IcebergBolt, with a dead-letter stream at multiples of 4, odd
 * ones the split pair), so {@code
 * -Dschedules=1 -Dschedule.seed=S} replays one.
 */
class RandomFaultSchedulesTest {
  @Test
  void noScheduleLosesAnAckedIdOrDuplicatesAnUnreplayedOne() {
    int count = Integer.getInteger("schedules", 300);
    long firstSeed = Long.getLong("schedule.seed", 1L);
    RandomFaultSchedules schedules = new RandomFaultSchedules();
    long started = System.nanoTime();
    // Schedules are independent (own catalog, faults and WAL space), so both cores run them.
    List<RandomFaultSchedules.Outcome> outcomes =
        SeededRuns.map(firstSeed, count, schedules::run);
    long seconds = (System.nanoTime() - started) / 1_000_000_000L;
    int faults = outcomes.stream().mapToInt(RandomFaultSchedules.Outcome::faults).sum();
    int crashes = outcomes.stream().mapToInt(RandomFaultSchedules.Outcome::crashes).sum();
    int replays = outcomes.stream().mapToInt(RandomFaultSchedules.Outcome::replays).sum();
    int snapshots = outcomes.stream().mapToInt(RandomFaultSchedules.Outcome::snapshots).sum();
    int steps = outcomes.stream().mapToInt(RandomFaultSchedules.Outcome::steps).sum();
    for (RandomFaultSchedules.Sink sink : RandomFaultSchedules.Sink.values()) {
      System.out.printf("%s: %d schedules, %d crashes, %d ids replayed%n", sink,
          outcomes.stream().filter(o -> o.sink() == sink).count(),
          outcomes.stream().filter(o -> o.sink() == sink).mapToInt(RandomFaultSchedules.Outcome::crashes).sum(),
          outcomes.stream().filter(o -> o.sink() == sink).mapToInt(RandomFaultSchedules.Outcome::replays).sum());
    }
    System.out.printf("%d fault schedules passed in %d s: %d steps, %d snapshots, %d faults armed, %d task crashes, %d ids replayed%n",
        outcomes.size(), seconds, steps, snapshots, faults, crashes, replays);
    assertThat(outcomes).hasSize(count);
    assertThat(faults).as("the schedules did inject faults").isPositive();
    System.out.printf("%d dead letters accepted%n", outcomes.stream().mapToInt(RandomFaultSchedules.Outcome::deadLetters).sum());
    if (count >= 4) {
      assertThat(outcomes).extracting(RandomFaultSchedules.Outcome::deadLetters).as("poison ids were dead-lettered")
          .anyMatch(n -> n > 0);
      assertThat(outcomes).extracting(RandomFaultSchedules.Outcome::sink).as("every sink was driven")
          .contains(RandomFaultSchedules.Sink.values());
      int together = outcomes.stream().mapToInt(RandomFaultSchedules.Outcome::batchesSettledTogether).sum();
      System.out.printf("%d steps settled several of IcebergBolt's batches at once%n", together);
      assertThat(together).as("the bolt's commit thread ran several commits between executor calls").isPositive();
    }
  }
}
