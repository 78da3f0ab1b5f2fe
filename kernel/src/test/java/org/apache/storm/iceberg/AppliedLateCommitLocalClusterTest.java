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
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.ReplayingSpout;
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
 * IcebergBolt in LocalCluster against a catalog that answers commits with a generic error (a read
 * timeout, a gateway's 524) and applies them later, on another thread, at several delays: some
 * before the sink's retry under the same commit id, some after it. Batches seal on age only, about
 * a second apart, so a batch failed too early would replay and commit again only after its late
 * commit had landed: a duplicate. Every id must be in the table exactly once.
 */
@ExtendWith(SharedLocalCluster.class)
// Long tier, checked before the class starts its cluster: a cluster started only to be closed costs
// seconds. Quick tier's proof: AppliedLateCommitTest applies commits late on both catalogs at kernel level in the quick tier.
@EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
class AppliedLateCommitLocalClusterTest {
  static final long EVENTS = 300;
  /** The settler's first wait: the first two delays mean to come before its retry, the last after it. */
  static final long BACKOFF_MILLIS = 300;
  static final long[] DELAYS_MILLIS = {30, 120, 700};
  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }


  enum CatalogKind { HADOOP, JDBC_SQLITE }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void commitsAnsweredWithAGenericErrorAndAppliedLateLeaveEveryIdOnce(CatalogKind kind) throws Exception {
    Map<String, String> real = kind == CatalogKind.HADOOP ? TestCatalogs.hadoop(dir) : TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(real);
    if (catalog instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("db"));
    }
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    Faults faults = Faults.create();
    String ledgerKey = UUID.randomUUID().toString();
    IcebergOptions options = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(FaultInjectingCatalog.properties(real, faults))
        .withTable("db.events")
        .withCommitIntervalRecords(10_000)
        .withCommitIntervalMillis(500)
        .withTickIntervalSecs(1)
        .withCommitRetryBackoffMillis(BACKOFF_MILLIS)
        .build();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(ledgerKey, EVENTS), 1);
    builder.setBolt("iceberg", new IcebergBolt(options), 1).shuffleGrouping("events");
    // A hundred tuples in flight: each batch holds them until it seals on age.
    Config conf = LocalClusterRuns.config();
    conf.setMaxSpoutPending(100);

    LocalClusterRuns.runUntilAllAcked(cluster, "late-" + ledgerKey.substring(0, 8), builder.createTopology(), conf,
        ledgerKey, EVENTS, () -> {
          // One late commit at a time, each at the next commit the sink makes.
          for (int i = 0; i < DELAYS_MILLIS.length; i++) {
            int armed = i + 1;
            faults.late.delayMillis = DELAYS_MILLIS[i];
            faults.inject(Faults.CommitFault.ERROR_APPLIED_LATE, 1);
            Deadline.await(Duration.ofSeconds(30), () -> faults.late.scheduled.get() == armed && faults.late.settled(),
                () -> "late commit " + armed + " reached the catalog");
          }
        });

    ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(ledgerKey);
    table.refresh();
    assertThat(TestTables.ids(table)).as("every id exactly once")
        .containsExactlyInAnyOrderElementsOf(LongStream.range(0, EVENTS).boxed().collect(Collectors.toList()));
    assertThat(ledger.failCount.get()).as("no batch was failed, so none replayed").isZero();
    // Which late commits land before the retry and which after is the machine's timing to decide
    // (AppliedLateCommitTest pins each order); every one reached the catalog and was judged.
    System.out.printf("%s: late commits landed %d, refused by compare-and-swap %d%n",
        kind, faults.late.applied.get(), faults.late.refused.get());
    assertThat(faults.late.applied.get() + faults.late.refused.get()).isEqualTo(DELAYS_MILLIS.length);
    assertThat(faults.late.failed).isEmpty();
  }
}
