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
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The maintenance bolt in Storm's LocalCluster, fed IcebergBolt's commit events, with the topology's
 * worker killed twice mid-maintenance and the topology deployed again under a new name: once as the
 * first compaction lands (its pass still running, expiry next), once as a later pass has compacted
 * again and expiry has removed snapshots. Expiry keeps only the newest snapshot (retain-last 1), so
 * only the token guard keeps the sink's positions: without it, the redeployed sink replays what
 * landed and ids appear twice (seen when the guard is removed). The sink reads Kafka-like source
 * positions; the test checks that every id is in the table exactly once and that maintenance went
 * on after each restart (a compaction after each kill), and that the table ends compacted. Two
 * maintenance bolts take the same commit events and share the table's JDBC lease: one runs a pass
 * while the other finds the lease held and skips (counted), as two topologies or a cron run would.
 * 200 ids, ten a commit, a pass every five commits or two seconds. Long tier only (about 30 s).
 *
 * <p>A kill stops the topology rather than its worker alone: LocalCluster's supervisor notices a
 * killed worker only by its 30 s heartbeat timeout and relaunches it about 90 s later, the same
 * shutdown at three times the cost.
 */
@EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
@ExtendWith(SharedLocalCluster.class)
class MaintenanceLocalClusterTest {
  private static final long EVENTS = 200;

  @TempDir Path dir;

  @Test
  void aStreamWithMaintenanceKeepsEveryIdOnceAndItsTableCompactedThroughWorkerKills(LocalCluster cluster) throws Exception {
    FieldPositions.IDENTITIES.clear();
    Map<String, String> catalogProperties = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    IcebergOptions sink = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withCommitIntervalRecords(10).withCommitIntervalMillis(500).withCommitEvents("iceberg-commits")
        .withSourcePositions(new FieldPositions()).build();
    MaintenanceOptions maintenance = new MaintenanceOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .triggerOnCommits(5).triggerEvery(Duration.ofSeconds(2)).withMinGap(Duration.ZERO)
        .withCompaction(true, Map.of("min-input-files", "2"))
        .withExpiryMaxAge(Duration.ZERO).withExpiryRetainLast(1)
        .withManifestRewrite(true, 2)
        // A killed holder's lease expires after 5 s, so that the next deployment maintains soon after.
        .withLease(MaintenanceLease.Kind.JDBC, Duration.ofSeconds(5))
        .build();
    String ledgerKey = UUID.randomUUID().toString();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new PositionedSpout(ledgerKey, EVENTS), 1);
    ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(ledgerKey);
    ledger.emitLimit = EVENTS / 2; // the second half goes after the kills, so that maintenance has more to do
    builder.setBolt("iceberg", new IcebergBolt(sink), 1).fieldsGrouping("events", new Fields("partition"));
    builder.setBolt("maintenance", new IcebergMaintenanceBolt(maintenance), 1)
        .fieldsGrouping("iceberg", "iceberg-commits", new Fields(CommitEventFields.TABLE));
    builder.setBolt("maintenance-twin", new IcebergMaintenanceBolt(maintenance), 1)
        .fieldsGrouping("iceberg", "iceberg-commits", new Fields(CommitEventFields.TABLE));
    History history = new History(table);
    String name = "maintenance-" + ledgerKey.substring(0, 8);
    org.apache.storm.generated.StormTopology topology = builder.createTopology();

    // Each stop kills the topology's worker mid-pass, as its maintenance thread works, and the next
    // deployment (renamed, as a redeploy would be) starts from what the table holds.
    cluster.submitTopology(name + "-a", LocalClusterRuns.config(), topology);
    Deadline.await(Duration.ofSeconds(120), () -> history.seen("compaction"), () -> "a compaction; seen " + history);
    kill(cluster, name + "-a");
    long firstKill = history.newestSnapshotId();
    ledger.emitLimit = EVENTS * 3 / 4;
    cluster.submitTopology(name + "-b", LocalClusterRuns.config(), topology);
    Deadline.await(Duration.ofSeconds(120), () -> history.compactedAfter(firstKill) && history.anyExpired(),
        () -> "a compaction after the first kill, and a snapshot expired; seen " + history);
    kill(cluster, name + "-b");
    long secondKill = history.newestSnapshotId();
    ledger.emitLimit = Long.MAX_VALUE;
    cluster.submitTopology(name + "-c", LocalClusterRuns.config(), topology);
    try {
      Deadline.await(Duration.ofSeconds(120), () -> ledger.acked.size() == EVENTS && history.compactedAfter(secondKill)
              && history.seen("manifest-rewrite"),
          () -> "every id acked (" + ledger.acked.size() + "), a compaction after the second kill, and a manifest rewrite; seen "
              + history);
      // The stream has ended: the interval trigger's next passes compact what the last commits added.
      Deadline.await(Duration.ofSeconds(60), () -> liveDataFiles(table) == 1,
          () -> "the table compacted to one data file; " + liveDataFiles(table) + " live");
    } finally {
      kill(cluster, name + "-c");
    }

    // The kill returns before the worker is gone; its maintenance thread may still be writing under
    // the test's temporary directory, which JUnit deletes when the test ends.
    LocalClusterRuns.awaitNoWorkers();
    table.refresh();
    List<Long> ids = new ArrayList<>(TestTables.ids(table));
    ids.sort(null);
    assertThat(ids).as("every id once, through two worker kills, compactions and expiry").isEqualTo(LongStream.range(0, EVENTS).boxed().toList());
    assertThat(liveDataFiles(table)).as("the table compacted").isEqualTo(1);
    long busy = 0;
    for (String deployment : List.of("-a", "-b", "-c")) {
      busy += org.apache.storm.iceberg.kernel.metrics.RegistryCapture.sumOfCounters(name + deployment, "iceberg-maintenance-lease-busy");
    }
    assertThat(busy).as("passes skipped because the other maintainer held the table's lease").isPositive();
  }

  private static int liveDataFiles(Table table) {
    table.refresh();
    int files = 0;
    try (org.apache.iceberg.io.CloseableIterable<org.apache.iceberg.FileScanTask> tasks = table.newScan().planFiles()) {
      for (org.apache.iceberg.FileScanTask task : tasks) {
        files++;
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return files;
  }

  /** Kills {@code topology} at once and waits for its worker to be gone: until then its spout still emits. */
  private static void kill(LocalCluster cluster, String topology) throws Exception {
    org.apache.storm.generated.KillOptions now = new org.apache.storm.generated.KillOptions();
    now.set_wait_secs(0);
    cluster.killTopologyWithOpts(topology, now);
    LocalClusterRuns.awaitNoWorkers();
  }

  /** ReplayingSpout's events with a Kafka-like position (topic, partition 0, offset = id), for the sink's deduplication. */
  public static final class PositionedSpout extends ReplayingSpout {
    public PositionedSpout(String ledgerKey, long count) {
      super(ledgerKey, count);
    }

    @Override
    protected Values event(long id) {
      Values values = values(id);
      values.add("events");
      values.add(0);
      values.add(id);
      return values;
    }

    @Override
    protected Fields eventFields() {
      List<String> fields = new ArrayList<>(List.of(TestTables.FIELDS));
      fields.addAll(List.of("topic", "partition", "offset"));
      return new Fields(fields);
    }
  }

  /** What the table showed as the test polled it: expiry keeps only the newest few snapshots, so kinds are gathered as they pass. */
  private static final class History {
    private final Table table;
    /** Snapshot id to kind ("sink", "compaction", "dangling-deletes", "manifest-rewrite"), as seen. */
    private final Map<Long, String> kinds = new java.util.concurrent.ConcurrentSkipListMap<>();
    private final List<Long> order = new java.util.concurrent.CopyOnWriteArrayList<>();

    History(Table table) {
      this.table = table;
    }

    private synchronized void poll() {
      table.refresh();
      for (Snapshot snapshot : TestTables.snapshots(table)) {
        if (kinds.putIfAbsent(snapshot.snapshotId(), snapshot.summary().getOrDefault(DataCompaction.SUMMARY_KEY, "sink")) == null) {
          order.add(snapshot.snapshotId());
        }
      }
    }

    boolean seen(String kind) {
      poll();
      return kinds.containsValue(kind);
    }

    /** Whether a snapshot seen before is gone: expiry removed it. */
    boolean anyExpired() {
      poll();
      return order.stream().anyMatch(id -> table.snapshot(id) == null);
    }

    long newestSnapshotId() {
      poll();
      return order.get(order.size() - 1);
    }

    /** Whether a compaction was seen after snapshot {@code id}. */
    boolean compactedAfter(long id) {
      poll();
      int from = order.indexOf(id);
      return order.subList(from + 1, order.size()).stream().anyMatch(later -> "compaction".equals(kinds.get(later)));
    }

    @Override
    public String toString() {
      return order.stream().map(kinds::get).toList().toString();
    }
  }
}
