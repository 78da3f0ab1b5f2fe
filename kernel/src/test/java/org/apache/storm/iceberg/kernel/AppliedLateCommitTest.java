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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.Faults.CommitFault;
import org.apache.storm.iceberg.testing.LateCommits;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A commit answered at once with a generic error (a read timeout, a gateway's 524) and applied
 * later by the catalog, on another thread, as by a server that got the request and answers late.
 * Whenever it arrives, the batch must be in the table once: the settler looks, then retries under
 * the same commit id, so a late commit that arrives before the look is found, one that arrives
 * before the retry is seen by the retry's validator, and one that arrives after it is refused by
 * the catalog's compare-and-swap. The pinned cases also run (long tier) with the table on S3,
 * behind a JdbcCatalog and the REST catalog.
 */
class AppliedLateCommitTest {
  /** The settler's first wait before it retries: the timed late commits come before it or after. */
  static final long BACKOFF_MILLIS = 250;

  @TempDir Path dir;
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples tuples = new Tuples(TestTables.FIELDS);
  final Faults faults = Faults.create();
  Table table;
  SinkTask sink;
  TestCatalogs.Running running;

  void start(TestCatalogs.Kind kind) throws Exception {
    if (kind.onS3()) {
      TestTiers.longTierOnly("on S3, ObjectStorageSinkTest commits a batch in the quick tier");
    }
    running = TestCatalogs.start(kind, dir);
    Map<String, String> real = running.properties();
    Catalog catalog = TestCatalogs.load(real);
    if (catalog instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("db"));
    }
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.COMMIT_NUM_RETRIES, "1"));
    IcebergOptions options = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(FaultInjectingCatalog.properties(real, faults))
        .withTable("db.events")
        .withCommitIntervalRecords(5)
        .withCommitRetries(3)
        .withCommitRetryBackoffMillis(BACKOFF_MILLIS)
        .build();
    sink = SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector(), () -> 1_000_000L);
  }

  @org.junit.jupiter.api.AfterEach
  void stopCatalog() throws Exception {
    if (running != null) {
      running.close();
    }
  }

  void send(List<Long> ids) {
    ids.forEach(id -> sink.execute(tuples.tuple(id, "eu", null, "payload-" + id)));
  }

  @ParameterizedTest(name = "{0}, {2}, applied {1} ms after it")
  @CsvSource({
    "HADOOP, 20, READ_TIMEOUT", "HADOOP, 60, GATEWAY_524", "HADOOP, 600, READ_TIMEOUT", "HADOOP, 900, GATEWAY_524",
    "JDBC_SQLITE, 20, GATEWAY_524", "JDBC_SQLITE, 60, READ_TIMEOUT", "JDBC_SQLITE, 600, GATEWAY_524",
    "JDBC_SQLITE, 900, READ_TIMEOUT"
  })
  void aCommitAnsweredWithAGenericErrorAndAppliedLateIsInTheTableOnce(
      TestCatalogs.Kind kind, long delayMillis, LateCommits.Answer answer) throws Exception {
    start(kind);
    faults.late.delayMillis = delayMillis;
    faults.late.answer = answer;
    faults.inject(CommitFault.ERROR_APPLIED_LATE, 1);

    send(List.of(0L, 1L, 2L, 3L, 4L));
    faults.late.await(Duration.ofSeconds(10));
    replayWhatFailed();

    assertOnceAndAcked();
    // Which came first, the late commit or the retry, is the machine's to decide here (the pinned
    // cases below decide it); either way the late commit reached the catalog and was judged.
    assertThat(faults.late.applied.get() + faults.late.refused.get()).isEqualTo(1);
    sink.close();
  }

  /** When a late commit reaches the catalog, pinned to a catalog call rather than to the clock. */
  enum Moment {
    /** At the sink's look, the first refresh after the error: the look finds it. */
    AT_THE_LOOK(1, "INFO Commit %s to test.db.events reported java.io.UncheckedIOException"),
    /** At the retry's refresh, after the look: the retry's validator refuses. */
    BEFORE_THE_RETRY(2, "INFO Commit %s to test.db.events landed late, before its retry; acking"),
    /** After the retry landed: the catalog's compare-and-swap refuses it. */
    AFTER_THE_RETRY(Integer.MAX_VALUE, "INFO Commit %s to test.db.events landed on retry 1 after java.io.UncheckedIOException");

    final int afterCalls;
    final String settled;

    Moment(int afterCalls, String settled) {
      this.afterCalls = afterCalls;
      this.settled = settled;
    }
  }

  @ParameterizedTest(name = "{0}, applied {1}")
  @CsvSource({
    "HADOOP, AT_THE_LOOK", "HADOOP, BEFORE_THE_RETRY", "HADOOP, AFTER_THE_RETRY",
    "JDBC_SQLITE, AT_THE_LOOK", "JDBC_SQLITE, BEFORE_THE_RETRY", "JDBC_SQLITE, AFTER_THE_RETRY",
    "JDBC_SQLITE_ON_S3, AT_THE_LOOK", "JDBC_SQLITE_ON_S3, BEFORE_THE_RETRY", "JDBC_SQLITE_ON_S3, AFTER_THE_RETRY",
    "REST_ON_S3, AT_THE_LOOK", "REST_ON_S3, BEFORE_THE_RETRY", "REST_ON_S3, AFTER_THE_RETRY"
  })
  void aLateCommitIsSettledByTheLookTheRetrysValidatorOrCompareAndSwap(TestCatalogs.Kind kind, Moment moment)
      throws Exception {
    start(kind);
    faults.late.afterCalls = moment.afterCalls;
    faults.late.answer = LateCommits.Answer.READ_TIMEOUT;
    faults.inject(CommitFault.ERROR_APPLIED_LATE, 1);

    try (LogCapture logs = new LogCapture()) {
      send(List.of(0L, 1L, 2L, 3L, 4L));
      faults.late.applyWaitingNow();
      replayWhatFailed();

      String commitId = TestTables.snapshots(table).get(0).summary().get(IcebergOptions.COMMIT_ID_PROPERTY);
      String settled = String.format(moment.settled, commitId);
      assertThat(logs.lines).as("settled as pinned").anyMatch(line -> line.startsWith(settled));
    }
    assertOnceAndAcked();
    if (moment == Moment.AFTER_THE_RETRY) {
      assertThat(faults.late.refused).as("compare-and-swap refused the late commit").hasValue(1);
    } else {
      assertThat(faults.late.applied).as("the late commit landed").hasValue(1);
    }
    sink.close();
  }

  /**
   * The spout replays whatever was failed; it does so here after the late commit reached the
   * catalog, the worst moment for a batch failed too early.
   */
  void replayWhatFailed() {
    send(recorder.failed.stream().map(t -> t.getLongByField("id")).toList());
  }

  void assertOnceAndAcked() {
    assertThat(TestTables.ids(table)).as("every id once").containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(TestTables.snapshots(table)).hasSize(1);
    assertThat(recorder.failed).as("no tuple failed, so none replayed").isEmpty();
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(faults.late.failed).isEmpty();
    assertThat(TestTables.walEntryLocations(table)).isEmpty();
  }
}
