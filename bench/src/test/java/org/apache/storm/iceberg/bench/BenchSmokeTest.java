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

package org.apache.storm.iceberg.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.TestLocalClusters;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every harness once with tiny sizes, so the benchmarks keep compiling and running; the
 * figures are printed, not kept. Each harness checks its own outcome (every tuple acked, every row
 * committed) and throws when it is wrong. The Flink peer lives in bench/flink-peer (profile
 * flink-peer) and is not run here.
 */
class BenchSmokeTest {
  @Test
  void kernelAndLimitWriteAndCommitEveryRecord() throws Exception {
    KernelVsLimit.main(new String[] {"300", "1", "1"});
    KernelVsLimit.main(new String[] {"300", "1", "1", "columns=5 partitions=1 .*", "100"});
  }

  /**
   * Every tuple acked and every row in the table, with positions recorded and without (the warm-up
   * repetition only); in the long tier, as the quick tier has no seconds to spare and the kernel's
   * own tests cover source positions in both.
   */
  @Test
  void deduplicationCostWritesEveryRecordOnce() throws Exception {
    Assumptions.assumeTrue(Boolean.getBoolean("tests.long"), "long tier only (-Plong): the deduplication harness");
    DedupCost.main(new String[] {"300", "2", "0", "3x2", "100"});
    RowLevelCost.main(new String[] {"300", "2", "0", "10"});
    // Five upsert commits read back against the model (the harness throws on a key read twice or missing).
    RowLevelReadCost.measure(new Results(), 5, 20, 50, 0);
  }

  @Test
  void routingMemoryEvictsAndAcksEveryGroupButTheLast() throws Exception {
    RoutingMemory.main(new String[] {"8", "4", "5"});
  }

  /** A 20-snapshot history, each walk timed briefly: the harness throws when a lookup finds what it should not, or misses. */
  @Test
  void snapshotLookupsFindTheirCommitsOnABuiltHistory() {
    SnapshotHistory.measure(new Results(), 20, 20);
  }

  /**
   * Thirty commits each way, with real Parquet, entries only and the sink itself: the harness throws
   * on a token expired, a row lost or read twice, or a maintenance bolt that ran no pass or failed. In the long tier: the maintenance module's own tests cover the pass in both.
   */
  @Test
  void aMaintainedHourKeepsItsTokenAndEveryRow() throws Exception {
    Assumptions.assumeTrue(Boolean.getBoolean("tests.long"), "long tier only (-Plong): the maintenance-hour harness");
    MaintenanceHour.main(new String[] {"30", "15", "8", "parquet", "10"});
    MaintenanceHour.main(new String[] {"30", "15", "8", "metadata", "10"});
    MaintenanceHour.main(new String[] {"30", "15", "8", "sink", "10"});
  }

  @Test
  void commitLatencyCommitsBothWays() throws Exception {
    CommitLatency.main(new String[] {"3", "1"});
  }

  @Test
  void oneBatchIsCommittedAndMeasured() throws Exception {
    BatchMemory.main(new String[] {"records", "3000"});
  }

  /**
   * The cluster harnesses (EndToEnd, StormSettings, CommitScaling, PartitionGrouping, TridentEndToEnd, Soak) in the long tier only: half a minute of topology
   * runs that check the harness, not the sink, which the kernel's and the examples' LocalCluster
   * tests cover in both tiers. EndToEnd and TridentEndToEnd must report every contender's whole-run
   * and warm-half figures.
   */
  @Test
  void localClusterTopologiesAckEveryRow(@TempDir Path dir) throws Exception {
    Assumptions.assumeTrue(Boolean.getBoolean("tests.long"), "long tier only (-Plong): the benchmarks' cluster harnesses");
    Path csv = dir.resolve("results.csv");
    try (LocalCluster cluster = TestLocalClusters.start()) {
      BenchData data = new BenchData(5, 16);
      EndToEnd.measure(cluster, new Results(csv), data, 2000, 500, 1);
      assertThat(variants(csv, "EndToEnd")).containsAll(figures("acking-bolt", "iceberg-bolt"));
      // StormSettings on the defaults and two settings it changes in the Config (one in max pending).
      StormSettings.measure(cluster, new Results(), StormSettings.VARIANTS.stream()
          .filter(v -> v.name().matches("defaults|bolt-wait=.*|max-pending=1x-batch")).toList(), 2000, 500, 1);
      CommitScaling.measure(cluster, new Results(), new BenchData(5, 1), 2000, 2, true, 1);
      PartitionGrouping.measure(cluster, new Results(), data, 16, 2000, true, 1);
      // Both Trident sinks beside both bolts, every transaction committed; then each Trident sink's long-run memory.
      TridentEndToEnd.measure(cluster, new Results(csv), new BenchData(5, 1), 2000, 500, 1);
      assertThat(variants(csv, "TridentEndToEnd"))
          .containsAll(figures("acking-bolt", "iceberg-bolt", "trident-state", "trident-persist"));
      for (boolean persist : new boolean[] {false, true}) {
        TridentEndToEnd.memory(cluster, new Results(), new BenchData(5, 1), 2000, 500, persist);
      }
      // Both sinks soaked for four 2-second intervals after a 3-second peak: the harness throws
      // unless the sink's commits were read and every acked row is in the table.
      for (String sink : new String[] {"iceberg-bolt", "split-sink"}) {
        Soak.soak(cluster, new Results(), sink, 8 / 60.0, 3, 2);
      }
    }
  }

  /** The figures every contender of EndToEnd and TridentEndToEnd reports: whole run and warm half, wall and CPU, and the JIT's. */
  private static List<String> figures(String... contenders) {
    return Stream.of(contenders)
        .flatMap(c -> Stream.of(c, c + " per-cpu-s", c + " warm", c + " warm per-cpu-s", c + " warm jit-ms"))
        .toList();
  }

  /** The variants {@code suite} wrote to {@code csv} (suite,params,variant,rep,value,unit). */
  private static List<String> variants(Path csv, String suite) throws IOException {
    try (Stream<String> lines = Files.lines(csv)) {
      return lines.map(line -> line.split(",")).filter(f -> f[0].equals(suite)).map(f -> f[2]).toList();
    }
  }
}
