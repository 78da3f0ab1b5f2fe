package org.apache.storm.iceberg.kernel;

import org.apache.storm.iceberg.kernel.task.SinkTask;
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
 * the real commit, after it, or with the catalog unreachable; committing to main and to a branch.
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

  /**
   * Every case runs on each catalog, committing to main and to a branch the first commit creates;
   * the quick tier runs the branch on JDBC only.
   */
  static Stream<Arguments> catalogsAndBranches() {
    return Stream.of(SinkTaskTest.CatalogKind.values())
        .flatMap(kind -> Stream.of(Arguments.of(kind, SnapshotRef.MAIN_BRANCH), Arguments.of(kind, "audit")));
  }

  String branch;
  int commitRetries = 2;

  void start(SinkTaskTest.CatalogKind kind, String branch) {
    this.branch = branch;
    if (kind == SinkTaskTest.CatalogKind.HADOOP && !SnapshotRef.MAIN_BRANCH.equals(branch)) {
      TestTiers.longTierOnly("the branch case runs on JDBC in the quick tier");
    }
    Map<String, String> real =
        kind == SinkTaskTest.CatalogKind.HADOOP ? TestCatalogs.hadoop(dir) : TestCatalogs.jdbcSqlite(dir);
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
    sink = SinkTask.open(settings(options), SinkTaskTest.TASK, recorder.collector(), clock::get);
  }

  /** The ids on the branch the sink commits to. */
  List<Long> ids() {
    return TestTables.ids(table, branch);
  }

  /** Whatever a case did on a branch, main never shows it. */
  @AfterEach
  void mainShowsNothingOfABranch() {
    if (table != null && !SnapshotRef.MAIN_BRANCH.equals(branch)) {
      assertThat(TestTables.ids(table, SnapshotRef.MAIN_BRANCH)).as("rows on main").isEmpty();
      assertThat(table.currentSnapshot()).as("main's current snapshot").isNull();
    }
  }

  void sendBatch(long fromId) {
    for (long id = fromId; id < fromId + 5; id++) {
      sink.execute(tuples.tuple(id, "eu", null, "p"));
    }
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void commitThatLandedDespiteAnUnknownStateIsAckedAndNotReplayed(SinkTaskTest.CatalogKind kind, String branch) {
    start(kind, branch);
    faults.inject(CommitFault.UNKNOWN_AFTER, 1);

    sendBatch(0);

    assertThat(faults.injected).hasValue(1);
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.failed).isEmpty();
    assertThat(TestTables.snapshots(table)).hasSize(1);
    assertThat(ids()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(TestTables.walEntries(table)).isEmpty();
    sink.close();
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void commitThatLandedDespiteAnUnknownStateIsFoundByItsIdWithoutARetry(SinkTaskTest.CatalogKind kind, String branch) {
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
  void commitRejectedBeforeItAppliedFailsTheBatchAndShowsNothing(SinkTaskTest.CatalogKind kind, String branch) {
    start(kind, branch);
    faults.inject(CommitFault.FAIL_BEFORE, 2); // the attempt and Iceberg's one retry

    sendBatch(0);

    assertThat(recorder.acked).isEmpty();
    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.errors).singleElement().isInstanceOf(CommitFailedException.class);
    assertThat(TestTables.snapshots(table)).isEmpty();
    assertThat(TestTables.walEntries(table)).isEmpty();

    // The replay goes through once the catalog accepts commits again.
    sendBatch(0);
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(ids()).containsExactly(0L, 1L, 2L, 3L, 4L);
    sink.close();
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void anUnreachableCatalogFailsTheBatch(SinkTaskTest.CatalogKind kind, String branch) {
    start(kind, branch);
    faults.inject(CommitFault.UNREACHABLE, 1);

    sendBatch(0);

    assertThat(recorder.acked).isEmpty();
    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.errors).singleElement().satisfies(e -> assertThat(e).hasMessageContaining("catalog unreachable"));
    assertThat(TestTables.snapshots(table)).isEmpty();
    // The outcome is unknown, so the entry stays for the next incarnation to settle and drop.
    List<Path> left = TestTables.walEntries(table);
    assertThat(left).hasSize(1);

    faults.clear();
    sendBatch(10);
    assertThat(recorder.ackedIds()).containsExactly(10L, 11L, 12L, 13L, 14L);
    sink.close();
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void whileTheCatalogIsDownNoBatchOpensAndEachTupleIsFailed(SinkTaskTest.CatalogKind kind, String branch) {
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
  void anAmbiguousCommitThatNeverLandedIsAppendedAgainUnderItsIdAndAcked(SinkTaskTest.CatalogKind kind, String branch) {
    start(kind, branch);
    faults.inject(CommitFault.UNKNOWN_NOT_APPLIED, 1);

    sendBatch(0);

    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.failed).isEmpty();
    assertThat(TestTables.snapshots(table)).singleElement()
        .satisfies(s -> assertThat(s.summary()).containsKey(org.apache.storm.iceberg.IcebergOptions.COMMIT_ID_PROPERTY));
    assertThat(ids()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(TestTables.walEntries(table)).isEmpty();
    sink.close();
  }

  @ParameterizedTest
  @MethodSource("catalogsAndBranches")
  void aCommitAppliedAfterTheFirstLookButBeforeTheRetryIsNotWrittenTwice(SinkTaskTest.CatalogKind kind, String branch) {
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
  void aStaleFirstAttemptArrivingAfterTheRetryIsRefusedByCompareAndSwap(SinkTaskTest.CatalogKind kind, String branch) {
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
  void anAmbiguousCommitStillUnsettledAfterTheLastRetryFailsTheBatch(SinkTaskTest.CatalogKind kind, String branch) {
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
  void aBatchFailedAfterAnAmbiguousCommitReportsTheAmbiguityWithEachRetrysErrorSuppressed(SinkTaskTest.CatalogKind kind, String branch) {
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
