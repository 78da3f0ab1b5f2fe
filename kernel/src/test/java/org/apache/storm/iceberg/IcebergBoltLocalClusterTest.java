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
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.kernel.metrics.RegistryCapture;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.RestCatalogServer;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * IcebergBolt end to end in Storm's LocalCluster, on Hadoop, JDBC (SQLite) and REST catalogs, the
 * last two also with their tables on S3 (S3FileIO on the test JVM's S3MockServer).
 */
@ExtendWith(SharedLocalCluster.class)
class IcebergBoltLocalClusterTest {
  static final long EVENTS = 10_000;
  /**
   * On S3 each batch writes one object per partition (20 here) through an S3Mock on the same cores,
   * so the runs there are smaller, to stay well within the message timeout on a busy machine.
   */
  static final long EVENTS_ON_S3 = 2_000;

  enum CatalogKind {
    HADOOP,
    JDBC_SQLITE,
    REST,
    JDBC_SQLITE_ON_S3,
    REST_ON_S3
  }

  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }


  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void everyTupleLandsAndIsAckedOnlyAfterItsCommit(CatalogKind kind) throws Exception {
    if (kind == CatalogKind.REST) {
      TestTiers.longTierOnly("the REST catalog runs in LocalCluster in the gateway tests too");
    }
    if (kind == CatalogKind.JDBC_SQLITE) {
      TestTiers.longTierOnly("the quick tier runs IcebergBolt on JDBC (SQLite) at task level; LocalCluster on JDBC is long tier");
    }
    if (kind == CatalogKind.JDBC_SQLITE_ON_S3 || kind == CatalogKind.REST_ON_S3) {
      TestTiers.longTierOnly("on S3, ObjectStorageSinkTest commits a batch through S3FileIO in the quick tier");
    }
    RestCatalogServer rest =
        kind == CatalogKind.REST ? new RestCatalogServer(dir.resolve("rest"))
            : kind == CatalogKind.REST_ON_S3 ? RestCatalogServer.onS3(dir.resolve("rest")) : null;
    try {
      Map<String, String> catalogProperties =
          switch (kind) {
            case HADOOP -> TestCatalogs.hadoop(dir);
            case JDBC_SQLITE -> TestCatalogs.jdbcSqlite(dir);
            case REST, REST_ON_S3 -> rest.clientProperties();
            case JDBC_SQLITE_ON_S3 -> TestCatalogs.jdbcSqliteOnS3(dir);
          };
      // The catalog exists before the topology starts, as in production: several tasks creating
      // the JDBC catalog's own tables at once on an empty SQLite file would race.
      TestCatalogs.load(catalogProperties);
      runAndCheck(catalogProperties,
          kind == CatalogKind.JDBC_SQLITE_ON_S3 || kind == CatalogKind.REST_ON_S3 ? EVENTS_ON_S3 : EVENTS);
    } finally {
      if (rest != null) {
        rest.close();
      }
    }
  }

  /**
   * Each of the sink's 4 tasks holds about a quarter of the 600 tuples the spout may have pending,
   * so 200-record batches fill only if 800 may be: every task warns at prepare (its age threshold
   * still seals the batches), naming both sides, and every id lands.
   */
  @org.junit.jupiter.api.Test
  void pendingTuplesAreCheckedAgainstEverySinkTask() throws Exception {
    TestTiers.longTierOnly("TopologyChecksTest checks the pending-tuples rule in the quick tier");
    Map<String, String> catalogProperties = TestCatalogs.jdbcSqlite(dir);
    TestCatalogs.load(catalogProperties);
    String ledgerKey = UUID.randomUUID().toString();
    IcebergOptions options =
        new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
            .withTable("db.events").withAutoCreate(TestTables.SCHEMA, TestTables.REGION_DAY)
            .withCommitIntervalRecords(200).withCommitIntervalMillis(2_000).build();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(ledgerKey, 1_200), 1);
    builder.setBolt("iceberg", new IcebergBolt(options), 4).shuffleGrouping("events");
    org.apache.storm.Config conf = LocalClusterRuns.config();
    conf.setMaxSpoutPending(600);
    try (LogCapture log = new LogCapture()) {
      LocalClusterRuns.runUntilAllAcked(
          cluster, "pending-" + ledgerKey.substring(0, 8), conf, builder.createTopology(), ledgerKey, 1_200);
      assertThat(log.lines.stream().filter(line -> line.startsWith("WARN topology.max.spout.pending")))
          .hasSize(4)
          .allMatch(line -> line.startsWith("WARN topology.max.spout.pending (600 per spout task, 600 in all) is below"
              + " the 800 tuples component 'iceberg' needs pending to fill its batches: 200 records a batch"
              + " (withCommitIntervalRecords) × 4 tasks"));
    }
    Table table = TestCatalogs.load(catalogProperties).loadTable(TableIdentifier.of("db", "events"));
    TestTables.assertEveryIdOnceUnlessReplayed(table, 1_200, ReplayingSpout.ledger(ledgerKey).failedIds);
  }

  /**
   * With {@code max-pending-commits} 2, the executor writes on while two sealed batches wait for the
   * commit thread: the first commit is held until a third batch's data file exists (which, with one
   * commit pending allowed, the executor never starts while it waits), and still every id lands once,
   * is acked, and the commits land in seal order (each snapshot adds ids above the last's).
   */
  @org.junit.jupiter.api.Test
  void withTwoPendingCommitsTheExecutorWritesAThirdBatchWhileTheFirstCommitsAndCommitsLandInSealOrder() throws Exception {
    TestTiers.longTierOnly("the quick tier runs the HADOOP case above with max-pending-commits 2, and"
        + " CommitPipelineTest steps two pending commits at task level");
    Faults faults = Faults.create();
    Map<String, String> real = TestCatalogs.hadoop(dir);
    Map<String, String> catalogProperties = FaultInjectingCatalog.properties(real, faults);
    Catalog catalog = TestCatalogs.load(real);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    AtomicBoolean held = new AtomicBoolean();
    AtomicBoolean thirdBatchWritten = new AtomicBoolean();
    faults.duringCommit = () -> {
      if (held.compareAndSet(false, true)) {
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!(thirdBatchWritten.get() || dataFiles(table) >= 3) && System.nanoTime() < until) {
          org.apache.storm.utils.Utils.sleep(20);
        }
        thirdBatchWritten.set(dataFiles(table) >= 3);
      }
    };
    long events = 600;
    String ledgerKey = UUID.randomUUID().toString();
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withCommitIntervalRecords(100).withMaxPendingCommits(2).build();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(ledgerKey, events), 1);
    builder.setBolt("iceberg", new IcebergBolt(options), 1).shuffleGrouping("events");
    LocalClusterRuns.runUntilAllAcked(cluster, "pending-two-" + ledgerKey.substring(0, 8), builder.createTopology(), ledgerKey, events);

    assertThat(thirdBatchWritten).as("a third batch was written while the first commit was held").isTrue();
    ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(ledgerKey);
    table.refresh();
    TestTables.assertEveryIdOnceUnlessReplayed(table, events, ledger.failedIds);
    assertThat(ledger.failedIds).isEmpty();
    long lastId = -1;
    for (Snapshot snapshot : TestTables.snapshots(table)) {
      List<Long> added = new java.util.ArrayList<>(TestTables.ids(table, snapshot.snapshotId()));
      if (snapshot.parentId() != null) {
        added.removeAll(TestTables.ids(table, snapshot.parentId()));
      }
      long floor = lastId;
      assertThat(added).as("snapshot %s, after ids up to %s", snapshot.snapshotId(), floor).isNotEmpty().allMatch(id -> id > floor);
      lastId = java.util.Collections.max(added);
    }
  }

  private static long dataFiles(Table table) {
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(Path.of(java.net.URI.create(table.location())))) {
      return files.filter(f -> f.toString().endsWith(".parquet")).count();
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      return 0; // a file appeared or went mid-walk: look again
    }
  }

  /** Two tasks, each with up to two sealed batches pending on its commit thread. */
  private void runAndCheck(Map<String, String> catalogProperties, long events) throws Exception {
    String ledgerKey = UUID.randomUUID().toString();
    IcebergOptions options =
        new IcebergOptions.Builder()
            .withCatalogName("test")
            .withCatalogProperties(catalogProperties)
            .withTable("db.events")
            .withAutoCreate(TestTables.SCHEMA, TestTables.REGION_DAY)
            .withCommitIntervalRecords(1_000)
            .withCommitIntervalMillis(2_000)
            .withTickIntervalSecs(1)
            .withMaxPendingCommits(2)
            .build();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(ledgerKey, events), 1);
    builder.setBolt("iceberg", new IcebergBolt(options), 2).shuffleGrouping("events");
    String name = "iceberg-" + ledgerKey.substring(0, 8);
    LocalClusterRuns.runUntilAllAcked(cluster, name, builder.createTopology(), ledgerKey, events);
    ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(ledgerKey);

    Table table = TestCatalogs.load(catalogProperties).loadTable(TableIdentifier.of("db", "events"));
    TestTables.assertEveryIdOnceUnlessReplayed(table, events, ledger.failedIds);
    List<Snapshot> snapshots = TestTables.snapshots(table);
    assertThat(snapshots).isNotEmpty().allSatisfy(s -> assertThat(s.summary()).containsKey(IcebergOptions.COMMIT_ID_PROPERTY));
    assertThat(snapshots.stream().collect(Collectors.groupingBy(s -> s.summary().get(IcebergOptions.COMMIT_ID_PROPERTY), Collectors.counting())))
        .as("snapshots per commit id").allSatisfy((id, count) -> assertThat(count).as(id).isEqualTo(1L));
    assertThat(snapshots.stream().map(s -> s.summary().get("storm.iceberg.task-index")).distinct())
        .containsExactlyInAnyOrder("0", "1");
    assertThat(TestTables.walEntryLocations(table)).isEmpty();
    // Every row a snapshot added was acked: nothing is visible that the spout was not told about.
    assertThat(ledger.acked).hasSize((int) events);

    // The tasks' metrics, read through a real metrics-v2 reporter, match the run.
    long filesInTable = snapshots.stream().mapToLong(s -> Long.parseLong(s.summary().get("added-data-files"))).sum();
    long rowsInTable = snapshots.stream().mapToLong(s -> Long.parseLong(s.summary().get("added-records"))).sum();
    assertThat(RegistryCapture.captured()).as("the reporter got the worker's registry").isTrue();
    assertThat(RegistryCapture.sumOfCounters(name, "iceberg-data-files-committed")).as(RegistryCapture.names().toString()).isEqualTo(filesInTable);
    assertThat(RegistryCapture.sumOfCounters(name, "iceberg-records-written")).isGreaterThanOrEqualTo(rowsInTable);
    // No fault is injected: a commit that fails is one Iceberg could not retry through, and replays.
    assertThat(RegistryCapture.sumOfCounters(name, "iceberg-commit-failures")).isLessThanOrEqualTo(ledger.failCount.get());
  }
}
