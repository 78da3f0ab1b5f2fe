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

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.Config;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.kernel.task.CommitterTask;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.kernel.trident.TridentTask;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.task.IMetricsContext;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.trident.tuple.TridentTupleView;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write-audit-publish on a real JDBC catalog: every path of the sink (the bolt, the split sink's
 * committer, a Trident state) commits to a branch, finds its own commits there (by commit id, by
 * source position, by Trident transaction, in a stale WAL entry), leaves main untouched, and a
 * fast-forward publishes what it wrote. The commit-failure suite runs on a branch too
 * ({@link CommitFailureTest}).
 */
class BranchWritesTest {
  static final String AUDIT = "audit";
  static final String[] POSITION_FIELDS = {"id", "region", "event_time", "payload", "topic", "partition", "offset"};

  @TempDir Path dir;
  final AtomicLong clock = new AtomicLong(1_000_000);
  final Tuples events = new Tuples(TestTables.FIELDS);
  Map<String, String> catalogProperties;
  Table table;

  @BeforeEach
  void createTable() {
    catalogProperties = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
  }

  @AfterEach
  void forgetIdentities() {
    FieldPositions.IDENTITIES.clear();
  }

  IcebergOptions.Builder options(String branch) {
    return new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.events")
        .withCommitIntervalRecords(5)
        .withBranch(branch);
  }

  SinkTask bolt(IcebergOptions options, RecordingCollector recorder) {
    return SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector(), clock::get);
  }

  void send(SinkTask sink, long fromId, long toId) {
    for (long id = fromId; id < toId; id++) {
      sink.execute(events.tuple(id, "eu", null, "p"));
    }
  }

  static List<Long> range(long fromId, long toId) {
    return LongStream.range(fromId, toId).boxed().toList();
  }

  @Test
  void rowsOnAMissingBranchAreCommittedFromMainsHeadInvisibleOnMainUntilAFastForwardPublishesThem() {
    RecordingCollector recorder = new RecordingCollector();
    send(bolt(options(SnapshotRef.MAIN_BRANCH).build(), recorder), 100, 105);
    table.refresh();
    Snapshot mainHead = table.currentSnapshot();
    assertThat(table.refs()).doesNotContainKey(AUDIT);

    SinkTask audited = bolt(options(AUDIT).build(), recorder);
    send(audited, 0, 10);

    assertThat(recorder.ackedIds()).hasSize(15);
    assertThat(TestTables.ids(table, SnapshotRef.MAIN_BRANCH)).as("main").isEqualTo(range(100, 105));
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainHead.snapshotId());
    assertThat(TestTables.ids(table, AUDIT)).as("the branch, created from main's head")
        .containsExactlyInAnyOrderElementsOf(concat(range(0, 10), range(100, 105)));
    Snapshot firstOnBranch = table.snapshot(table.snapshot(AUDIT).parentId());
    assertThat(firstOnBranch.parentId()).isEqualTo(mainHead.snapshotId());

    table.manageSnapshots().fastForwardBranch(SnapshotRef.MAIN_BRANCH, AUDIT).commit();
    assertThat(TestTables.ids(table, SnapshotRef.MAIN_BRANCH)).as("main, published")
        .containsExactlyInAnyOrderElementsOf(concat(range(0, 10), range(100, 105)));

    // The branch lives on after publishing: the next batch goes to it, not to main.
    send(audited, 10, 15);
    assertThat(TestTables.ids(table, AUDIT)).hasSize(20);
    assertThat(TestTables.ids(table, SnapshotRef.MAIN_BRANCH)).hasSize(15);
    audited.close();
  }

  @Test
  void aTagOfThatNameIsRefusedWhenTheTaskStarts() {
    send(bolt(options(SnapshotRef.MAIN_BRANCH).build(), new RecordingCollector()), 0, 5);
    table.refresh();
    table.manageSnapshots().createTag(AUDIT, table.currentSnapshot().snapshotId()).commit();

    assertThatThrownBy(() -> bolt(options(AUDIT).build(), new RecordingCollector()))
        .hasMessageContaining("withBranch(\"audit\") names a tag of test.db.events, and commits cannot land on a tag;"
            + " name a branch (a missing one is created from main's current snapshot at the first commit)");
  }

  @Test
  void aCommittedOffsetOnTheBranchIsNotWrittenAgainByANewIncarnation() {
    Tuples positioned = new Tuples(POSITION_FIELDS);
    IcebergOptions options = options(AUDIT).withSourcePositions(new FieldPositions()).build();
    RecordingCollector recorder = new RecordingCollector();
    SinkTask first = bolt(options, recorder);
    for (long offset = 0; offset < 10; offset++) {
      first.execute(positioned.tuple(offset, "eu", null, "p", "events", 0, offset));
    }
    SinkTask restarted = bolt(options, recorder);
    for (long offset = 0; offset < 15; offset++) {
      restarted.execute(positioned.tuple(offset, "eu", null, "p", "events", 0, offset));
    }

    assertThat(recorder.failedIds()).isEmpty();
    assertThat(recorder.ackedIds()).hasSize(25);
    assertThat(TestTables.ids(table, AUDIT)).isEqualTo(range(0, 15));
    assertThat(TestTables.ids(table, SnapshotRef.MAIN_BRANCH)).isEmpty();
    restarted.close();
  }

  @Test
  void theSplitSinksCommitterCommitsToTheBranch() {
    RecordingCollector writerOut = new RecordingCollector();
    SinkTask writer = SinkTasks.openWriter(settings(options(AUDIT).build()),
        new TaskIdentity("topology", "iceberg-writer", 10, 0, 1), writerOut.collector(), clock::get);
    send(writer, 0, 5);
    RecordingCollector committerOut = new RecordingCollector();
    CommitterTask committer = CommitterTask.open(
        settings(options(AUDIT).withGroupCommitMaxDataFiles(1).build()),
        new TaskIdentity("topology", "iceberg-committer", 1, 0, 1), committerOut.collector(), clock::get);
    Tuples descriptors = Tuples.from("iceberg-writer", IcebergWriterBolt.DESCRIPTOR_FIELD);

    committer.execute(descriptors.tuple(writerOut.emitted.get(0).values().get(0)));

    assertThat(committerOut.acked).hasSize(1);
    assertThat(TestTables.ids(table, AUDIT)).isEqualTo(range(0, 5));
    assertThat(TestTables.ids(table, SnapshotRef.MAIN_BRANCH)).isEmpty();
    committer.close();
  }

  @Test
  void aTridentReplayOfATransactionCommittedToTheBranchIsSkippedEvenByANewIncarnation() {
    IcebergOptions options = options(AUDIT).withTridentStateType(StateType.TRANSACTIONAL).build();
    Map<String, Object> conf = Map.of(Config.TOPOLOGY_NAME, "orders");
    IMetricsContext metrics = SinkMetrics.detachedContext(new com.codahale.metrics.MetricRegistry());
    TridentTupleView.FreshOutputFactory tuples = new TridentTupleView.FreshOutputFactory(new Fields(TestTables.FIELDS));
    List<TridentTuple> batch =
        LongStream.range(0, 10).mapToObj(id -> (TridentTuple) tuples.create(java.util.Arrays.asList(id, "eu", null, "p" + id))).toList();

    for (int incarnation = 0; incarnation < 2; incarnation++) {
      TridentTask task = TridentTask.openState(settings(options), conf, metrics, 0, 1, "0");
      task.transactions().begin(1L);
      if (task.transactions().wantsFiles()) {
        task.transactions().add(task.files().write(batch));
      }
      task.transactions().commit(1L);
    }

    assertThat(TestTables.ids(table, AUDIT)).isEqualTo(range(0, 10));
    assertThat(TestTables.ids(table, SnapshotRef.MAIN_BRANCH)).isEmpty();
  }

  @Test
  void aStaleWalEntryWhoseCommitLandedOnTheBranchIsReportedAsLanded() {
    send(bolt(options(AUDIT).build(), new RecordingCollector()), 0, 5);
    table.refresh();
    Snapshot landed = table.snapshot(AUDIT);
    String commitId = landed.summary().get(IcebergOptions.COMMIT_ID_PROPERTY);
    WalStore store = ProviderRegistry.find(WalStoreFactory.class, "table-fileio", getClass().getClassLoader()).create(Map.of());
    WalScope scope = new WalScope(table, "default", "topology", "iceberg", 0); // SinkTaskTest.TASK's
    store.put(scope, commitId, DataFilesCodec.encode(new DataFilesCodec.Entry(
        commitId, table.name(), "iceberg", 0, landed.timestampMillis(), List.of()), table.specs()));

    // The task's next incarnation meets the entry when it starts.
    try (LogCapture log = new LogCapture()) {
      bolt(options(AUDIT).build(), new RecordingCollector()).close();
      assertThat(store.list(scope)).isEmpty();
      assertThat(log.lines).anySatisfy(line ->
          assertThat(line).contains("commit " + commitId + " landed in snapshot " + landed.snapshotId()));
    }
  }

  private static List<Long> concat(List<Long> first, List<Long> second) {
    return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
  }
}
