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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RestCatalogServer;
import org.apache.storm.iceberg.testing.RestFaultProxy;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
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
 * A Trident topology killed between a state's commit landing in the table and Trident recording the
 * transaction: the commit's thread is held right after the catalog accepted it until the topology,
 * and Trident's master coordinator with it, is gone. The topology is then submitted again under the
 * same name and stream tx id; Trident's coordinator, whose state lives in ZooKeeper, replays that
 * txid. The table already holds it: a transactional state skips it, an opaque one replaces what its
 * first attempt added with the replay's (other) content, in an overwrite snapshot (a delete one when
 * the replay brought no rows). Every id ends in the table exactly once.
 *
 * <p>Not run: the per-partition state with a replay that brings a partition no rows. Trident then
 * never calls that partition's state, so the rows of its first attempt stay while the same ids come
 * again in later txids: duplicates. Only {@code IcebergTrident.persist} is exactly-once there.
 */
@ExtendWith(SharedLocalCluster.class)
class TridentKillLocalClusterTest {
  static final long EVENTS = 480;
  static final int BATCH = 20;
  /** Trident's master batch coordinator: while it lives, a finished commit could still be recorded. */
  static final String MASTER_COORDINATOR = "$mastercoord-";
  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }

  @ParameterizedTest
  @CsvSource({
    "WHOLE_STREAM, OPAQUE, JDBC_SQLITE", "PER_PARTITION, TRANSACTIONAL, JDBC_SQLITE",
    "WHOLE_STREAM, TRANSACTIONAL, JDBC_SQLITE",
    "WHOLE_STREAM, OPAQUE_EMPTY_REPLAY, JDBC_SQLITE",
    "WHOLE_STREAM, OPAQUE_EMPTY_REPLAY, REST"
  })
  void aTopologyKilledAfterACommitLandedReplaysThatTxidExactlyOnce(Variant variant, Spout spout, String kind) throws Exception {
    if (variant != Variant.WHOLE_STREAM || spout != Spout.OPAQUE || !kind.equals("JDBC_SQLITE")) {
      TestTiers.longTierOnly("the quick tier kills a whole-stream topology with an opaque spout on JDBC");
    }
    Faults faults = Faults.create();
    try (RestCatalogServer rest = kind.equals("REST") ? new RestCatalogServer(dir.resolve("rest")) : null;
        RestFaultProxy proxy = rest == null ? null : new RestFaultProxy(rest.uri())) {
      Map<String, String> real = rest == null ? TestCatalogs.jdbcSqlite(dir) : Map.of("type", "rest", "uri", proxy.uri());
      Catalog catalog = TestCatalogs.load(real);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
      Table table = catalog.createTable(
          TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(), TridentRuns.TABLE_PROPERTIES);

      CountDownLatch landed = new CountDownLatch(1);
      AtomicBoolean killed = new AtomicBoolean();
      AtomicLong caughtTxid = new AtomicLong(-1);
      AtomicInteger commits = new AtomicInteger();
      faults.afterCommitLanded = metadata -> {
        if (commits.incrementAndGet() == 3) {
          caughtTxid.set(Long.parseLong(metadata.currentSnapshot().summary().get(TridentRuns.TXID)));
          landed.countDown();
          holdIgnoringInterrupts(() -> killed.get() && !threadAlive(MASTER_COORDINATOR));
        }
      };

      String key = UUID.randomUUID().toString();
      String name = "trident-kill-" + key.substring(0, 8);
      IcebergOptions options = TridentRuns.options(FaultInjectingCatalog.properties(real, faults), spout, null);
      cluster.submitTopology(name, TridentRuns.config(), TridentRuns.topology(variant, spout, "tx-" + key, key, EVENTS, BATCH, options));
      assertThat(landed.await(120, TimeUnit.SECONDS)).as("the third commit landed").isTrue();
      TridentRuns.killAndForget(cluster, name);
      killed.set(true);
      Deadline.await(Duration.ofSeconds(60), () -> !threadAlive(MASTER_COORDINATOR), () -> "the master coordinator to stop");

      // The same name and stream tx id: Trident's coordinator state in ZooKeeper carries over.
      TridentLedger.of(key).newRun();
      cluster.submitTopology(name, TridentRuns.config(), TridentRuns.topology(variant, spout, "tx-" + key, key, EVENTS, BATCH, options));
      TridentLedger ledger = TridentLedger.of(key);
      try {
        TridentRuns.awaitEveryRowCommitted(ledger, EVENTS, Duration.ofSeconds(120));
      } finally {
        TridentRuns.kill(cluster, name);
      }

      long txid = caughtTxid.get();
      assertThat(ledger.replayed(txid)).as("Trident replayed txid %s after the restart", txid).isTrue();
      List<Snapshot> snapshots = TridentRuns.assertExactlyOnce(table, ledger, EVENTS);
      if (variant == Variant.WHOLE_STREAM) {
        TridentRuns.assertOneAppendPerTxid(snapshots, ledger);
      }
      List<Snapshot> overwrites = snapshots.stream().filter(s -> !s.operation().equals("append")).toList();
      if (spout == Spout.TRANSACTIONAL) {
        assertThat(overwrites).as("a transactional replay is skipped, never rewritten").isEmpty();
      } else {
        assertThat(overwrites).as("the opaque replay of txid %s replaced its first attempt", txid)
            .anyMatch(s -> s.summary().get(TridentRuns.TXID).equals(Long.toString(txid)));
      }
    }
  }

  /** Whether an executor thread of a component whose id starts with {@code component} runs in this JVM. */
  private static boolean threadAlive(String component) {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.isAlive() && t.getName().contains("-" + component) && t.getName().contains("-executor"));
  }

  /** Blocks the committing thread, deaf to Storm's interrupt, until {@code done} (at most 60 s); keeps the interrupt. */
  private static void holdIgnoringInterrupts(BooleanSupplier done) {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    boolean interrupted = false;
    while (System.nanoTime() < end && !done.getAsBoolean()) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
