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
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.kernel.metrics.RegistryCapture;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.RestCatalogServer;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Sixteen IcebergBolt tasks committing to one table at once, through JdbcCatalog on SQLite and
 * through the REST server: with Iceberg's commit retries tuned, every commit lands (nothing is failed
 * or replayed) and the row count is exact.
 */
@ExtendWith(SharedLocalCluster.class)
// Long tier, checked before the class starts its cluster: sixteen tasks contending for one table take
// a minute on two cores.
@EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
class ConcurrentCommitsLocalClusterTest {
  static final long EVENTS = 16_000;
  static LocalCluster cluster;

  enum CatalogKind {
    JDBC_SQLITE,
    REST
  }

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }


  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void sixteenTasksCommitWithoutLosingOrRepeatingARow(CatalogKind kind) throws Exception {
    RestCatalogServer rest = kind == CatalogKind.REST ? new RestCatalogServer(dir.resolve("rest")) : null;
    try {
      Map<String, String> catalogProperties = kind == CatalogKind.REST ? rest.clientProperties() : TestCatalogs.jdbcSqlite(dir);
      Catalog catalog = TestCatalogs.load(catalogProperties);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
      // Sixteen committers race for one table: let Iceberg retry conflicts patiently.
      Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
          Map.of(TableProperties.COMMIT_NUM_RETRIES, "100", TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "10",
              TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "500", TableProperties.COMMIT_TOTAL_RETRY_TIME_MS, "120000"));

      String ledgerKey = UUID.randomUUID().toString();
      String name = "concurrent-" + ledgerKey.substring(0, 8);
      IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
          .withTable("db.events").withCommitIntervalRecords(250).withCommitIntervalMillis(2_000).withTickIntervalSecs(1).build();
      TopologyBuilder builder = new TopologyBuilder();
      builder.setSpout("events", new ReplayingSpout(ledgerKey, EVENTS), 1);
      builder.setBolt("iceberg", new IcebergBolt(options), 16).shuffleGrouping("events");
      org.apache.storm.Config conf = LocalClusterRuns.config();
      LocalClusterRuns.runUntilAllAcked(cluster, name, conf, builder.createTopology(), ledgerKey, EVENTS);

      ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(ledgerKey);
      assertThat(ledger.failCount.get()).as("no commit failed, nothing replayed").isZero();
      assertThat(RegistryCapture.sumOfCounters(name, "iceberg-commit-failures")).isZero();
      List<Long> ids = TestTables.ids(table);
      assertThat(ids).as("exactly one row per id").containsExactlyElementsOf(
          LongStream.range(0, EVENTS).boxed().collect(Collectors.toList()));
      assertThat(TestTables.snapshots(table).stream().map(s -> s.summary().get("storm.iceberg.task-index")).distinct().count())
          .as("all sixteen tasks committed").isEqualTo(16);
    } finally {
      if (rest != null) {
        rest.close();
      }
    }
  }
}
