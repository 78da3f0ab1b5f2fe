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

import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.Faults.CommitFault;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Commit errors settled at once, on real catalogs whose TableOperations inject the fault: before
 * the real commit, after it, or with the catalog unreachable; committing to main and to a branch. Each
 * case runs on a HadoopCatalog and a JdbcCatalog on the local file system, and (long tier) on S3
 * behind a JdbcCatalog and the REST catalog, where the WAL is listed by prefix through S3FileIO.
 */
class CommitFailureTest {
  static final TableIdentifier EVENTS = TableIdentifier.of("db", "events");

  @TempDir Path dir;
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples tuples = new Tuples(TestTables.FIELDS);
  final Faults faults = Faults.create();
  final AtomicLong clock = new AtomicLong(1_000_000);
  Table table;
  SinkTask sink;
  TestCatalogs.Running running;

  /**
   * Every case runs on each catalog, committing to main and to a branch the first commit creates;
   * the quick tier runs the branch on JDBC only.
   */
  static Stream<Arguments> catalogsAndBranches() {
    return Stream.of(TestCatalogs.Kind.values())
        .flatMap(kind -> Stream.of(Arguments.of(kind, SnapshotRef.MAIN_BRANCH), Arguments.of(kind, "audit")));
  }

  String branch;
  int commitRetries = 2;

  void start(TestCatalogs.Kind kind, String branch) throws Exception {
    this.branch = branch;
    if (kind.onS3()) {
      TestTiers.longTierOnly("on S3, ObjectStorageSinkTest commits a batch in the quick tier");
    }
    if (kind == TestCatalogs.Kind.HADOOP && !SnapshotRef.MAIN_BRANCH.equals(branch)) {
      TestTiers.longTierOnly("the branch case runs on JDBC in the quick tier");
    }
    running = TestCatalogs.start(kind, dir);
    Map<String, String> real = running.properties();
    Catalog catalog = TestCatalogs.load(real);
    if (catalog instanceof SupportsNamespaces) {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    }
    // One retry keeps Iceberg's own conflict retries (and their backoff) short.
    table =
        catalog.createTable(
            EVENTS, TestTables.SCHEMA, PartitionSpec.unpartitioned(), Map.of(TableProperties.COMMIT_NUM_RETRIES, "1"));
    IcebergOptions options =
        new IcebergOptions.Builder()
            .withCatalogName("test")
            .withCatalogProperties(FaultInjectingCatalog.properties(real, faults))
            .withTable("db.events")
            .withCommitIntervalRecords(5)
            .withCommitRetries(commitRetries)
            .withCommitRetryBackoffMillis(10)
            .withBranch(branch)
            .build();
    sink = SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector(), clock::get);
  }

  /** The ids on the branch the sink commits to. */
  List<Long> ids() {
    return TestTables.ids(table, branch);
  }

  /** Whatever a case did on a branch, main never shows it. */
  @AfterEach
  void mainShowsNothingOfABranch() throws Exception {
    try {
      if (table != null && !SnapshotRef.MAIN_BRANCH.equals(branch)) {
        assertThat(TestTables.ids(table, SnapshotRef.MAIN_BRANCH)).as("rows on main").isEmpty();
        assertThat(table.currentSnapshot()).as("main's current snapshot").isNull();
      }
    } finally {
      if (running != null) {
        running.close();
      }
    }
  }

  void sendBatch(long fromId) {
    for (long id = fromId; id < fromId + 5; id++) {
      sink.execute(tuples.tuple(id, "eu", null, "p"));
    }
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void commitThatLandedDespiteAnUnknownStateIsAckedAndNotReplayed(TestCatalogs.Kind kind, String branch) throws Exception {
    start(kind, branch);
    faults.inject(CommitFault.UNKNOWN_AFTER, 1);

    sendBatch(0);

    assertThat(faults.injected).hasValue(1);
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.failed).isEmpty();
    assertThat(TestTables.snapshots(table)).hasSize(1);
    assertThat(ids()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(TestTables.walEntryLocations(table)).isEmpty();
    sink.close();
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void commitThatLandedDespiteAnUnknownStateIsFoundByItsIdWithoutARetry(TestCatalogs.Kind kind, String branch) throws Exception {
    commitRetries = 0; // only the lookup of the commit id can tell that it landed
    start(kind, branch);
    faults.inject(CommitFault.UNKNOWN_AFTER, 1);

    sendBatch(0);

    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.failed).isEmpty();
    assertThat(TestTables.snapshots(table)).hasSize(1);
    assertThat(ids()).containsExactly(0L, 1L, 2L, 3L, 4L);
    sink.close();
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void commitRejectedBeforeItAppliedFailsTheBatchAndShowsNothing(TestCatalogs.Kind kind, String branch) throws Exception {
    start(kind, branch);
    faults.inject(CommitFault.FAIL_BEFORE, 2); // the attempt and Iceberg's one retry

    sendBatch(0);

    assertThat(recorder.acked).isEmpty();
    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.errors).singleElement().isInstanceOf(CommitFailedException.class);
    assertThat(TestTables.snapshots(table)).isEmpty();
    assertThat(TestTables.walEntryLocations(table)).isEmpty();

    // The replay goes through once the catalog accepts commits again.
    sendBatch(0);
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(ids()).containsExactly(0L, 1L, 2L, 3L, 4L);
    sink.close();
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void anUnreachableCatalogFailsTheBatch(TestCatalogs.Kind kind, String branch) throws Exception {
    start(kind, branch);
    faults.inject(CommitFault.UNREACHABLE, 1);

    sendBatch(0);

    assertThat(recorder.acked).isEmpty();
    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.errors).singleElement().satisfies(e -> assertThat(e).hasMessageContaining("catalog unreachable"));
    assertThat(TestTables.snapshots(table)).isEmpty();
    // The outcome is unknown, so the entry stays for the next incarnation to settle and drop.
    List<String> left = TestTables.walEntryLocations(table);
    assertThat(left).hasSize(1);

    faults.clear();
    sendBatch(10);
    assertThat(recorder.ackedIds()).containsExactly(10L, 11L, 12L, 13L, 14L);
    sink.close();
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void whileTheCatalogIsDownNoBatchOpensAndEachTupleIsFailed(TestCatalogs.Kind kind, String branch) throws Exception {
    start(kind, branch);
    faults.takeDown();

    sendBatch(0);

    assertThat(recorder.acked).isEmpty();
    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.errors).hasSize(5).allSatisfy(e -> assertThat(e).hasMessageContaining("catalog unreachable"));

    faults.clear();
    sendBatch(0);
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(ids()).containsExactly(0L, 1L, 2L, 3L, 4L);
    sink.close();
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void anAmbiguousCommitThatNeverLandedIsAppendedAgainUnderItsIdAndAcked(TestCatalogs.Kind kind, String branch) throws Exception {
    start(kind, branch);
    faults.inject(CommitFault.UNKNOWN_NOT_APPLIED, 1);

    sendBatch(0);

    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.failed).isEmpty();
    assertThat(TestTables.snapshots(table)).singleElement()
        .satisfies(s -> assertThat(s.summary()).containsKey(org.apache.storm.iceberg.IcebergOptions.COMMIT_ID_PROPERTY));
    assertThat(ids()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(TestTables.walEntryLocations(table)).isEmpty();
    sink.close();
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void aCommitAppliedAfterTheFirstLookButBeforeTheRetryIsNotWrittenTwice(TestCatalogs.Kind kind, String branch) throws Exception {
    start(kind, branch);
    faults.inject(CommitFault.UNKNOWN_LANDS_LATE, 1);

    sendBatch(0);

    assertThat(faults.realCommits).as("the late first attempt landed").hasValue(1);
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(TestTables.snapshots(table)).hasSize(1);
    assertThat(ids()).containsExactly(0L, 1L, 2L, 3L, 4L);
    sink.close();
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void aStaleFirstAttemptArrivingAfterTheRetryIsRefusedByCompareAndSwap(TestCatalogs.Kind kind, String branch) throws Exception {
    start(kind, branch);
    faults.inject(CommitFault.UNKNOWN_STALE_AFTER_RETRY, 1);

    sendBatch(0);

    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(faults.staleRejected).hasValue(1);
    assertThat(faults.staleApplied).hasValue(0);
    assertThat(TestTables.snapshots(table)).hasSize(1);
    assertThat(ids()).containsExactly(0L, 1L, 2L, 3L, 4L);
    sink.close();
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void anAmbiguousCommitStillUnsettledAfterTheLastRetryFailsTheBatch(TestCatalogs.Kind kind, String branch) throws Exception {
    start(kind, branch);
    faults.inject(CommitFault.UNKNOWN_NOT_APPLIED, 3); // the attempt and both retries

    sendBatch(0);

    assertThat(faults.injected).hasValue(3);
    assertThat(recorder.acked).isEmpty();
    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(TestTables.snapshots(table)).isEmpty();
    sink.close();
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void aBatchFailedAfterAnAmbiguousCommitReportsTheAmbiguityWithEachRetrysErrorSuppressed(TestCatalogs.Kind kind, String branch) throws Exception {
    start(kind, branch);
    faults.inject(CommitFault.UNKNOWN_NOT_APPLIED, 1);
    java.util.concurrent.atomic.AtomicInteger commits = new java.util.concurrent.atomic.AtomicInteger();
    // From the first retry on, every commit is rejected: the first attempt's fate stays unknown.
    faults.duringCommit = () -> {
      if (commits.incrementAndGet() == 2) {
        faults.inject(CommitFault.FAIL_BEFORE, 100);
      }
    };

    sendBatch(0);

    assertThat(recorder.acked).isEmpty();
    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.errors).singleElement().satisfies(error -> {
      assertThat(error).isInstanceOf(org.apache.iceberg.exceptions.CommitStateUnknownException.class)
          .hasMessageContaining("injected: answer lost, commit not applied");
      assertThat(error.getSuppressed()).isNotEmpty().allSatisfy(retry ->
          assertThat(retry).isInstanceOf(CommitFailedException.class).hasMessage("injected: commit rejected before it was applied"));
    });
    assertThat(TestTables.snapshots(table)).isEmpty();
    sink.close();
  }
}
