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

package org.apache.storm.iceberg.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.storm.iceberg.maintenance.JdbcLease;
import org.apache.storm.iceberg.maintenance.MaintenanceLease;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The maintain command on a real table a real sink task wrote: what a dry run reports, what a run does. */
class IcebergMaintainTest {
  @TempDir Path warehouse;
  final ByteArrayOutputStream out = new ByteArrayOutputStream();
  final ByteArrayOutputStream err = new ByteArrayOutputStream();

  int run(String... args) {
    out.reset();
    err.reset();
    return IcebergMaintain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aDryRunReportsAndChangesNothingThenARunCompactsExpiresAndKeepsTheToken() {
    MaintainedTable maintained = MaintainedTable.create(warehouse);
    String[] everything = {"--compact", "--compaction-option", "min-input-files=2", "--expire", "--expire-max-age", "PT0S",
        "--retain-last", "1", "--rewrite-manifests"};
    long token = maintained.table().currentSnapshot().snapshotId();

    assertThat(run(maintained.args(concat(everything, "--dry-run")))).as("stderr: %s", err).isZero();
    assertThat(out()).contains("compaction (dry run: nothing changed): 1 groups planned, 0 committed, 0 dropped on conflict;"
        + " 6 files rewritten into 1");
    assertThat(out()).contains("expiry (dry run: nothing changed): 5 snapshots expired");
    maintained.table().refresh();
    assertThat(TestTables.snapshots(maintained.table())).hasSize(6);

    assertThat(run(maintained.args(everything))).as("stderr: %s", err).isZero();
    assertThat(out()).contains("compaction: 1 groups planned, 1 committed, 0 dropped on conflict; 6 files rewritten into 1")
        .contains("expiry: 5 snapshots expired")
        .contains("needs the source positions of default in snapshot " + token);
    maintained.table().refresh();
    assertThat(out()).contains("manifest rewrite: 7 manifests rewritten");
    assertThat(TestTables.snapshots(maintained.table())).as("the token, the compaction and the manifest rewrite").hasSize(3);
    assertThat(maintained.table().snapshot(token)).isNotNull();
    assertThat(maintained.ids()).isEqualTo(LongStream.range(0, MaintainedTable.RECORDS).boxed().toList());
  }

  @Test
  void aCompactionWritesThroughTheFileFormatProviderNamed() {
    MaintainedTable maintained = MaintainedTable.create(warehouse);
    long before = maintained.table().currentSnapshot().snapshotId();

    assertThat(run(maintained.args("--compact", "--compaction-option", "min-input-files=2", "--file-format", "avro",
        "--write-property", "write.avro.compression-codec=zstd"))).as("stderr: %s", err).isZero();

    maintained.table().refresh();
    java.util.List<org.apache.iceberg.DataFile> added = new java.util.ArrayList<>();
    for (org.apache.iceberg.Snapshot snapshot : org.apache.iceberg.util.SnapshotUtil.ancestorsBetween(
        maintained.table(), maintained.table().currentSnapshot().snapshotId(), before)) {
      snapshot.addedDataFiles(maintained.table().io()).forEach(added::add);
    }
    assertThat(added).isNotEmpty().allSatisfy(file -> assertThat(file.format()).isEqualTo(org.apache.iceberg.FileFormat.AVRO));
    assertThat(maintained.ids()).isEqualTo(LongStream.range(0, MaintainedTable.RECORDS).boxed().toList());

    assertThat(run(maintained.args("--expire", "--expire-cleanup", "some"))).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("--expire-cleanup: an expiry cleanup level is all, metadata-only or none, got 'some'");
    assertThat(run(maintained.args("--compact", "--file-format", "csv"))).as("a provider not on the classpath").isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("No file-format provider named 'csv' on the classpath for compaction");
  }

  @Test
  void orphansOlderThanTheMinimumAgeGoAndTheTableStillReadsBack() throws Exception {
    MaintainedTable maintained = MaintainedTable.create(warehouse);
    java.nio.file.Path orphan = java.nio.file.Path.of(java.net.URI.create(maintained.table().location() + "/data/crashed-task-file.parquet"));
    java.nio.file.Files.writeString(orphan, "left by a task that died mid-batch");
    java.nio.file.Files.setLastModifiedTime(orphan, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 7_200_000));

    assertThat(run(maintained.args("--remove-orphans", "--orphan-min-age", "PT1H", "--dry-run"))).as("stderr: %s", err).isZero();
    assertThat(out()).contains("orphan removal (dry run: nothing changed): ").contains(" 1 orphans would be deleted, ")
        .doesNotContain("orphans deleted").contains("crashed-task-file.parquet");
    assertThat(orphan).exists();

    assertThat(run(maintained.args("--remove-orphans", "--orphan-min-age", "PT1H"))).as("stderr: %s", err).isZero();
    assertThat(out()).contains("orphan removal: ").contains(" 1 orphans deleted, ");
    assertThat(orphan).doesNotExist();
    assertThat(maintained.ids()).isEqualTo(LongStream.range(0, MaintainedTable.RECORDS).boxed().toList());
  }

  @Test
  void withStormsZooKeeperItSkipsATableAnotherMaintainerHolds() throws Exception {
    MaintainedTable maintained = MaintainedTable.create(warehouse);
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    var zooKeeper = org.apache.storm.zookeeper.Zookeeper.mkInprocessZookeeper(warehouse.resolve("zk").toString(), port);
    try (org.apache.storm.iceberg.maintenance.MaintenanceLease topology = org.apache.storm.iceberg.maintenance.ZooKeeperLease.connect(
        "127.0.0.1:" + port, org.apache.storm.iceberg.maintenance.ZooKeeperLease.ROOT, java.time.Duration.ofSeconds(10))) {
      var held = topology.tryAcquire(MaintainedTable.NAME, "a topology's maintenance bolt");
      assertThat(run(maintained.args("--zookeeper", "127.0.0.1:" + port, "--expire", "--expire-max-age", "PT0S"))).isEqualTo(3);
      assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("Another maintainer holds the lease of db.events (a topology's"
          + " maintenance bolt): nothing done; run again later\n");
      held.close();
      assertThat(run(maintained.args("--zookeeper", "127.0.0.1:" + port, "--expire", "--expire-max-age", "PT0S", "--retain-last", "1")))
          .as("stderr: %s", err).isZero();
      assertThat(out()).contains("expiry: 5 snapshots expired");
    } finally {
      org.apache.storm.zookeeper.Zookeeper.shutdownInprocessZookeeper(zooKeeper);
    }
  }

  @Test
  void withTheJdbcLeaseItSkipsATableAnotherMaintainerHoldsAndRunsOnceReleased() {
    Map<String, String> catalog = TestCatalogs.jdbcSqlite(warehouse);
    MaintainedTable maintained = MaintainedTable.create(catalog);
    try (JdbcLease topology = JdbcLease.connect("maintain", catalog, Duration.ofSeconds(30))) {
      MaintenanceLease.Held held = topology.tryAcquire(MaintainedTable.NAME, "a topology's maintenance bolt");
      assertThat(run(maintained.args("--lease", "jdbc", "--expire", "--expire-max-age", "PT0S", "--retain-last", "1"))).isEqualTo(3);
      assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("Another maintainer holds the lease of db.events (a topology's"
          + " maintenance bolt): nothing done; run again later\n");
      maintained.table().refresh();
      assertThat(TestTables.snapshots(maintained.table())).as("nothing expired").hasSize(6);

      held.close();
      assertThat(run(maintained.args("--lease", "jdbc", "--expire", "--expire-max-age", "PT0S", "--retain-last", "1")))
          .as("stderr: %s", err).isZero();
      assertThat(out()).contains("expiry: 5 snapshots expired");
      assertThat(topology.holder(MaintainedTable.NAME)).as("the run released its lease").isNull();
      assertThat(topology.tryAcquire(MaintainedTable.NAME, "a topology's maintenance bolt")).isNotNull();
    }
    assertThat(maintained.ids()).isEqualTo(LongStream.range(0, MaintainedTable.RECORDS).boxed().toList());
  }

  @Test
  void theLeaseFlagsAreCheckedBeforeAnythingRuns() {
    MaintainedTable maintained = MaintainedTable.create(warehouse);
    assertThat(run(maintained.args("--lease", "jdbc", "--expire"))).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("--lease jdbc takes the lease in the JDBC catalog's database, but"
        + " the catalog is not a JDBC catalog with a uri (--catalog type=jdbc --catalog uri=jdbc:...): take it on Storm's ZooKeeper"
        + " instead (--zookeeper HOST:PORT,...)\n");
    assertThat(run(maintained.args("--lease", "zookeeper", "--expire"))).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("--lease zookeeper needs --zookeeper HOST:PORT,...");
    assertThat(run(maintained.args("--lease", "etcd", "--expire"))).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("Unknown maintenance lease 'etcd': give zookeeper, jdbc or none");
    assertThat(run(maintained.args("--lease", "none", "--zookeeper", "127.0.0.1:2181", "--expire"))).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("--zookeeper goes with --lease zookeeper, not --lease none");
  }

  @Test
  void usageMistakesExitWithTwoAndSayWhatToGive() {
    MaintainedTable maintained = MaintainedTable.create(warehouse);
    assertThat(run(maintained.args())).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("nothing to do: give --compact, --expire, --rewrite-manifests or --remove-orphans");
    assertThat(run(maintained.args("--rewrite-manifests", "--branch", "audit"))).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("--rewrite-manifests rewrites main's manifests only (Iceberg's"
        + " manifest rewrite commits to main), not branch audit's: run it without --branch, or drop it");
    assertThat(run(maintained.args("--expire", "--expire-max-age", "1h"))).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("--expire-max-age takes an ISO-8601 duration such as PT1H or P7D, got 1h");
    assertThat(run(maintained.args("--remove-orphans", "--orphan-min-age", "PT1S"))).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("--orphan-min-age PT1S is below PT1H, the floor the maintenance"
        + " bolt keeps too: a file that young may belong to a sink's batch still open or committing; give more than twice the"
        + " sinks' topology.message.timeout.secs and at least PT1H (the default is P3D)\n");
    assertThat(out()).as("nothing ran").isEmpty();
    assertThat(run("--catalog", "type=hadoop", "--catalog", "warehouse=" + warehouse.toUri(), "--table", "db.missing", "--expire")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("Table does not exist: db.missing: check --table");
  }

  private static String[] concat(String[] args, String... more) {
    String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }
}
