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
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/**
 * Random fault schedules with a Kafka source and source positions, half against IcebergBolt's tasks
 * and half against the split pair ({@link KafkaSchedules}): 200 in the quick tier ({@code mvn
 * verify}), 1,000 in the long tier ({@code -Plong}); {@code -Dkafka.schedules=N} runs N, {@code
 * -Dkafka.schedule.seed=S} starts at seed S (even seeds drive IcebergBolt, odd ones the split pair),
 * so {@code -Dkafka.schedules=1 -Dkafka.schedule.seed=S} replays one.
 */
class KafkaSchedulesTest {
  @Test
  void noScheduleLosesAnAckedRecordOrWritesOneTwice() {
    int count = Integer.getInteger("kafka.schedules", 200);
    long firstSeed = Long.getLong("kafka.schedule.seed", 1L);
    KafkaSchedules schedules = new KafkaSchedules();
    long started = System.nanoTime();
    long cpuStarted = processCpuNanos();
    // Schedules are independent (own catalog, faults and WAL space), so both cores run them.
    List<KafkaSchedules.Outcome> outcomes =
        SeededRuns.map(firstSeed, count, schedules::run);
    long seconds = (System.nanoTime() - started) / 1_000_000_000L;
    long cpuSeconds = (processCpuNanos() - cpuStarted) / 1_000_000_000L;
    for (KafkaSchedules.Sink sink : KafkaSchedules.Sink.values()) {
      List<KafkaSchedules.Outcome> of = outcomes.stream().filter(o -> o.sink() == sink).toList();
      System.out.printf("Kafka %s: %d schedules, %d records, %d steps, %d faults armed, %d task crashes, %d spout crashes,"
              + " %d retries, %d timeouts, %d rebalances, %d records emitted again%n",
          sink, of.size(), sum(of, KafkaSchedules.Outcome::records), sum(of, KafkaSchedules.Outcome::steps),
          sum(of, KafkaSchedules.Outcome::faults), sum(of, KafkaSchedules.Outcome::taskCrashes),
          sum(of, KafkaSchedules.Outcome::spoutCrashes), sum(of, KafkaSchedules.Outcome::retries),
          sum(of, KafkaSchedules.Outcome::timeouts), sum(of, KafkaSchedules.Outcome::rebalances),
          sum(of, KafkaSchedules.Outcome::emittedAgain));
    }
    System.out.printf("%d Kafka fault schedules passed in %d s (%d s of CPU): zero duplicates, zero losses%n",
        outcomes.size(), seconds, cpuSeconds);
    assertThat(outcomes).hasSize(count);
    if (count >= 20) {
      assertThat(sum(outcomes, KafkaSchedules.Outcome::faults)).as("faults were armed").isPositive();
      assertThat(sum(outcomes, KafkaSchedules.Outcome::spoutCrashes)).as("the spout crashed").isPositive();
      assertThat(sum(outcomes, KafkaSchedules.Outcome::rebalances)).as("partitions moved").isPositive();
      assertThat(outcomes).extracting(KafkaSchedules.Outcome::sink).as("both sinks were driven")
          .contains(KafkaSchedules.Sink.BOLT, KafkaSchedules.Sink.SPLIT);
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static int sum(List<KafkaSchedules.Outcome> outcomes, ToIntFunction<KafkaSchedules.Outcome> count) {
    return outcomes.stream().mapToInt(count).sum();
  }
}
