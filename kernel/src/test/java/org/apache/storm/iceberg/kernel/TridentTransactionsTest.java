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

package org.apache.storm.iceberg.kernel;

import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.Config;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.commit.TransactionScope;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.trident.TridentTask;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.Faults.CommitFault;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.ReportedFailedException;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.trident.tuple.TridentTupleView;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A Trident state partition's transactions on real catalogs, driven as Trident drives them
 * ({@code beginCommit}, the batch's files, {@code commit}), with the table as the only record of
 * what landed: replays are skipped or replace, an empty batch makes no snapshot, txids going back
 * fail loudly, and a commit whose answer was lost is never written twice.
 */
class TridentTransactionsTest {
  static final Map<String, Object> CONF = Map.of(Config.TOPOLOGY_NAME, "orders");

  @TempDir Path dir;
  final Faults faults = Faults.create();
  final MetricRegistry registry = new MetricRegistry();
  final TridentTupleView.FreshOutputFactory tuples = new TridentTupleView.FreshOutputFactory(new Fields(TestTables.FIELDS));
  Map<String, String> catalogProperties;
  Table table;

  void createTable(SinkTaskTest.CatalogKind kind) {
    Map<String, String> real = kind == SinkTaskTest.CatalogKind.HADOOP ? TestCatalogs.hadoop(dir) : TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(real);
    if (catalog instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("db"));
    }
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    catalogProperties = FaultInjectingCatalog.properties(real, faults);
  }

  /** A state task, as a worker (re)starting would open it. */
  TridentTask open(StateType type) {
    return open(type, CONF);
  }

  /** A state task of the topology that {@code conf} names. */
  TridentTask open(StateType type, Map<String, Object> conf) {
    return open(type, conf, new IcebergOptions.Builder());
  }

  /** A state task built on {@code builder}'s options. */
  TridentTask open(StateType type, Map<String, Object> conf, IcebergOptions.Builder builder) {
    IcebergOptions options = builder
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.events")
        .withTridentStateType(type)
        .withCommitRetryBackoffMillis(20)
        .build();
    return TridentTask.openState(settings(options), conf, SinkMetrics.detachedContext(registry), 0, 1, "0");
  }

  List<TridentTuple> batch(long fromId, long toId) {
    return LongStream.range(fromId, toId).mapToObj(id -> (TridentTuple) tuples.create(java.util.Arrays.asList(id, "eu", null, "p" + id))).toList();
  }

  /** One transaction, as Trident's commit phase runs it. */
  void run(TridentTask task, long txid, List<TridentTuple> batch) {
    task.transactions().begin(txid);
    if (task.transactions().wantsFiles()) {
      task.transactions().add(task.files().write(batch));
    }
    task.transactions().commit(txid);
  }

  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void aTransactionalReplayOfACommittedTxidIsSkippedEvenByANewIncarnation(SinkTaskTest.CatalogKind kind) {
    createTable(kind);
    TridentTask task = open(StateType.TRANSACTIONAL);
    run(task, 1, batch(0, 10));
    run(task, 1, batch(0, 10));
    run(open(StateType.TRANSACTIONAL), 1, batch(0, 10));
    run(task, 2, batch(10, 20));

    table.refresh();
    assertThat(TestTables.ids(table)).containsExactlyInAnyOrderElementsOf(LongStream.range(0, 20).boxed().toList());
    assertThat(TestTables.snapshots(table)).extracting(s -> s.summary().get("storm.iceberg.trident-txid"))
        .containsExactly("1", "2");
    assertThat(registry.counter("iceberg-transactions-skipped").getCount()).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void anOpaqueReplayReplacesExactlyTheFilesItsEarlierCommitAdded(SinkTaskTest.CatalogKind kind) {
    createTable(kind);
    TridentTask task = open(StateType.OPAQUE);
    run(task, 1, batch(0, 10));
    run(task, 2, batch(10, 20));
    run(open(StateType.OPAQUE), 2, batch(10, 15));
    run(task, 2, batch(100, 103));

    table.refresh();
    assertThat(TestTables.ids(table))
        .containsExactlyInAnyOrderElementsOf(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 100L, 101L, 102L));
    List<Snapshot> snapshots = TestTables.snapshots(table);
    assertThat(snapshots).extracting(Snapshot::operation)
        .containsExactly(DataOperations.APPEND, DataOperations.APPEND, DataOperations.OVERWRITE, DataOperations.OVERWRITE);
    assertThat(snapshots).extracting(s -> s.summary().get("storm.iceberg.trident-txid")).containsExactly("1", "2", "2", "2");
  }

  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void aBatchWithNoRecordsMakesNoSnapshot(SinkTaskTest.CatalogKind kind) {
    createTable(kind);
    TridentTask task = open(StateType.TRANSACTIONAL);
    run(task, 1, List.of());

    table.refresh();
    assertThat(TestTables.snapshots(table)).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(StateType.class)
  void aTxidGoingBackwardsFailsLoudlyAndIsCounted(StateType type) {
    createTable(SinkTaskTest.CatalogKind.HADOOP);
    TridentTask task = open(type);
    run(task, 5, batch(0, 3));

    if (type == StateType.NON_TRANSACTIONAL) {
      run(task, 4, batch(3, 6));
      table.refresh();
      assertThat(TestTables.ids(table)).hasSize(6);
      return;
    }
    assertThatThrownBy(() -> run(open(type), 4, batch(3, 6)))
        .isInstanceOf(ReportedFailedException.class)
        .hasMessageContaining("Trident transaction 4 of state default/orders/trident partition 0 is older than transaction 5,"
            + " which table test.db.events already holds");
    assertThat(registry.counter("iceberg-txid-regressions").getCount()).isEqualTo(1);
    table.refresh();
    assertThat(TestTables.ids(table)).hasSize(3);
  }

  /**
   * Plain Iceberg expiry that takes the state's transaction (and the history before the head) with
   * it: the restarted state cannot tell it committed txid 1, so it says what may have happened, once,
   * and counts it; a state starting on a table whose history is whole says nothing.
   */
  @org.junit.jupiter.api.Test
  void aRestartThatFindsNoTransactionInAHistoryCutByExpiryWarnsThatTheTokenMayBeExpired() {
    createTable(SinkTaskTest.CatalogKind.HADOOP);
    run(open(StateType.TRANSACTIONAL), 1, batch(0, 10));
    assertThat(registry.counter("iceberg-token-missing").getCount()).as("a history that is whole").isZero();
    table.newFastAppend().set("writer", "another-job").commit();
    table.expireSnapshots().expireOlderThan(System.currentTimeMillis() + 1).retainLast(1).commit();
    long cut = table.currentSnapshot().snapshotId();

    try (org.apache.storm.iceberg.testing.LogCapture logs = new org.apache.storm.iceberg.testing.LogCapture(
        "org.apache.storm.iceberg.kernel.trident.TridentTransactions", org.apache.logging.log4j.Level.WARN)) {
      TridentTask restarted = open(StateType.TRANSACTIONAL);
      run(restarted, 1, batch(0, 10));
      run(restarted, 2, batch(10, 20));
      run(open(StateType.TRANSACTIONAL), 2, batch(10, 20));
      assertThat(logs.lines).filteredOn(line -> line.contains("No transaction of Trident state")).as("warned once").singleElement()
          .asString()
          .contains("No transaction of Trident state default/orders/trident partition 0 in test.db.events, whose history ends at"
              + " snapshot " + cut)
          .contains("transaction 1 and any other Trident replays will be written again");
    }
    assertThat(registry.counter("iceberg-token-missing").getCount()).isEqualTo(1);
    table.refresh();
    assertThat(TestTables.ids(table)).as("what the warning says: txid 1 written again, txid 2 skipped on its replay").hasSize(30);
  }

  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void aCommitThatLandedBehindALostAnswerIsNotWrittenAgainOnItsReplay(SinkTaskTest.CatalogKind kind) {
    createTable(kind);
    TridentTask task = open(StateType.TRANSACTIONAL);
    // Every look and retry stays ambiguous: the outcome is unknown, the batch fails and replays.
    faults.inject(CommitFault.UNKNOWN_AFTER, 1);
    faults.afterAppliedCommit = faults::takeDown;
    assertThatThrownBy(() -> run(task, 1, batch(0, 10))).isInstanceOf(ReportedFailedException.class);
    faults.clear();

    run(task, 1, batch(0, 10));

    table.refresh();
    assertThat(TestTables.ids(table)).containsExactlyInAnyOrderElementsOf(LongStream.range(0, 10).boxed().toList());
  }

  @ParameterizedTest
  @EnumSource(CommitFault.class)
  void everyCommitFaultLeavesTheTransactionInTheTableOnceAfterItsReplays(CommitFault fault) throws Exception {
    createTable(SinkTaskTest.CatalogKind.JDBC_SQLITE);
    TridentTask task = open(StateType.TRANSACTIONAL);
    faults.inject(fault, 1);
    for (int attempt = 0; attempt < 5; attempt++) {
      try {
        run(task, 1, batch(0, 10));
        break;
      } catch (ReportedFailedException replayed) {
        faults.clear();
      }
    }
    faults.late.await(java.time.Duration.ofSeconds(10));
    run(task, 2, batch(10, 20));

    table.refresh();
    assertThat(TestTables.ids(table)).containsExactlyInAnyOrderElementsOf(LongStream.range(0, 20).boxed().toList());
  }

  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void aSecondIncarnationCommittingTheSameTxidFirstMakesTheFirstReplanAndSkip(SinkTaskTest.CatalogKind kind) {
    createTable(kind);
    TridentTask zombie = open(StateType.TRANSACTIONAL);
    TridentTask successor = open(StateType.TRANSACTIONAL);
    zombie.transactions().begin(1L);
    zombie.transactions().add(zombie.files().write(batch(0, 10)));
    run(successor, 1, batch(0, 10));

    assertThatThrownBy(() -> zombie.transactions().commit(1L))
        .isInstanceOf(ReportedFailedException.class)
        .hasMessageContaining("committed another transaction since this one was planned");
    run(zombie, 1, batch(0, 10));

    table.refresh();
    assertThat(TestTables.ids(table)).hasSize(10);
    assertThat(TestTables.snapshots(table)).hasSize(1);
    assertThat(TestTables.snapshots(table).get(0).summary())
        .containsEntry("storm.iceberg.commit-id", "trident:default/orders/trident:0:1")
        .containsEntry("storm.iceberg.trident-partition", "0");
    assertThat(TransactionScope.WHOLE_STREAM).isEqualTo("whole-stream");
  }

  /**
   * A Trident state is named with its topology's name: the sink cannot tell a renamed topology that
   * continues a stream's transaction ids from another topology whose ids happen to match, whose files
   * an opaque replay would replace. So a renamed topology is a new state, its transactions its own.
   */
  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void aTopologyUnderAnotherNameIsAnotherStateAndNeverReplacesTheFirstOnesFiles(SinkTaskTest.CatalogKind kind) {
    createTable(kind);
    run(open(StateType.OPAQUE), 1, batch(0, 10));
    run(open(StateType.OPAQUE, Map.of(Config.TOPOLOGY_NAME, "orders-v2")), 1, batch(10, 20));

    table.refresh();
    assertThat(TestTables.ids(table)).containsExactlyInAnyOrderElementsOf(LongStream.range(0, 20).boxed().toList());
    assertThat(TestTables.snapshots(table)).extracting(s -> s.summary().get("storm.iceberg.trident-state"))
        .containsExactly("default/orders/trident", "default/orders-v2/trident");
  }

  /** id to payload, read back with every delete applied. */
  Map<Long, String> payloads() {
    table.refresh();
    Map<Long, String> rows = new java.util.TreeMap<>();
    for (org.apache.iceberg.data.Record record : TestTables.rows(table)) {
      assertThat(rows.put((Long) record.getField("id"), (String) record.getField("payload"))).as("key once").isNull();
    }
    return rows;
  }

  List<TridentTuple> payloads(long fromId, long toId, String payload) {
    return LongStream.range(fromId, toId).mapToObj(id -> (TridentTuple) tuples.create(java.util.Arrays.asList(id, "eu", null, payload))).toList();
  }

  /**
   * Upsert through a Trident state: each transaction one row delta; a transactional replay is
   * skipped, an opaque one replaces the transaction's rows and deletes in one row delta.
   */
  @ParameterizedTest
  @EnumSource(value = StateType.class, names = {"TRANSACTIONAL", "OPAQUE"})
  void upsertTransactionsReplaceRowsByKeyAndAReplayIsSkippedOrReplacesItsOwnChanges(StateType type) {
    createTable(SinkTaskTest.CatalogKind.JDBC_SQLITE);
    table.updateProperties().set("format-version", "3").commit();
    java.util.function.Supplier<TridentTask> open = () -> open(type, CONF, new IcebergOptions.Builder()
        .withWriteMode(org.apache.storm.iceberg.WriteMode.UPSERT).withKeyColumns("id"));
    TridentTask task = open.get();
    run(task, 1, payloads(0, 10, "a"));
    run(task, 2, payloads(5, 15, "b"));
    assertThat(payloads()).hasSize(15).containsEntry(4L, "a").containsEntry(5L, "b").containsEntry(14L, "b");

    // A new incarnation replays transaction 2 (its tuples differ, as an opaque spout's may), then goes on.
    TridentTask restarted = open.get();
    run(restarted, 2, payloads(5, 10, "c"));
    run(restarted, 3, payloads(0, 3, "d"));

    Map<Long, String> expected = new java.util.TreeMap<>();
    LongStream.range(0, 3).forEach(id -> expected.put(id, "d"));
    LongStream.range(3, 5).forEach(id -> expected.put(id, "a"));
    if (type == StateType.TRANSACTIONAL) {
      LongStream.range(5, 15).forEach(id -> expected.put(id, "b"));
    } else {
      LongStream.range(5, 10).forEach(id -> expected.put(id, "c"));
    }
    assertThat(payloads()).isEqualTo(expected);
    assertThat(TestTables.snapshots(table)).extracting(s -> s.summary().get("storm.iceberg.trident-txid"))
        .containsExactly(type == StateType.TRANSACTIONAL ? new String[] {"1", "2", "3"} : new String[] {"1", "2", "2", "3"});
    assertThat(registry.counter("iceberg-equality-deletes-committed").getCount())
        .as("one per key each committed transaction changed").isEqualTo(type == StateType.TRANSACTIONAL ? 10 + 10 + 3 : 10 + 10 + 5 + 3);
  }

  /**
   * A transaction beyond the held-keys bound streams, so a key it changes twice costs a position
   * delete (a deletion vector on format version 3): an opaque replay replaces its rows and every
   * delete file it added, deletion vectors and position-delete files included, in one row delta.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {2, 3})
  void anOpaqueReplayOfAStreamedTransactionReplacesItsRowsAndItsPositionDeletes(int formatVersion) {
    createTable(SinkTaskTest.CatalogKind.JDBC_SQLITE);
    table.updateProperties().set("format-version", String.valueOf(formatVersion)).commit();
    java.util.function.Supplier<TridentTask> open = () -> open(StateType.OPAQUE, CONF, new IcebergOptions.Builder()
        .withWriteMode(org.apache.storm.iceberg.WriteMode.UPSERT).withKeyColumns("id").withMaxHeldChangeKeys(2));
    TridentTask task = open.get();
    run(task, 1, payloads(0, 10, "a"));
    run(task, 2, concat(payloads(5, 15, "b0"), payloads(5, 15, "b")));
    assertThat(payloads()).hasSize(15).containsEntry(4L, "a").containsEntry(5L, "b").containsEntry(14L, "b");
    table.refresh();
    assertThat(table.currentSnapshot().summary()).as("ten rows of the transaction replaced within it")
        .containsEntry("added-position-deletes", "10");
    assertThat(table.currentSnapshot().summary().get("added-dvs")).as("deletion vectors on v3 only")
        .isEqualTo(formatVersion >= 3 ? "1" : null);

    TridentTask restarted = open.get();
    run(restarted, 2, concat(payloads(5, 10, "c0"), payloads(5, 10, "c")));
    run(restarted, 3, payloads(0, 3, "d"));

    Map<Long, String> expected = new java.util.TreeMap<>();
    LongStream.range(0, 3).forEach(id -> expected.put(id, "d"));
    LongStream.range(3, 5).forEach(id -> expected.put(id, "a"));
    LongStream.range(5, 10).forEach(id -> expected.put(id, "c"));
    assertThat(payloads()).isEqualTo(expected);
    assertThat(TestTables.snapshots(table)).extracting(s -> s.summary().get("storm.iceberg.trident-txid"))
        .containsExactly("1", "2", "2", "3");
  }

  static List<TridentTuple> concat(List<TridentTuple> first, List<TridentTuple> second) {
    List<TridentTuple> all = new java.util.ArrayList<>(first);
    all.addAll(second);
    return all;
  }
}
