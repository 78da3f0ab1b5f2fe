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
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TransactionalIdsSpout;
import org.apache.storm.iceberg.testing.TridentLedger;
import org.apache.storm.iceberg.testing.TridentRuns;
import org.apache.storm.iceberg.trident.IcebergTrident;
import org.apache.storm.trident.TridentState;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link IcebergMaintenanceFunction} in Storm's LocalCluster, fed the commit events of {@code
 * IcebergTrident.persist} (a transactional spout, two writing partitions): passes run as the events
 * come, compacting the sink's small files and expiring every snapshot but the newest (retain-last 1,
 * no minimum age). The last pass runs after the sink's last transaction, so that plain expiry would
 * take the sink's token, the snapshot of its newest transaction, which the state reads to skip a
 * replay: it is kept, with the history from the table's head down to it. Every id is in the table
 * exactly once, and the table ends in one file and fewer snapshots than its transactions made. 240 ids,
 * 40 a transaction, a pass every three commits or two seconds.
 */
@ExtendWith(SharedLocalCluster.class)
class TridentMaintenanceLocalClusterTest {
  private static final long EVENTS = 240;
  private static final int BATCH = 10;

  @TempDir Path dir;

  @Test
  void commitEventsOfATridentStateDriveCompactionAndExpiryThatKeepTheStatesToken(LocalCluster cluster) throws Exception {
    Map<String, String> catalogProperties = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(
        TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(), TridentRuns.TABLE_PROPERTIES);
    IcebergOptions sink = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withTridentStateType(StateType.TRANSACTIONAL).withCommitRetryBackoffMillis(50)
        .withCommitEvents("iceberg-commits").build();
    MaintenanceOptions maintenance = new MaintenanceOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .triggerOnCommits(3).triggerEvery(Duration.ofSeconds(2)).withMinGap(Duration.ZERO)
        .withCompaction(true, Map.of("min-input-files", "2"))
        .withExpiryMaxAge(Duration.ZERO).withExpiryRetainLast(1)
        // No lease: the lease has tests of its own, and nothing else maintains this table.
        .withLease(false, Duration.ofSeconds(30))
        .build();

    String key = UUID.randomUUID().toString();
    TridentTopology trident = new TridentTopology();
    TridentState state = IcebergTrident.persist(
        trident.newStream("tx-" + key, new TransactionalIdsSpout(key, EVENTS, TridentRuns.SPOUT_PARTITIONS, BATCH))
            .parallelismHint(TridentRuns.STATE_PARALLELISM),
        new Fields(TestTables.FIELDS), sink);
    IcebergMaintenanceFunction.maintain(state.newValuesStream(), maintenance);
    String name = "trident-maintenance-" + key.substring(0, 8);
    TridentLedger ledger = TridentLedger.of(key);
    cluster.submitTopology(name, TridentRuns.config(), trident.build());
    long lastTxid;
    int transactions;
    try {
      TridentRuns.awaitEveryRowCommitted(ledger, EVENTS, Duration.ofSeconds(60));
      List<Long> withIds = ledger.finalIdsByTxid().entrySet().stream().filter(e -> !e.getValue().isEmpty()).map(Map.Entry::getKey).toList();
      lastTxid = withIds.get(withIds.size() - 1);
      transactions = withIds.size();
      // A compaction planned before the last transaction may land after it: the interval trigger's
      // next passes compact what it left, so the wait is for one file.
      Deadline.await(Duration.ofSeconds(30),
          () -> compactedAfter(table, lastTxid) && snapshotCount(table) < transactions && liveFiles(table) == 1,
          () -> "a compaction after transaction " + lastTxid + ", fewer snapshots than the " + transactions
              + " transactions, and one live file (" + liveFiles(table) + "); the table has " + kinds(table));
    } finally {
      TridentRuns.kill(cluster, name);
    }
    // The kill returns before the worker is gone; its maintenance thread may still be writing under
    // the test's temporary directory, which JUnit deletes when the test ends.
    LocalClusterRuns.awaitNoWorkers();

    table.refresh();
    List<Long> ids = new ArrayList<>(TestTables.ids(table));
    ids.sort(null);
    assertThat(ids).as("every id once, through compactions and expiry").isEqualTo(LongStream.range(0, EVENTS).boxed().toList());
    assertThat(table.currentSnapshot().summary()).containsEntry(DataCompaction.SUMMARY_KEY, "compaction");
    List<Snapshot> ancestry = new ArrayList<>();
    SnapshotUtil.ancestorsOf(table.currentSnapshot().snapshotId(), table::snapshot).forEach(ancestry::add);
    assertThat(ancestry).as("the head, a compaction, reaches the state's newest transaction through an unbroken history")
        .anyMatch(s -> Long.toString(lastTxid).equals(s.summary().get(TridentRuns.TXID)));
    assertThat(snapshotCount(table)).as("older snapshots expired").isLessThan(transactions);
    assertThat(liveFiles(table)).as("the table compacted into one file").isEqualTo(1);
  }

  /** Whether the head is a compaction whose history holds the sink's transaction {@code txid}. */
  private static boolean compactedAfter(Table table, long txid) {
    table.refresh();
    Snapshot head = table.currentSnapshot();
    if (head == null || !"compaction".equals(head.summary().get(DataCompaction.SUMMARY_KEY))) {
      return false;
    }
    for (Snapshot snapshot : SnapshotUtil.ancestorsOf(head.snapshotId(), table::snapshot)) {
      if (Long.toString(txid).equals(snapshot.summary().get(TridentRuns.TXID))) {
        return true;
      }
    }
    return false;
  }

  private static int liveFiles(Table table) {
    table.refresh();
    try (org.apache.iceberg.io.CloseableIterable<org.apache.iceberg.FileScanTask> tasks = table.newScan().planFiles()) {
      int files = 0;
      for (org.apache.iceberg.FileScanTask ignored : tasks) {
        files++;
      }
      return files;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static int snapshotCount(Table table) {
    table.refresh();
    return TestTables.snapshots(table).size();
  }

  /** What each snapshot of the table is: the sink's transaction, or a maintenance step. */
  private static List<String> kinds(Table table) {
    table.refresh();
    return TestTables.snapshots(table).stream()
        .map(s -> s.summary().getOrDefault(DataCompaction.SUMMARY_KEY, "transaction " + s.summary().get(TridentRuns.TXID))).toList();
  }
}
