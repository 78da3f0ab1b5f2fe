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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.FaultPointChaos;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.RestCatalogServer;
import org.apache.storm.iceberg.testing.RestFaultProxy;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Fault schedules at the LocalCluster level: the REST catalog behind a gateway that mistreats a
 * random share of commits (seeded), for IcebergBolt and for the split pair. In the {@code all}
 * schedules the catalog is also wrapped with {@link FaultInjectingCatalog}, and {@link
 * FaultPointChaos} arms data file, WAL and outage faults at a share of the commits. Every id lands,
 * and a duplicate appears only for an id the spout saw failed and replayed.
 */
@ExtendWith(SharedLocalCluster.class)
class RestGatewayFaultsLocalClusterTest {
  static final long EVENTS = 3_000;
  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }


  @ParameterizedTest
  @CsvSource({
    "bolt, 11, gateway", "split, 21, gateway", "bolt, 31, all", "split, 41, all"
  })
  void aGatewayMistreatingCommitsLosesNothingAndDuplicatesOnlyReplays(String sink, long seed, String points) throws Exception {
    if (seed != 41) {
      TestTiers.longTierOnly("the quick tier runs one split schedule of all faults, the gateway's among them; IcebergBolt's"
          + " task meets every gateway fault in RestFaultProxyTest, and IcebergBolt runs in LocalCluster in"
          + " IcebergBoltLocalClusterTest");
    }
    Faults faults = Faults.create();
    try (RestCatalogServer rest = new RestCatalogServer(dir.resolve("rest"));
        RestFaultProxy proxy = new RestFaultProxy(rest.uri());
        FaultPointChaos chaos = points.equals("all") ? new FaultPointChaos(faults, seed, 50) : null) {
      Map<String, String> gateway = Map.of("type", "rest", "uri", proxy.uri());
      Map<String, String> catalogProperties = chaos == null ? gateway : FaultInjectingCatalog.properties(gateway, faults);
      Catalog catalog = TestCatalogs.load(gateway);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
      Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
      // The first commit is always mistreated (in a mode the seed picks), then 40% at random.
      RestFaultProxy.Mode[] bad = {RestFaultProxy.Mode.APPLY_THEN_ANSWER, RestFaultProxy.Mode.ANSWER_WITHOUT_FORWARDING,
          RestFaultProxy.Mode.ANSWER_THEN_APPLY_LATE};
      proxy.nextCommit(bad[(int) (seed % bad.length)], 504);
      proxy.chaos(seed, 40);

      String ledgerKey = UUID.randomUUID().toString();
      IcebergOptions.Builder options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
          .withTable("db.events").withCommitRetryBackoffMillis(400).withTickIntervalSecs(1);
      TopologyBuilder builder = new TopologyBuilder();
      builder.setSpout("events", new ReplayingSpout(ledgerKey, EVENTS), 1);
      if (sink.equals("bolt")) {
        builder.setBolt("iceberg", new IcebergBolt(options.withCommitIntervalRecords(300).withCommitIntervalMillis(1_000).build()), 2)
            .shuffleGrouping("events");
      } else {
        // Small writer batches and groups: many commits, so the faults meet many of them.
        IcebergOptions writer = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
            .withTable("db.events").withCommitIntervalRecords(100).withCommitIntervalMillis(1_000).withTickIntervalSecs(1).build();
        builder.setBolt("iceberg-writer", new IcebergWriterBolt(writer), 2).fieldsGrouping("events", new Fields("region"));
        builder.setBolt("iceberg-committer",
                new IcebergCommitterBolt(options.withGroupCommitIntervalMillis(1_000).withGroupCommitMaxDataFiles(2).build()), 1)
            .globalGrouping("iceberg-writer");
      }
      LocalClusterRuns.runUntilAllAcked(cluster, "gateway-" + ledgerKey.substring(0, 8), builder.createTopology(), ledgerKey, EVENTS);

      ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(ledgerKey);
      assertThat(proxy.mistreated.get()).as("the gateway mistreated some commits").isPositive();
      if (chaos != null) {
        System.out.printf("%s seed %d: gateway mistreated %d commits; faults armed %s; spout saw %d fails%n",
            sink, seed, proxy.mistreated.get(), chaos.armed(), ledger.failCount.get());
        assertThat(chaos.armed().values().stream().mapToInt(Integer::intValue).sum()).as("faults were armed").isPositive();
      }
      // Every check reads one pinned snapshot: the killed topology's executors may still be stopping.
      table.refresh();
      Snapshot current = table.currentSnapshot();
      List<Long> ids = TestTables.ids(table, current.snapshotId());
      Map<Long, Integer> copies = new HashMap<>();
      ids.forEach(id -> copies.merge(id, 1, Integer::sum));
      for (long id = 0; id < EVENTS; id++) {
        assertThat(copies.getOrDefault(id, 0)).as("id %s is in the table", id).isPositive();
      }
      copies.forEach((id, n) -> {
        if (n > 1) {
          assertThat(ledger.failedIds).as("id %s appears %s times: only a replayed id may", id, n).contains(id);
        }
      });
      List<Snapshot> snapshots = new ArrayList<>();
      SnapshotUtil.ancestorsOf(current.snapshotId(), table::snapshot).forEach(snapshots::add);
      List<String> commitIds = snapshots.stream().map(s -> s.summary().get(IcebergOptions.COMMIT_ID_PROPERTY)).toList();
      assertThat(commitIds).as("every snapshot carries a commit id, and no commit landed twice")
          .doesNotContainNull().doesNotHaveDuplicates();
      long added = snapshots.stream().mapToLong(s -> Long.parseLong(s.summary().get("added-records"))).sum();
      assertThat(ids).as("the table reads exactly the rows its snapshots added").hasSize((int) added);
      // A WAL entry may stay for a commit that landed (its delete failed), for one a killed task
      // left mid-commit (one per committing task), or for one whose best-effort delete met an
      // armed delete fault. Listed before the table is read again, so a commit landing in between
      // counts as landed.
      List<java.nio.file.Path> wal = TestTables.walEntries(table);
      Set<String> landed = new HashSet<>();
      TestTables.snapshots(table).forEach(s -> landed.add(s.summary().get(IcebergOptions.COMMIT_ID_PROPERTY)));
      long unsettled = wal.stream().map(p -> p.getFileName().toString().replace(".json", "")).filter(id -> !landed.contains(id)).count();
      int deleteFaults = chaos == null ? 0 : chaos.armed().getOrDefault("WAL delete", 0);
      assertThat(unsettled).as("WAL entries of commits that did not land")
          .isLessThanOrEqualTo((sink.equals("bolt") ? 2 : 1) + deleteFaults);
    }
  }
}
