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

import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.MemoryWalStoreFactory;

/**
 * Random fault schedules with a Kafka source: a {@link KafkaSpoutModel} feeding, by partition,
 * IcebergBolt tasks ({@link KafkaBoltSchedule}, even seeds) or the split pair ({@link
 * KafkaSplitSchedule}, odd seeds), all with source positions, on a real in-memory catalog wrapped
 * with {@link FaultInjectingCatalog} and the faults of {@link Schedule#armRandomFault}.
 *
 * <p>Where the plain schedules allow a duplicate after a replay, these allow none: every record is
 * in the table at most once at every spout crash and at the end, once exactly at the end, and the
 * newest commit's source positions are exactly the table's offsets ({@link KafkaScheduleChecks}).
 */
final class KafkaSchedules {
  /** A schedule that has not seen every record acked by then has lost one for good. */
  static final int MAX_STEPS = 4_000;

  /** Which sink a schedule drives. */
  enum Sink { BOLT, SPLIT }

  /** What the schedule's sink side did, beyond the spout's own counts. */
  static final class Counts {
    int rebalances;
  }

  /** What one schedule did, for the summary. */
  record Outcome(long seed, Sink sink, int records, int steps, int faults, int taskCrashes, int spoutCrashes,
      int retries, int timeouts, int rebalances, int emittedAgain) {}

  static Sink sinkOf(long seed) {
    return seed % 2 == 0 ? Sink.BOLT : Sink.SPLIT;
  }

  Outcome run(long seed) {
    String key = "kafka-schedule-" + seed + "-" + System.nanoTime();
    Faults faults = Faults.create();
    Map<String, String> catalogProperties = FaultInjectingCatalog.sharedInMemory(key, faults);
    try {
      Schedule schedule = new Schedule(seed, key, faults, catalogProperties);
      KafkaSpoutModel spout = new KafkaSpoutModel(schedule.random);
      Counts counts = new Counts();
      Sink sink = sinkOf(seed);
      if (sink == Sink.BOLT) {
        new KafkaBoltSchedule(schedule, spout, counts).run();
      } else {
        new KafkaSplitSchedule(schedule, spout, counts).run();
      }
      KafkaScheduleChecks.holdAtEnd(seed, tableWithoutFaults(schedule), spout);
      if (!MemoryWalStoreFactory.entries(key).isEmpty()) {
        throw new AssertionError("schedule " + seed + ": WAL entries left after a last incarnation started: "
            + MemoryWalStoreFactory.entries(key).keySet());
      }
      return new Outcome(seed, sink, spout.records().size(), schedule.steps, schedule.faultsArmed, schedule.crashes,
          spout.crashes, spout.retries, spout.timeouts, counts.rebalances, spout.emitted - spout.records().size());
    } finally {
      FaultInjectingCatalog.dropShared(key);
      MemoryWalStoreFactory.drop(key);
    }
  }

  /** The table as the checks read it: past the faults, so reading it changes nothing in the schedule. */
  static Table tableWithoutFaults(Schedule schedule) {
    return FaultInjectingCatalog.sharedWithoutFaults(schedule.key).loadTable(TableIdentifier.of("db", "events"));
  }

  /** The spout's worker dies; first, what must hold at any moment is checked. */
  static void crashSpout(Schedule schedule, KafkaSpoutModel spout) {
    KafkaScheduleChecks.holdNow(schedule.seed, "at spout crash " + (spout.crashes + 1), tableWithoutFaults(schedule), spout);
    spout.crash();
  }

  /** Moves a partition to another of {@code taskCount} tasks; the one it leaves may still hold its tuples. */
  static void rebalance(Schedule schedule, int[] route, int taskCount, Counts counts) {
    if (taskCount < 2) {
      return;
    }
    int partition = schedule.random.nextInt(route.length);
    route[partition] = (route[partition] + 1 + schedule.random.nextInt(taskCount - 1)) % taskCount;
    counts.rebalances++;
  }

  static <T> List<T> drain(List<T> recorded) {
    List<T> copy = List.copyOf(recorded);
    recorded.clear();
    return copy;
  }
}
