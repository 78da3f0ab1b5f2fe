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

import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.storm.Config;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.trident.TridentTask;
import org.apache.storm.iceberg.spi.CommitEventFields;
import org.apache.storm.iceberg.spi.SinkSnapshotKeys;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.DetachedTridentContext;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.wal.TableFileIoWalStoreFactory;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.trident.tuple.TridentTupleView;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Snapshot expiry against a real Trident state, driven as Trident drives it, on JDBC, Hadoop and
 * Iceberg's REST catalog server: the state commits transactions, other writers commit after it
 * (1,000 times on JDBC in the long tier), expiry keeps only the newest snapshot, and the state,
 * restarted, replays a transaction it had committed. With the guard the replay is skipped (a
 * transactional state) or replaces that transaction's files (an opaque state); the same expiry
 * without the guard loses the state's transaction, and the replay is written a second time, beside
 * the first.
 */
class TridentTokenExpiryTest {
  static final Map<String, Object> CONF = Map.of(Config.TOPOLOGY_NAME, "orders");

  @TempDir Path dir;
  final TridentTupleView.FreshOutputFactory tuples = new TridentTupleView.FreshOutputFactory(new Fields(TestTables.FIELDS));
  EventsTable events;
  Map<String, String> catalogProperties;
  Table table;
  StateType type = StateType.TRANSACTIONAL;

  @AfterEach
  void stop() throws Exception {
    if (events != null) {
      events.close();
    }
  }

  /** The table on a catalog of {@code kind}: "jdbc", "hadoop" or "rest". */
  void start(String kind) throws Exception {
    events = EventsTable.create(kind, dir);
    catalogProperties = events.catalogProperties();
    table = events.table();
  }

  /** A state task of partition 0, of the test's {@link #type}, as a worker (re)starting opens it, its metrics in {@code registry}. */
  TridentTask open(MetricRegistry registry) {
    IcebergOptions options = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.events")
        .withTridentStateType(type)
        .build();
    return TridentTask.openState(settings(options), CONF, SinkMetrics.detachedContext(registry), 0, 1, "0");
  }

  /** Transaction {@code txid}, ids {@code 10 * (txid - 1)} to {@code 10 * txid - 1}, as Trident's commit phase runs it. */
  void run(TridentTask task, long txid) {
    run(task, txid, "p");
  }

  /** Transaction {@code txid} as {@link #run(TridentTask, long)}, each payload {@code payloadPrefix} and the id. */
  void run(TridentTask task, long txid, String payloadPrefix) {
    List<TridentTuple> batch = LongStream.range(10 * (txid - 1), 10 * txid)
        .mapToObj(id -> (TridentTuple) tuples.create(Arrays.asList(id, "eu", null, payloadPrefix + id))).toList();
    task.transactions().begin(txid);
    if (task.transactions().wantsFiles()) {
      task.transactions().add(task.files().write(batch));
    }
    task.transactions().commit(txid);
  }

  /** The state commits txids 1-3, then other writers commit: returns the snapshot of txid 3, the state's token. */
  long commitThreeTransactionsThenForeignCommits(String kind) {
    return commitThreeTransactionsThenForeignCommits(SnapshotExpiryTest.foreignCommits(kind));
  }

  long commitThreeTransactionsThenForeignCommits(int foreignCommits) {
    TridentTask task = open(new MetricRegistry());
    for (long txid = 1; txid <= 3; txid++) {
      run(task, txid);
    }
    table.refresh();
    long token = table.currentSnapshot().snapshotId();
    events.foreignCommits(foreignCommits);
    table.refresh();
    return token;
  }

  /** Every id in the table, sorted, duplicates kept. */
  List<Long> ids() {
    table.refresh();
    List<Long> ids = new ArrayList<>(TestTables.ids(table));
    ids.sort(null);
    return ids;
  }

  /** Every row in the table as "id payload", sorted by id, then payload; duplicates kept. */
  List<String> rows() {
    return TestTables.rows(table).stream()
        .sorted(Comparator.comparing((Record row) -> (Long) row.getField("id")).thenComparing(row -> (String) row.getField("payload")))
        .map(row -> row.getField("id") + " " + row.getField("payload")).toList();
  }

  /** The rows of ids {@code from} to {@code toExclusive - 1}, as {@link #rows()} shows them, each payload {@code payloadPrefix} and the id. */
  static Stream<String> rows(long from, long toExclusive, String payloadPrefix) {
    return LongStream.range(from, toExclusive).mapToObj(id -> id + " " + payloadPrefix + id);
  }

  /** The txids of the snapshots the table keeps, oldest first, one per snapshot. */
  List<String> txids() {
    table.refresh();
    return TestTables.snapshots(table).stream().map(Snapshot::summary)
        .filter(summary -> summary.containsKey(SinkSnapshotKeys.TRIDENT_TXID))
        .map(summary -> summary.get(SinkSnapshotKeys.TRIDENT_TXID)).toList();
  }

  static List<Long> range(long from, long toExclusive) {
    return LongStream.range(from, toExclusive).boxed().toList();
  }

  /** Expires all but the newest snapshot, with the guard: it keeps the state's transaction, snapshot {@code token}, and expires txids 1 and 2. */
  void expireKeepingTheStatesTransaction(long token) {
    SnapshotExpiry.Result result = new SnapshotExpiry(SnapshotExpiryTest.EXPIRE_ALL_BUT_ONE, new TableFileIoWalStoreFactory().create(Map.of()))
        .run(table, System.currentTimeMillis() + 1, false);
    assertThat(result.tokenKept()).as("the guard kept the state's transaction").isTrue();
    assertThat(result.keptFor().orElseThrow().deepest())
        .extracting(SinkTokens.Token::kind, SinkTokens.Token::owner, SinkTokens.Token::snapshotId)
        .containsExactly("Trident transaction", "default/orders/trident partition 0", token);
    assertThat(result.expiredSnapshotIds()).as("txids 1 and 2, older than the token, go").hasSize(2);
    assertThat(txids()).containsExactly("3");
  }

  /** The same expiry without the guard: it expires the state's transaction, snapshot {@code token}, with the rest. */
  void expireLosingTheStatesTransaction(long token) {
    SnapshotExpiry.Result result = SnapshotExpiry.withoutTheGuardForTests(SnapshotExpiryTest.EXPIRE_ALL_BUT_ONE)
        .run(table, System.currentTimeMillis() + 1, false);
    assertThat(result.tokenKept()).isFalse();
    assertThat(result.expiredSnapshotIds()).contains(token);
    assertThat(txids()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdbc", "hadoop", "rest"})
  void theStatesTransactionOutlivesOtherWritersCommitsAndItsReplayIsStillSkipped(String kind) throws Exception {
    start(kind);
    long token = commitThreeTransactionsThenForeignCommits(kind);

    expireKeepingTheStatesTransaction(token);
    int snapshots = TestTables.snapshots(table).size();

    MetricRegistry restarted = new MetricRegistry();
    run(open(restarted), 3);

    assertThat(ids()).isEqualTo(range(0, 30));
    assertThat(TestTables.snapshots(table)).as("no snapshot for the skipped replay").hasSize(snapshots);
    assertThat(restarted.counter("iceberg-transactions-skipped").getCount()).isEqualTo(1);
    assertThat(restarted.counter("iceberg-token-missing").getCount()).isZero();
  }

  /** The control: the same expiry without the guard, and the same replay is written again. */
  @ParameterizedTest
  @ValueSource(strings = {"jdbc", "hadoop", "rest"})
  void withoutTheGuardTheSameExpiryLosesTheTransactionAndTheReplayIsWrittenAgain(String kind) throws Exception {
    start(kind);
    long token = commitThreeTransactionsThenForeignCommits(SnapshotExpiryTest.fewerForeignCommits(kind));

    expireLosingTheStatesTransaction(token);

    MetricRegistry restarted = new MetricRegistry();
    run(open(restarted), 3);

    assertThat(ids()).as("txid 3's ids 20-29 twice").isEqualTo(Stream.concat(range(0, 30).stream(), range(20, 30).stream()).sorted().toList());
    assertThat(txids()).as("txid 3 committed again").containsExactly("3");
    assertThat(restarted.counter("iceberg-transactions-skipped").getCount()).isZero();
    assertThat(restarted.counter("iceberg-token-missing").getCount()).as("the restarted state said so").isEqualTo(1);
  }

  /**
   * An opaque state: the guard keeps its newest transaction as it keeps a transactional state's, and
   * the replay of that transaction, which for an opaque spout may bring other tuples, replaces the
   * files the kept snapshot added, in one overwrite: each id once, txid 3's as the replay wrote them.
   */
  @ParameterizedTest
  @ValueSource(strings = {"jdbc", "hadoop", "rest"})
  void anOpaqueStatesTransactionOutlivesOtherWritersCommitsAndItsReplayReplacesItsFiles(String kind) throws Exception {
    type = StateType.OPAQUE;
    start(kind);
    long token = commitThreeTransactionsThenForeignCommits(SnapshotExpiryTest.fewerForeignCommits(kind));

    expireKeepingTheStatesTransaction(token);

    MetricRegistry restarted = new MetricRegistry();
    run(open(restarted), 3, "replayed-");

    assertThat(rows()).as("each id once, txid 3's from the replay")
        .isEqualTo(Stream.concat(rows(0, 20, "p"), rows(20, 30, "replayed-")).toList());
    table.refresh();
    assertThat(table.currentSnapshot().summary()).as("the replay replaced the kept snapshot's file")
        .containsEntry(SinkSnapshotKeys.TRIDENT_TXID, "3")
        .containsEntry(SnapshotSummary.DELETED_FILES_PROP, "1").containsEntry(SnapshotSummary.DELETED_RECORDS_PROP, "10")
        .containsEntry(SnapshotSummary.ADDED_FILES_PROP, "1").containsEntry(SnapshotSummary.ADDED_RECORDS_PROP, "10");
    assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.OVERWRITE);
    assertThat(txids()).as("the kept transaction, and its replacement").containsExactly("3", "3");
    assertThat(restarted.counter("iceberg-transactions-skipped").getCount()).isZero();
    assertThat(restarted.counter("iceberg-token-missing").getCount()).isZero();
  }

  /**
   * The opaque control: the same expiry without the guard, and the replay is appended beside what it
   * should replace. Nothing refuses it: the restarted state finds no transaction of its partition in
   * a history expiry cut short, warns once (iceberg-token-missing), takes txid 3 for a new
   * transaction and appends it; the rows of its first attempt stay, each id of txid 3 twice.
   */
  @ParameterizedTest
  @ValueSource(strings = {"jdbc", "hadoop", "rest"})
  void withoutTheGuardTheSameExpiryLosesTheOpaqueTransactionAndTheReplayIsAppendedBesideIt(String kind) throws Exception {
    type = StateType.OPAQUE;
    start(kind);
    long token = commitThreeTransactionsThenForeignCommits(SnapshotExpiryTest.fewerForeignCommits(kind));

    expireLosingTheStatesTransaction(token);

    MetricRegistry restarted = new MetricRegistry();
    run(open(restarted), 3, "replayed-");

    assertThat(rows()).as("txid 3's ids 20-29 twice: as first written, and as replayed")
        .isEqualTo(Stream.concat(rows(0, 20, "p"), range(20, 30).stream().flatMap(id -> Stream.of(id + " p" + id, id + " replayed-" + id))).toList());
    table.refresh();
    assertThat(table.currentSnapshot().operation()).as("an append, not a replacement").isEqualTo(DataOperations.APPEND);
    assertThat(txids()).as("txid 3 committed again").containsExactly("3");
    assertThat(restarted.counter("iceberg-transactions-skipped").getCount()).isZero();
    assertThat(restarted.counter("iceberg-token-missing").getCount()).as("the restarted state said so").isEqualTo(1);
  }

  /**
   * A maintenance pass, run by {@link IcebergMaintenanceFunction} on a commit event as in a
   * topology, that had to keep the state's transaction counts it; once the state is retired, a pass
   * expires its transaction and counts nothing.
   */
  @Test
  void aMaintenancePassThatKeepsTheStatesTransactionCountsIt() throws Exception {
    start("jdbc");
    long token = commitThreeTransactionsThenForeignCommits(5);

    DetachedTridentContext kept = pass(maintenance());
    assertThat(kept.count("iceberg-maintenance-failures")).isZero();
    assertThat(kept.count("iceberg-snapshots-expired")).as("txids 1 and 2").isEqualTo(2);
    assertThat(kept.count("iceberg-maintenance-token-kept")).isEqualTo(1);
    assertThat(txids()).containsExactly("3");

    DetachedTridentContext retired = pass(maintenance().withRetiredSinks("default"));
    assertThat(retired.count("iceberg-maintenance-failures")).isZero();
    assertThat(retired.count("iceberg-snapshots-expired")).as("txid 3 and the foreign commits but the newest").isEqualTo(5);
    assertThat(retired.count("iceberg-maintenance-token-kept")).isZero();
    table.refresh();
    assertThat(table.snapshot(token)).isNull();
  }

  /** Expiry of all but the newest snapshot on every commit event, and nothing else. */
  MaintenanceOptions.Builder maintenance() {
    return new MaintenanceOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .triggerOnCommits(1).withMinGap(Duration.ZERO)
        .withCompaction(false, Map.of()).withManifestRewrite(false, 100).withOrphanRemoval(false, Duration.ofDays(3), Duration.ofDays(1))
        .withExpiry(true).withExpiryMaxAge(Duration.ZERO).withExpiryRetainLast(1)
        .withLease(MaintenanceLease.Kind.NONE, Duration.ofSeconds(30));
  }

  /** Runs the function of {@code options} on one commit event of the table, until its pass is done; returns its metrics. */
  DetachedTridentContext pass(MaintenanceOptions.Builder options) throws InterruptedException {
    IcebergMaintenanceFunction function = new IcebergMaintenanceFunction(options.build());
    DetachedTridentContext context = new DetachedTridentContext(0, 1);
    function.prepare(Map.of(Config.TOPOLOGY_NAME, "maintenance"), context);
    try {
      table.refresh();
      Snapshot head = table.currentSnapshot();
      function.execute(new TridentTupleView.FreshOutputFactory(CommitEventFields.fields())
          .create(Arrays.asList("db.events", head.snapshotId(), head.sequenceNumber(), 1, 100L, 0, 5L)), null);
      Deadline.await(Duration.ofSeconds(30), () -> context.count("iceberg-maintenance-passes") == 1, () -> "a maintenance pass");
    } finally {
      // The pass counts its passes first and the rest after: cleanup waits for the pass thread to end.
      function.cleanup();
    }
    return context;
  }
}
