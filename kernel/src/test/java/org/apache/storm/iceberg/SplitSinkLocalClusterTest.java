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

package org.apache.storm.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The split sink end to end in LocalCluster: writers fields-grouped on the partition column, one
 * committer behind globalGrouping, on a real HadoopCatalog whose committer-side TableOperations can
 * inject faults.
 */
@ExtendWith(SharedLocalCluster.class)
class SplitSinkLocalClusterTest {
  static final long EVENTS = 8_000;
  static LocalCluster cluster;

  @TempDir Path dir;
  final Faults faults = Faults.create();
  Map<String, String> catalogProperties;
  Table table;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }


  @BeforeEach
  void createTable() {
    catalogProperties = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    // No Iceberg-level retries: every injected commit failure reaches the committer.
    table =
        catalog.createTable(
            TableIdentifier.of("db", "events"), TestTables.SCHEMA, TestTables.REGION_DAY,
            Map.of(TableProperties.COMMIT_NUM_RETRIES, "0"));
  }

  /** Runs spout, 4 writers and {@code committers} committers until every id is acked; returns the spout's ledger. */
  ReplayingSpout.Ledger run(long events, int committers) throws Exception {
    String ledgerKey = UUID.randomUUID().toString();
    IcebergOptions writerOptions =
        new IcebergOptions.Builder()
            .withCatalogName("test")
            .withCatalogProperties(catalogProperties)
            .withTable("db.events")
            .withCommitIntervalRecords(250)
            .withCommitIntervalMillis(1_000)
            .withTickIntervalSecs(1)
            .build();
    IcebergOptions committerOptions =
        new IcebergOptions.Builder()
            .withCatalogName("test")
            .withCatalogProperties(FaultInjectingCatalog.properties(catalogProperties, faults))
            .withTable("db.events")
            .withGroupCommitIntervalMillis(1_500)
            .withTickIntervalSecs(1)
            .build();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(ledgerKey, events), 1);
    builder.setBolt("iceberg-writer", new IcebergWriterBolt(writerOptions), 4).fieldsGrouping("events", new Fields("region"));
    builder.setBolt("iceberg-committer", new IcebergCommitterBolt(committerOptions), committers).globalGrouping("iceberg-writer");
    LocalClusterRuns.runUntilAllAcked(cluster, "split-" + ledgerKey.substring(0, 8), builder.createTopology(), ledgerKey, events);
    return ReplayingSpout.ledger(ledgerKey);
  }

  static List<Long> allIds(long events) {
    return LongStream.range(0, events).boxed().collect(Collectors.toList());
  }

  @Test
  void fourWritersOneCommitterEveryIdLandsAndCommitsGatherSeveralWriters() throws Exception {
    ReplayingSpout.Ledger ledger = run(EVENTS, 1);

    TestTables.assertEveryIdOnceUnlessReplayed(table, EVENTS, ledger.failedIds);
    List<Snapshot> snapshots = TestTables.snapshots(table);
    assertThat(snapshots).hasSize(faults.realCommits.get());
    assertThat(snapshots).allSatisfy(s -> assertThat(s.summary()).containsEntry("storm.iceberg.component", "iceberg-committer"));
    assertThat(snapshots).anySatisfy(s -> assertThat(s.summary().get("storm.iceberg.writer-tasks")).contains(","));
    assertThat(TestTables.walEntries(table)).isEmpty();
  }

  @Test
  void aFailedCommitterAppendReplaysTheWholeGroupAndLosesNothing() throws Exception {
    faults.inject(Faults.CommitFault.FAIL_BEFORE, 2);

    ReplayingSpout.Ledger ledger = run(EVENTS, 1);

    assertThat(faults.injected).hasValue(2);
    assertThat(ledger.failCount.get()).isPositive();
    // The failed append was definitely not applied: its replay is the only copy of each row.
    assertThat(TestTables.ids(table)).containsExactlyElementsOf(allIds(EVENTS));
  }

  @Test
  void aCommitThatLandedBeforeItsAnswerWasLostLeavesNoDuplicates() throws Exception {
    TestTiers.longTierOnly("the quick tier runs the split pair end to end and through a failed append");
    faults.inject(Faults.CommitFault.UNKNOWN_AFTER, 1);

    ReplayingSpout.Ledger ledger = run(EVENTS, 1);

    assertThat(faults.injected).hasValue(1);
    assertThat(ledger.failCount.get()).isZero();
    assertThat(TestTables.ids(table)).containsExactlyElementsOf(allIds(EVENTS));
  }

  @Test
  void aCommitterWithTwoTasksWarns() throws Exception {
    TestTiers.longTierOnly("the quick tier runs the split pair end to end and through a failed append");
    try (LogCapture logs = new LogCapture()) {
      run(1_000, 2);
      assertThat(logs.lines.stream().filter(l -> l.startsWith("WARN IcebergCommitterBolt component 'iceberg-committer' has 2 tasks; run it at parallelism 1 behind globalGrouping")))
          .hasSize(2);
    }
    assertThat(TestTables.ids(table)).containsExactlyElementsOf(allIds(1_000));
  }
}
