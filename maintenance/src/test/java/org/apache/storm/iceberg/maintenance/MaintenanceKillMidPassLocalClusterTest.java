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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.metrics.RegistryCapture;
import org.apache.storm.iceberg.spi.CommitEventFields;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The maintenance bolt in Storm's LocalCluster, fed IcebergBolt's commit events, with the worker
 * killed inside a maintenance pass at a chosen stage, and the topology deployed again under a new
 * name. The pass is held at the stage by its catalog ({@link PassStageCatalog}: a real JDBC catalog
 * whose table operations hold the one commit), so the kill lands there every run:
 *
 * <ul>
 *   <li>{@code COMPACTION_COMMIT}: the compaction has written its new data files and not committed;
 *   <li>{@code EXPIRY_COMMIT}: a pass has compacted, and its expiry has planned which snapshots to
 *       remove and neither committed nor deleted anything;
 *   <li>{@code EXPIRY_DELETES}: that expiry's commit has landed, and none of the files only the
 *       expired snapshots named is deleted yet.
 * </ul>
 *
 * <p>The pass ends at the stage and nothing in it cleans up after it, as when the process dies
 * there. The next deployment's maintenance then runs from what the table holds: the test checks every id in the table exactly once (every row read back: a file the table names
 * but expiry deleted fails the read), every file any kept snapshot names present, the table
 * compacted to one data file, the sink's token snapshot kept, the interrupted compaction's files
 * never in the table (left on disk as orphans: the kill did land after they were written), and that
 * later passes completed, compacting and expiring. Expiry keeps only the newest snapshot (retain-last
 * 1, max age 0), so only the token guard keeps the sink's positions. 200 ids, ten a commit, a pass
 * every five commits or two seconds; about 20 s a case. The quick tier runs the first two stages,
 * the long tier all three.
 */
@ExtendWith(SharedLocalCluster.class)
class MaintenanceKillMidPassLocalClusterTest {
  private static final long EVENTS = 200;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(PassStageCatalog.Stage.class)
  void aWorkerKilledInsideAPassLeavesEveryIdOnceAndTheTableCompacted(PassStageCatalog.Stage stage, LocalCluster cluster) throws Exception {
    if (stage == PassStageCatalog.Stage.EXPIRY_DELETES) {
      TestTiers.longTierOnly("the quick tier kills at the expiry's commit; this case kills just after it, before its deletes");
    }
    FieldPositions.IDENTITIES.clear();
    Map<String, String> catalogProperties = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    PassStageCatalog.Hold hold = new PassStageCatalog.Hold(stage);
    IcebergOptions sink = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withCommitIntervalRecords(10).withCommitIntervalMillis(500).withCommitEvents("iceberg-commits")
        .withSourcePositions(new FieldPositions()).build();
    // Only maintenance goes through the holding catalog; no lease (a JDBC lease needs the catalog's own
    // properties), so nothing but the one maintainer of each deployment touches the table's snapshots.
    MaintenanceOptions maintenance = new MaintenanceOptions.Builder().withCatalogName("test")
        .withCatalogProperties(hold.catalogProperties(catalogProperties))
        .triggerOnCommits(5).triggerEvery(Duration.ofSeconds(2)).withMinGap(Duration.ZERO)
        .withCompaction(true, Map.of("min-input-files", "2"))
        .withExpiryMaxAge(Duration.ZERO).withExpiryRetainLast(1)
        .withLease(MaintenanceLease.Kind.NONE, Duration.ofSeconds(5))
        .build();
    String ledgerKey = UUID.randomUUID().toString();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new MaintenanceLocalClusterTest.PositionedSpout(ledgerKey, EVENTS), 1);
    ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(ledgerKey);
    ledger.emitLimit = EVENTS / 2; // the second half after the kill, so that the next deployment's maintenance has more to do
    builder.setBolt("iceberg", new IcebergBolt(sink), 1).fieldsGrouping("events", new Fields("partition"));
    builder.setBolt("maintenance", new IcebergMaintenanceBolt(maintenance), 1)
        .fieldsGrouping("iceberg", "iceberg-commits", new Fields(CommitEventFields.TABLE));
    String name = "kill-mid-pass-" + ledgerKey.substring(0, 8);
    StormTopology topology = builder.createTopology();

    try {
      cluster.submitTopology(name + "-a", LocalClusterRuns.config(), topology);
      assertThat(hold.reached.await(120, TimeUnit.SECONDS)).as("a pass reached " + stage).isTrue();
      kill(cluster, name + "-a");
      // The worker's shutdown (the bolt's cleanup) interrupts the pass thread: the held pass has ended before the worker is gone.
      assertThat(hold.ended.getCount()).as("the held pass ended by the worker's shutdown").isZero();
      hold.workerGone.countDown();

      ledger.emitLimit = Long.MAX_VALUE;
      cluster.submitTopology(name + "-b", LocalClusterRuns.config(), topology);
      try {
        Deadline.await(Duration.ofSeconds(120), () -> ledger.acked.size() == EVENTS && hold.compactionsAfter.get() > 0
                && hold.expiriesAfter.get() > 0,
            () -> "every id acked (" + ledger.acked.size() + "), and a compaction (" + hold.compactionsAfter + ") and an expiry ("
                + hold.expiriesAfter + ") committed after the kill");
        // The stream has ended: the interval trigger's next passes compact what the last commits added.
        // Not an assertion yet: a table that never gets there is reported after its ids, which say more.
        waitUpTo(Duration.ofSeconds(60), () -> liveDataFiles(table) == 1);
      } finally {
        kill(cluster, name + "-b");
      }
      assertThat(RegistryCapture.sumOfCounters(name + "-b", "iceberg-maintenance-passes")).as("passes of the next deployment").isPositive();
    } finally {
      hold.release();
      hold.workerGone.countDown();
      // The kill returns before the worker is gone; its maintenance thread may still be writing under
      // the test's temporary directory, which JUnit deletes when the test ends.
      LocalClusterRuns.awaitNoWorkers();
    }

    table.refresh();
    assertEveryReferencedFilePresent(table);
    // Every row read back, from every live file; a duplicated id is reported with its count.
    TestTables.assertEveryIdOnceUnlessReplayed(table, EVENTS, Set.of());
    assertThat(liveDataFiles(table)).as("the table compacted").isEqualTo(1);
    List<SinkTokens.Guard> guards = SinkTokens.guards(table, Set.of(), Set.of());
    assertThat(guards).as("the sink's token, on main").hasSize(1);
    SinkTokens.Token token = guards.get(0).deepest();
    assertThat(token.kind()).isEqualTo("source positions");
    assertThat(table.snapshot(token.snapshotId())).as("the sink's token snapshot " + token).isNotNull();
    if (stage == PassStageCatalog.Stage.COMPACTION_COMMIT) {
      assertThat(hold.heldDataFiles).as("the held compaction's new files").isNotEmpty();
      assertThat(table.snapshot(hold.heldSnapshotId)).as("the held compaction's snapshot").isNull();
      assertThat(referencedDataFiles(table)).as("files any kept snapshot names").doesNotContainAnyElementsOf(hold.heldDataFiles);
      assertThat(hold.heldDataFiles).as("the held compaction's files, orphans on disk: the kill came after they were written")
          .allMatch(location -> table.io().newInputFile(location).exists());
    } else {
      assertThat(hold.heldExpiredIds).as("the snapshots the held expiry planned to remove").isNotEmpty();
      assertThat(hold.heldExpiredIds).as("expired, by the held expiry's commit or a later pass").allMatch(id -> table.snapshot(id) == null);
      if (stage == PassStageCatalog.Stage.EXPIRY_DELETES) {
        // Nothing deletes what the killed expiry left: its files are orphans, for an orphan pass.
        assertThat(hold.heldManifestLists).as("the expired snapshots' manifest lists, on disk: the kill came before the deletes")
            .isNotEmpty().allMatch(location -> table.io().newInputFile(location).exists());
      }
    }
  }

  /** Polls {@code condition} until it holds or {@code timeout} has passed; the caller asserts what it needs after. */
  private static void waitUpTo(Duration timeout, java.util.function.BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean() && System.nanoTime() < end) {
      Thread.sleep(50);
    }
  }

  private static int liveDataFiles(Table table) {
    table.refresh();
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /** The data files every kept snapshot names, read from its manifests. */
  private static Set<String> referencedDataFiles(Table table) {
    Set<String> files = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
        tasks.forEach(task -> files.add(task.file().location()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files;
  }

  /** Every manifest list, manifest, data and delete file any kept snapshot names exists: expiry deleted none still needed. */
  private static void assertEveryReferencedFilePresent(Table table) {
    List<String> missing = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      check(table, snapshot.manifestListLocation(), missing);
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        check(table, manifest.path(), missing);
      }
      try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
        for (FileScanTask task : tasks) {
          check(table, task.file().location(), missing);
          for (DeleteFile delete : task.deletes()) {
            check(table, delete.location(), missing);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    assertThat(missing).as("files a kept snapshot names that are gone").isEmpty();
  }

  private static void check(Table table, String location, List<String> missing) {
    if (location != null && !table.io().newInputFile(location).exists()) {
      missing.add(location);
    }
  }

  /** Kills {@code topology} at once and waits for its worker to be gone: until then its spout still emits. */
  private static void kill(LocalCluster cluster, String topology) throws Exception {
    KillOptions now = new KillOptions();
    now.set_wait_secs(0);
    cluster.killTopologyWithOpts(topology, now);
    LocalClusterRuns.awaitNoWorkers();
  }
}
