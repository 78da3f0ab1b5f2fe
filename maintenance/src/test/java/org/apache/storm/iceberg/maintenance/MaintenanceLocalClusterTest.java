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

package org.apache.storm.iceberg.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.IcebergBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.spi.CommitEventFields;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The maintenance bolt in Storm's LocalCluster, fed IcebergBolt's commit events: while the stream
 * runs, the table is compacted, its snapshots expired and its manifests rewritten, and every id is
 * in it once. 200 ids, ten a commit: twenty commits, a pass every five. Long tier only: it takes
 * about 70 s, half of it the killed worker shutting down (why so slowly is not yet understood),
 * and the quick tier has no minute to spare; the pass itself is covered there by the other tests.
 */
@EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
@ExtendWith(SharedLocalCluster.class)
class MaintenanceLocalClusterTest {
  private static final long EVENTS = 200;

  @TempDir Path dir;

  @Test
  void aStreamWithMaintenanceOnKeepsItsTableCompactedAndEveryIdOnce(LocalCluster cluster) throws Exception {
    Map<String, String> catalogProperties = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    IcebergOptions sink = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withCommitIntervalRecords(10).withCommitIntervalMillis(500).withCommitEvents("iceberg-commits").build();
    MaintenanceOptions maintenance = new MaintenanceOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .triggerOnCommits(5).triggerEvery(Duration.ZERO).withMinGap(Duration.ZERO)
        .withCompaction(true, Map.of("min-input-files", "2"))
        .withExpiryMaxAge(Duration.ZERO).withExpiryRetainLast(3)
        .withManifestRewrite(true, 2)
        .build();
    String ledgerKey = UUID.randomUUID().toString();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(ledgerKey, EVENTS), 1);
    builder.setBolt("iceberg", new IcebergBolt(sink), 2).shuffleGrouping("events");
    builder.setBolt("maintenance", new IcebergMaintenanceBolt(maintenance), 1)
        .fieldsGrouping("iceberg", "iceberg-commits", new Fields(CommitEventFields.TABLE));

    LocalClusterRuns.runUntilAllAcked(cluster, "maintenance-" + ledgerKey.substring(0, 8), builder.createTopology(),
        LocalClusterRuns.config(), ledgerKey, EVENTS, () -> Deadline.await(Duration.ofSeconds(120),
            () -> maintained(table), () -> "a compaction, an expiry and a manifest rewrite; seen " + SEEN));

    // The kill returns before the worker is gone; its maintenance thread may still be writing under
    // the test's temporary directory, which JUnit deletes when the test ends.
    LocalClusterRuns.awaitNoWorkers();
    table.refresh();
    List<Long> ids = new ArrayList<>(TestTables.ids(table));
    ids.sort(null);
    assertThat(ids).isEqualTo(LongStream.range(0, EVENTS).boxed().toList());
  }

  /** The kinds of snapshot seen in the table's history so far: expiry keeps only the newest few, so they are gathered as the test polls. */
  private static final java.util.Set<String> SEEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** Whether the table has shown each kind of maintenance: a compaction, a manifest rewrite, and its first snapshot expired. */
  private static boolean maintained(Table table) {
    table.refresh();
    SEEN.addAll(summaries(table));
    return SEEN.contains("compaction") && SEEN.contains("manifest-rewrite") && table.snapshot(firstSnapshotId(table)) == null;
  }

  private static long firstSnapshotId = Long.MIN_VALUE;

  /** The table's first snapshot, remembered once seen: expiry must remove it. */
  private static long firstSnapshotId(Table table) {
    if (firstSnapshotId == Long.MIN_VALUE) {
      List<Snapshot> snapshots = TestTables.snapshots(table);
      if (!snapshots.isEmpty()) {
        firstSnapshotId = snapshots.get(0).snapshotId();
      }
    }
    return firstSnapshotId;
  }

  private static List<String> summaries(Table table) {
    List<String> kinds = new ArrayList<>();
    for (Snapshot snapshot : TestTables.snapshots(table)) {
      kinds.add(snapshot.summary().getOrDefault(DataCompaction.SUMMARY_KEY, "sink"));
    }
    return kinds;
  }
}
