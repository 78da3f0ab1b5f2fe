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

package org.apache.storm.iceberg.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.trident.IcebergStateFactory;
import org.apache.storm.iceberg.trident.IcebergStateUpdater;
import org.apache.storm.iceberg.trident.IcebergTrident;
import org.apache.storm.trident.Stream;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.tuple.Fields;

/**
 * Trident topologies over the test spouts into the events table, and what a user checks after:
 * every id exactly once, the table equal to what the final attempts emitted, and the snapshots
 * each transaction made.
 */
public final class TridentRuns {
  public static final String TXID = "storm.iceberg.trident-txid";
  public static final String PARTITION = "storm.iceberg.trident-partition";
  public static final String COMMIT_ID = "storm.iceberg.commit-id";
  public static final int SPOUT_PARTITIONS = 4;
  public static final int STATE_PARALLELISM = 2;
  /** Trident batches in flight at once. */
  public static final int MAX_PENDING = 3;
  /**
   * The events table's properties: the partitions' commits race for the table, and Iceberg's
   * default 100 ms wait before retrying a lost race would make the runs slow, not more thorough.
   */
  public static final Map<String, String> TABLE_PROPERTIES = Map.of("commit.retry.min-wait-ms", "5", "commit.retry.max-wait-ms", "50");

  /** How the stream reaches the table. */
  public enum Variant {
    /** {@code partitionBy(id).partitionPersist(IcebergStateFactory, ...)}: one snapshot per partition and txid. */
    PER_PARTITION,
    /** {@code IcebergTrident.persist}: one snapshot per txid. */
    WHOLE_STREAM
  }

  /** The test spout, and the state type that matches it. */
  public enum Spout {
    TRANSACTIONAL(StateType.TRANSACTIONAL),
    /** Opaque; a replay brings more ids than the attempt before it. */
    OPAQUE(StateType.OPAQUE),
    /** Opaque; a replay brings no ids at all (they come in the next txids). */
    OPAQUE_EMPTY_REPLAY(StateType.OPAQUE);

    public final StateType stateType;

    Spout(StateType stateType) {
      this.stateType = stateType;
    }
  }

  private TridentRuns() {}

  public static IcebergOptions options(Map<String, String> catalogProperties, Spout spout, RecordMapper mapper) {
    IcebergOptions.Builder builder = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withTridentStateType(spout.stateType).withCommitRetryBackoffMillis(50);
    return (mapper == null ? builder : builder.withRecordMapper(mapper)).build();
  }

  /**
   * The topology: the spout (stream tx id {@code txId}, which keys Trident's coordinator state in
   * ZooKeeper) with {@code count} ids in batches of {@code batchSize} per spout partition, into
   * the table as {@code variant} does.
   */
  public static StormTopology topology(
      Variant variant, Spout spout, String txId, String ledgerKey, long count, int batchSize, IcebergOptions options) {
    TridentTopology trident = new TridentTopology();
    Stream stream = spout == Spout.TRANSACTIONAL
        ? trident.newStream(txId, new TransactionalIdsSpout(ledgerKey, count, SPOUT_PARTITIONS, batchSize))
        : trident.newStream(txId, new OpaqueIdsSpout(ledgerKey, count, SPOUT_PARTITIONS, batchSize,
            spout == Spout.OPAQUE ? 3 : -batchSize));
    Fields fields = new Fields(TestTables.FIELDS);
    if (variant == Variant.PER_PARTITION) {
      stream.partitionBy(new Fields("id"))
          .partitionPersist(new IcebergStateFactory(options), fields, new IcebergStateUpdater())
          .parallelismHint(STATE_PARALLELISM);
    } else {
      IcebergTrident.persist(stream.parallelismHint(STATE_PARALLELISM), fields, options);
    }
    return trident.build();
  }

  /** Small, quick batches, a few in flight. */
  public static Config config() {
    Config conf = new Config();
    conf.setMaxSpoutPending(MAX_PENDING);
    conf.setMessageTimeoutSecs(60);
    conf.put(Config.TOPOLOGY_TRIDENT_BATCH_EMIT_INTERVAL_MILLIS, 20);
    return conf;
  }

  /**
   * Waits until the spout's final attempts cover every id and Trident has committed each txid that
   * carried ids (it emits empty batches after the last id, so it goes on starting txids); what the
   * table then holds is for the assertions to judge.
   */
  public static void awaitEveryRowCommitted(TridentLedger ledger, long count, Duration timeout) throws InterruptedException {
    List<Long> all = LongStream.range(0, count).boxed().collect(Collectors.toList());
    Deadline.await(timeout, () -> ledger.committedEveryRow(MAX_PENDING) && ledger.finalIds().equals(all),
        () -> "Trident to commit every id: " + ledger.finalIds().size() + " ids emitted by the final attempts of "
            + ledger.finalIdsByTxid().size() + " txids");
  }

  /** Kills the topology at once. */
  public static void kill(LocalCluster cluster, String name) throws Exception {
    KillOptions now = new KillOptions();
    now.set_wait_secs(0);
    cluster.killTopologyWithOpts(name, now);
  }

  /** Kills the topology at once and waits until the cluster forgets it, so its name may be submitted again. */
  public static void killAndForget(LocalCluster cluster, String name) throws Exception {
    KillOptions now = new KillOptions();
    now.set_wait_secs(0);
    cluster.killTopologyWithOpts(name, now);
    Deadline.await(Duration.ofSeconds(60),
        () -> {
          try {
            return cluster.getClusterInfo().get_topologies().stream().noneMatch(t -> t.get_name().equals(name));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        },
        () -> "topology " + name + " to be gone");
  }

  /**
   * Asserts what a user checks after the run: each id exactly once (duplicates counted, never
   * hidden), the rows exactly what the final attempts emitted, and per (partition, txid) one append
   * snapshot, any other snapshot of it an overwrite that replaces it (a {@code delete} when the
   * replay had no rows); no snapshot for a txid that never emitted a row. Returns the table's snapshots of the run.
   */
  public static List<Snapshot> assertExactlyOnce(Table table, TridentLedger ledger, long count) {
    table.refresh();
    List<Long> ids = TestTables.ids(table, table.currentSnapshot().snapshotId());
    Map<Long, Long> copies = ids.stream().collect(Collectors.groupingBy(id -> id, TreeMap::new, Collectors.counting()));
    long duplicates = copies.values().stream().mapToLong(n -> n - 1).sum();
    long missing = LongStream.range(0, count).filter(id -> !copies.containsKey(id)).count();
    assertThat(duplicates).as("duplicate rows in the table").isZero();
    assertThat(missing).as("ids missing from the table").isZero();
    assertThat(ids).as("the table holds exactly what the final attempts emitted").isEqualTo(ledger.finalIds());

    List<Snapshot> snapshots = TestTables.snapshots(table).stream().filter(s -> s.summary().containsKey(TXID)).toList();
    Map<String, List<Snapshot>> byTransaction = snapshots.stream()
        .collect(Collectors.groupingBy(s -> s.summary().get(PARTITION) + "/" + s.summary().get(TXID)));
    byTransaction.forEach((transaction, made) -> {
      assertThat(made.stream().filter(s -> s.operation().equals("append")))
          .as("append snapshots of partition/txid %s", transaction).hasSize(1);
      assertThat(made.stream().filter(s -> !s.operation().equals("append")))
          .as("the other snapshots of %s replace it", transaction)
          .allSatisfy(s -> {
            // Iceberg names an OverwriteFiles that only deletes (a replay with no rows) "delete".
            assertThat(s.operation()).isIn("overwrite", "delete");
            assertThat(s.summary().get(COMMIT_ID)).contains(":replaces-");
          });
    });
    assertThat(snapshots.stream().map(s -> s.summary().get(COMMIT_ID))).as("no commit id landed twice").doesNotHaveDuplicates();
    assertThat(ledger.alwaysEmptyTxids()).as("the spout emitted empty batches after the last id").isNotEmpty();
    assertThat(snapshots.stream().map(s -> Long.parseLong(s.summary().get(TXID))))
        .as("no snapshot for a txid that never emitted a row (no work, no snapshot)")
        .doesNotContainAnyElementsOf(ledger.alwaysEmptyTxids());
    return snapshots;
  }

  /**
   * For the whole-stream committer: all partitions' rows of a txid in one append snapshot; a txid
   * with rows in its final attempt has one, and one whose replay brought none has it overwritten.
   */
  public static void assertOneAppendPerTxid(List<Snapshot> snapshots, TridentLedger ledger) {
    assertThat(snapshots).allSatisfy(s -> assertThat(s.summary().get(PARTITION)).isEqualTo("whole-stream"));
    List<Long> appended = snapshots.stream().filter(s -> s.operation().equals("append"))
        .map(s -> Long.parseLong(s.summary().get(TXID))).sorted().toList();
    List<Long> withRows = ledger.finalIdsByTxid().entrySet().stream().filter(e -> !e.getValue().isEmpty())
        .map(Map.Entry::getKey).toList();
    assertThat(appended).as("one append snapshot per txid with rows").containsAll(withRows);
    appended.stream().filter(txid -> !withRows.contains(txid)).forEach(txid -> assertThat(snapshots)
        .as("txid %s, emptied by its replay, had its rows deleted", txid)
        .anyMatch(s -> s.operation().equals("delete") && s.summary().get(TXID).equals(Long.toString(txid))));
  }
}
