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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The maintenance options as Flux gives them, what they refuse at build, and what they never print. */
class MaintenanceOptionsTest {
  static final Map<String, Object> CATALOG = Map.of("type", "jdbc", "uri", "jdbc:postgresql://db/iceberg", "jdbc.password", "pw-S3CRET");

  @Test
  void everyFluxKeyReachesItsSetting() {
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("catalog", CATALOG);
    config.put("catalog-name", "lake");
    config.put("wal-store", "hadoop-fs");
    config.put("wal-store-properties", Map.of("path", "hdfs://nn/wal"));
    config.put("trigger-data-files", 10);
    config.put("trigger-data-bytes", 1_000_000L);
    config.put("trigger-delete-files", 5);
    config.put("trigger-commits", 60);
    config.put("trigger-interval-millis", 600_000);
    config.put("min-gap-millis", 60_000);
    config.put("compaction", false);
    config.put("compaction-options", Map.of("min-input-files", "3"));
    config.put("file-format", "avro");
    config.put("file-format-properties", Map.of("write.avro.compression-codec", "zstd"));
    config.put("write-properties", Map.of("write.target-file-size-bytes", "1000000"));
    config.put("expiry", false);
    config.put("expiry-max-age-millis", 7_200_000);
    config.put("expiry-retain-last", 5);
    config.put("expiry-delete-files", false);
    config.put("retired-sinks", List.of("old-sink"));
    config.put("rewrite-manifests", true);
    config.put("rewrite-manifests-min-count", 20);
    config.put("rewrite-manifests-trigger-commits", 30);
    config.put("remove-orphans", false);
    config.put("orphan-min-age-millis", 7_200_000);
    config.put("orphan-interval-millis", 3_600_000);
    config.put("lease", "jdbc");
    config.put("lease-session-timeout-millis", 20_000);
    config.put("branch", "audit");

    MaintenanceOptions options = MaintenanceOptions.fromMap(config);

    assertThat(options.triggers()).isEqualTo(new MaintenanceOptions.Triggers(10, 1_000_000, 5, 60, 600_000, 60_000));
    assertThat(options.catalogName).isEqualTo("lake");
    assertThat(options.walStore).isEqualTo("hadoop-fs");
    assertThat(options.walStoreProperties).containsEntry("path", "hdfs://nn/wal");
    assertThat(options.compactionOptions).containsEntry("min-input-files", "3");
    assertThat(options.compactionFormat).hasToString("avro {write.avro.compression-codec=zstd}, write properties"
        + " {write.target-file-size-bytes=1000000}");
    assertThat(options.expirySettings()).isEqualTo(new SnapshotExpiry.Settings(Duration.ofHours(2), 5, false, java.util.Set.of("old-sink")));
    assertThat(options.compaction).as("on by default").isFalse();
    assertThat(options.expiry).as("on by default").isFalse();
    assertThat(options.removeOrphans).as("on by default").isFalse();
    assertThat(options.rewriteManifests).isTrue();
    assertThat(options.rewriteManifestsMinCount).isEqualTo(20);
    assertThat(options.rewriteManifestsTriggerCommits).isEqualTo(30);
    assertThat(options.orphanMinAgeMillis).isEqualTo(7_200_000);
    assertThat(options.orphanIntervalMillis).isEqualTo(3_600_000);
    assertThat(options.lease).isEqualTo(MaintenanceLease.Kind.JDBC);
    assertThat(options.leaseSessionTimeoutMillis).isEqualTo(20_000);
    assertThat(options.branch).isEqualTo("audit");
    assertThat(options.toString()).contains("branch=audit");
    assertThat(options.manifestRewriteTriggerCommits()).as("Iceberg rewrites main's manifests only").isZero();
    assertThat(MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "rewrite-manifests", false)).rewriteManifests)
        .as("the one switch left on above, flipped").isFalse();
  }

  @Test
  void theDefaultsSuitOneCommitASecond() {
    MaintenanceOptions options = MaintenanceOptions.fromMap(Map.of("catalog", CATALOG));
    assertThat(options.triggers()).isEqualTo(new MaintenanceOptions.Triggers(1_000, 0, 100, 600, 3_600_000, 300_000));
    assertThat(options.expirySettings()).isEqualTo(new SnapshotExpiry.Settings(Duration.ofHours(1), 10, true, java.util.Set.of()));
    assertThat(options.walStore).isEqualTo(MaintenanceOptions.DEFAULT_WAL_STORE);
    assertThat(options.removeOrphans).isTrue();
    assertThat(options.orphanMinAgeMillis).isEqualTo(Duration.ofDays(3).toMillis());
    assertThat(options.lease).isEqualTo(MaintenanceLease.Kind.ZOOKEEPER);
    assertThat(options.leaseSessionTimeoutMillis).isEqualTo(30_000);
    assertThat(options.branch).isEqualTo("main");
    assertThat(options.compaction).isTrue();
    assertThat(options.expiry).isTrue();
    assertThat(options.rewriteManifests).isTrue();
    assertThat(options.rewriteManifestsMinCount).isEqualTo(100);
    assertThat(options.manifestRewriteTriggerCommits()).isEqualTo(100);
  }

  @Test
  void theLeaseIsNamedOrTurnedOnAndOffAsBefore() {
    assertThat(MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "lease", "ZooKeeper")).lease).isEqualTo(MaintenanceLease.Kind.ZOOKEEPER);
    assertThat(MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "lease", "none")).lease).isEqualTo(MaintenanceLease.Kind.NONE);
    assertThat(MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "lease", true)).lease).isEqualTo(MaintenanceLease.Kind.ZOOKEEPER);
    assertThat(MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "lease", false)).lease).isEqualTo(MaintenanceLease.Kind.NONE);
    assertThat(MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "lease", "jdbc")).toString()).contains("lease=jdbc");
    assertThatThrownBy(() -> MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "lease", "etcd")))
        .hasMessage("Unknown maintenance lease 'etcd': give zookeeper, jdbc or none");
    assertThatThrownBy(() -> MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "lease", 1)))
        .hasMessage("Maintenance option 'lease' takes zookeeper, jdbc or none, got Integer 1");
  }

  @Test
  void theJdbcLeaseIsRefusedAtBuildForACatalogThatIsNotJdbc() {
    assertThatThrownBy(() -> MaintenanceOptions.fromMap(Map.of("catalog", Map.of("type", "hadoop", "warehouse", "hdfs://nn/w"),
        "lease", "jdbc")))
        .hasMessage("The jdbc maintenance lease lives in the JDBC catalog's database, but the catalog is not a JDBC catalog with a"
            + " uri (type hadoop, catalog-impl null): take the lease on Storm's ZooKeeper instead (withLease(MaintenanceLease.Kind"
            + ".ZOOKEEPER, ...), Flux lease: zookeeper), or none if nothing else maintains the tables");
    assertThatThrownBy(() -> new MaintenanceOptions.Builder().withCatalogProperties(Map.of("type", "jdbc"))
        .withLease(MaintenanceLease.Kind.JDBC, Duration.ofSeconds(30)).build())
        .as("a JDBC catalog without its uri").hasMessageContaining("not a JDBC catalog with a uri (type jdbc, catalog-impl null)");
    assertThat(new MaintenanceOptions.Builder().withCatalogProperties(Map.of("catalog-impl", "org.apache.iceberg.jdbc.JdbcCatalog",
        "uri", "jdbc:sqlite:/tmp/c.db")).withLease(MaintenanceLease.Kind.JDBC, Duration.ofSeconds(30)).build().lease)
        .isEqualTo(MaintenanceLease.Kind.JDBC);
  }

  @Test
  void mistakesFailAtBuildSayingHowToFixThem() {
    assertThatThrownBy(() -> MaintenanceOptions.fromMap(Map.of()))
        .hasMessage("Maintenance needs the tables' catalog: withCatalogProperties(...) (Flux: catalog), the same properties the sink uses");
    assertThatThrownBy(() -> MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "trigger-comits", 5)))
        .hasMessageStartingWith("Unknown maintenance option 'trigger-comits'; known: [catalog, catalog-name,");
    assertThatThrownBy(() -> MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "trigger-commits", "often")))
        .hasMessage("Maintenance option 'trigger-commits' takes a whole number, got String often");
    assertThatThrownBy(() -> MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "branch", " ")))
        .hasMessage("withBranch needs a branch name, such as main or the one the sink writes (withBranch)");
    assertThatThrownBy(() -> MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "expiry-retain-last", 0)))
        .hasMessage("expiry retain-last 0 keeps no snapshot: give at least 1");
    assertThatThrownBy(() -> MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "compaction", false, "expiry", false,
        "rewrite-manifests", false, "remove-orphans", false)))
        .hasMessageStartingWith("Compaction, expiry, manifest rewrite and orphan removal are all off");
    assertThatThrownBy(() -> MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "orphan-min-age-millis", 60_000)))
        .hasMessage("withOrphanRemoval's minimum age PT1M is below PT1H: a file that young may belong to a batch still open or"
            + " committing; give more than twice the topology's message timeout and at least PT1H (Flux orphan-min-age-millis;"
            + " the default is 3 days)");
    assertThatThrownBy(() -> new MaintenanceOptions.Builder().withCatalogProperties(Map.of("type", "hadoop")).triggerOnDataFiles(0)
        .triggerOnDeleteFiles(0).triggerOnCommits(0).triggerEvery(Duration.ZERO).build())
        .hasMessageStartingWith("Every maintenance trigger is off, so nothing would ever run");
  }

  /**
   * A batch may stay open for the message timeout less its margin, and its files wait as long again
   * for the task that commits them: an hour's minimum age is refused at a 30-minute timeout, which
   * a check against the timeout alone let through.
   */
  @Test
  void theBoltRefusesAnOrphanAgeNotAboveTwiceTheMessageTimeout() {
    MaintenanceOptions options = MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "orphan-min-age-millis", 3_600_000));
    TableMaintainer.requireOrphanAgeAboveTimeout(options, Map.of(org.apache.storm.Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 1_799));
    TableMaintainer.requireOrphanAgeAboveTimeout(options, Map.of(org.apache.storm.Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, "1799"));
    assertThatThrownBy(() -> TableMaintainer.requireOrphanAgeAboveTimeout(options,
        Map.of(org.apache.storm.Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 1_800)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("The maintenance bolt's orphan minimum age (3600000 ms) does not exceed twice topology.message.timeout.secs"
            + " (2 x 1800 s = 3600000 ms): a batch stays open up to the timeout less its commit deadline margin, and its files"
            + " may wait as long again for the task that commits them before a WAL entry names them, so files of batches still"
            + " open or committing could be deleted; raise withOrphanRemoval's minimum age (Flux orphan-min-age-millis) above"
            + " 3600000 ms (the default is 3 days), or lower the message timeout");
    assertThatThrownBy(() -> TableMaintainer.requireOrphanAgeAboveTimeout(options,
        Map.of(org.apache.storm.Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, false)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("The maintenance bolt removes orphan files, but topology.enable.message.timeouts is false:")
        .hasMessageContaining("Flux remove-orphans: false");
    MaintenanceOptions noOrphans = MaintenanceOptions.fromMap(Map.of("catalog", CATALOG, "remove-orphans", false));
    TableMaintainer.requireOrphanAgeAboveTimeout(noOrphans, Map.of(org.apache.storm.Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, false));
  }

  @Test
  void aSecretReferenceIsCheckedAtBuildAndResolvedOnTheWorker() {
    assertThat(MaintenanceOptions.fromMap(Map.of("catalog", Map.of("type", "jdbc", "jdbc.password", "env:CATALOG_PASSWORD")))
        .catalogProperties).containsEntry("jdbc.password", "env:CATALOG_PASSWORD");
    assertThatThrownBy(() -> MaintenanceOptions.fromMap(Map.of("catalog", Map.of("type", "jdbc", "jdbc.password", "env:not a name"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jdbc.password").hasMessageNotContaining("not a name");
  }

  @Test
  void catalogPropertyValuesNeverAppear() {
    String shown = MaintenanceOptions.fromMap(Map.of("catalog", CATALOG)).toString();
    assertThat(shown).contains("jdbc.password").doesNotContain("pw-S3CRET").doesNotContain("jdbc:postgresql");
  }

  @Test
  void aPassIsDueAtAThresholdOrTheIntervalAndNeverWithinTheGap() {
    TableTriggers triggers = new TableTriggers(new MaintenanceOptions.Triggers(10, 0, 2, 0, 60_000, 5_000), 0, 0);
    triggers.add(9, 100, 0);
    assertThat(triggers.due(10_000)).as("9 of 10 data files").isFalse();
    triggers.add(1, 100, 0);
    assertThat(triggers.due(4_999)).as("within the gap").isFalse();
    assertThat(triggers.due(5_000)).isTrue();
    triggers.started(5_000);
    assertThat(triggers.due(70_000)).as("the interval passed, but no commit came").isFalse();
    triggers.add(0, 0, 2);
    assertThat(triggers.due(10_000)).as("two delete files").isTrue();
    triggers.started(10_000);
    triggers.add(1, 1, 0);
    assertThat(triggers.due(69_999)).isFalse();
    assertThat(triggers.due(70_000)).as("the interval").isTrue();
  }

  @Test
  void theManifestRewriteIsDueOnItsOwnCommitsWhileNoPassIs() {
    TableTriggers triggers = new TableTriggers(new MaintenanceOptions.Triggers(1_000, 0, 0, 1_000, 0, 5_000), 3, 0);
    triggers.add(1, 1, 0);
    triggers.add(1, 1, 0);
    assertThat(triggers.manifestRewriteDue(10_000)).as("two of three commits").isFalse();
    triggers.add(1, 1, 0);
    assertThat(triggers.manifestRewriteDue(4_999)).as("within the gap").isFalse();
    assertThat(triggers.manifestRewriteDue(5_000)).isTrue();
    assertThat(triggers.due(5_000)).as("no pass trigger reached").isFalse();
    triggers.manifestRewriteStarted(5_000);
    assertThat(triggers.manifestRewriteDue(20_000)).isFalse();
    triggers.add(1, 1, 0);
    triggers.add(1, 1, 0);
    triggers.add(1, 1, 0);
    triggers.started(20_000);
    assertThat(triggers.manifestRewriteDue(30_000)).as("a pass rewrote the manifests too").isFalse();
    TableTriggers off = new TableTriggers(new MaintenanceOptions.Triggers(1_000, 0, 0, 1_000, 0, 0), 0, 0);
    off.add(1, 1, 0);
    assertThat(off.manifestRewriteDue(1_000)).isFalse();
  }
}
