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

package org.apache.storm.iceberg.trident;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RestCatalogServer;
import org.apache.storm.iceberg.testing.RestFaultProxy;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.iceberg.testing.ThrowOnceMapper;
import org.apache.storm.iceberg.testing.TridentLedger;
import org.apache.storm.iceberg.testing.TridentRuns;
import org.apache.storm.iceberg.testing.TridentRuns.Spout;
import org.apache.storm.iceberg.testing.TridentRuns.Variant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Both Trident states in Storm's LocalCluster, fed by a transactional and by an opaque spout, on a
 * JDBC (SQLite) catalog and on the REST catalog behind the fault proxy, with faults injected mid-run:
 * a commit that fails before applying, one that lands and then answers with an unknown state, one
 * answered with a generic error and applied late, and a mapping error in the state's updater (or, for
 * {@code IcebergTrident.persist}, in a writing partition) that fails one batch. Trident replays each
 * failed batch; every id ends in the table exactly once, the table holds exactly what the spout's
 * final attempts emitted, and each transaction made one append snapshot (replayed opaque ones an
 * overwrite too).
 */
@ExtendWith(SharedLocalCluster.class)
class TridentFaultsLocalClusterTest {
  static final long EVENTS = 480;
  static final int BATCH = 20;
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
  @CsvSource({
    "PER_PARTITION, TRANSACTIONAL, JDBC_SQLITE", "WHOLE_STREAM, TRANSACTIONAL, JDBC_SQLITE",
    "WHOLE_STREAM, OPAQUE, JDBC_SQLITE", "PER_PARTITION, TRANSACTIONAL, REST", "WHOLE_STREAM, OPAQUE, REST"
  })
  void faultsMidRunLeaveEveryIdExactlyOnce(Variant variant, Spout spout, CatalogKind kind) throws Exception {
    if (kind == CatalogKind.REST || variant != Variant.PER_PARTITION) {
      TestTiers.longTierOnly("the quick tier runs the per-partition state on JDBC; TridentKillLocalClusterTest the whole"
          + " stream with an opaque spout, and TridentTransactionsTest every commit fault at kernel level");
    }
    Faults faults = Faults.create();
    try (RestCatalogServer rest = kind == CatalogKind.REST ? new RestCatalogServer(dir.resolve("rest")) : null;
        RestFaultProxy proxy = rest == null ? null : new RestFaultProxy(rest.uri())) {
      Map<String, String> real = rest == null ? TestCatalogs.jdbcSqlite(dir) : Map.of("type", "rest", "uri", proxy.uri());
      Catalog catalog = TestCatalogs.load(real);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
      Table table = catalog.createTable(
          TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(), TridentRuns.TABLE_PROPERTIES);

      String key = UUID.randomUUID().toString();
      faults.duringCommit = schedule(faults, proxy);
      var options = TridentRuns.options(FaultInjectingCatalog.properties(real, faults), spout, new ThrowOnceMapper(key, EVENTS / 2));
      String name = "trident-" + key.substring(0, 8);
      cluster.submitTopology(name, TridentRuns.config(),
          TridentRuns.topology(variant, spout, "tx-" + key, key, EVENTS, BATCH, options));
      TridentLedger ledger = TridentLedger.of(key);
      try {
        TridentRuns.awaitEveryRowCommitted(ledger, EVENTS, Duration.ofSeconds(120));
      } finally {
        TridentRuns.kill(cluster, name);
      }
      faults.late.await(Duration.ofSeconds(30));

      assertThat(faults.injected.get()).as("commit faults injected").isEqualTo(rest == null ? 3 : 1);
      if (proxy != null) {
        assertThat(proxy.mistreated.get()).as("commits the gateway mistreated").isEqualTo(2);
      }
      assertThat(ThrowOnceMapper.thrown(key)).as("batches the updater failed").isEqualTo(1);
      assertThat(ledger.replays()).as("replays Trident made").isPositive();
      List<Snapshot> snapshots = TridentRuns.assertExactlyOnce(table, ledger, EVENTS);
      if (variant == Variant.WHOLE_STREAM) {
        TridentRuns.assertOneAppendPerTxid(snapshots, ledger);
      } else if (spout == Spout.OPAQUE) {
        // The partition that committed before the other failed had its part of the txid replaced.
        assertThat(snapshots).as("overwrite snapshots").anyMatch(s -> s.operation().equals("overwrite"));
      }
    }
  }

  /**
   * Arms one fault at the 2nd, 3rd and 4th commit call the sink makes (Iceberg's own retries count): mid-run, whatever the timing.
   * On REST, the unknown-after and applied-late faults are the gateway's (a 504 after forwarding,
   * and a 524 before forwarding late).
   */
  private static Runnable schedule(Faults faults, RestFaultProxy proxy) {
    AtomicInteger commits = new AtomicInteger();
    return () -> {
      switch (commits.incrementAndGet()) {
        case 2 -> faults.inject(Faults.CommitFault.FAIL_BEFORE, 1);
        case 3 -> {
          if (proxy == null) {
            faults.inject(Faults.CommitFault.UNKNOWN_AFTER, 1);
          } else {
            proxy.nextCommit(RestFaultProxy.Mode.APPLY_THEN_ANSWER, 504);
          }
        }
        case 4 -> {
          if (proxy == null) {
            faults.inject(Faults.CommitFault.ERROR_APPLIED_LATE, 1);
          } else {
            proxy.nextCommit(RestFaultProxy.Mode.ANSWER_THEN_APPLY_LATE, 524);
          }
        }
        default -> { }
      }
    };
  }
}
