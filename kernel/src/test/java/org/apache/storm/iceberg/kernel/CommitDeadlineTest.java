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
import org.apache.storm.iceberg.kernel.task.CommitterTask;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.Config;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.Faults.CommitFault;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * No batch is appended once its oldest tuple is older than the message timeout less the margin,
 * whatever Iceberg's own conflict retries or the settler's retries would still allow. The task's
 * clock is the test's: each commit attempt that reaches the catalog costs one second of it.
 */
class CommitDeadlineTest {
  static final int TIMEOUT_SECS = 10;
  static final long MARGIN_MILLIS = 2_000;

  @TempDir Path dir;
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples tuples = new Tuples(TestTables.FIELDS);
  final Faults faults = Faults.create();
  final AtomicLong clock = new AtomicLong(1_000_000);
  final MetricRegistry registry = new MetricRegistry();
  Map<String, String> real;
  Table table;

  void createTable(SinkTaskTest.CatalogKind kind) {
    real = kind == SinkTaskTest.CatalogKind.HADOOP ? TestCatalogs.hadoop(dir) : TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(real);
    if (catalog instanceof SupportsNamespaces) {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    }
    // The table lets Iceberg retry conflicts for far longer than the message timeout, as a table
    // shared with other writers may.
    table =
        catalog.createTable(
            TableIdentifier.of("db", "events"),
            TestTables.SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(
                TableProperties.COMMIT_NUM_RETRIES, "100",
                TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "1",
                TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "1"));
    faults.duringCommit = () -> clock.addAndGet(1_000);
  }

  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(FaultInjectingCatalog.properties(real, faults))
        .withTable("db.events")
        .withCommitIntervalRecords(5)
        .withCommitDeadlineMarginMillis(MARGIN_MILLIS);
  }

  TaskEnvironment environment() {
    return new TaskEnvironment(
        SinkTaskTest.TASK, recorder.collector(), clock::get, SinkMetrics.detached(registry, clock::get),
        Map.of(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, TIMEOUT_SECS));
  }

  void send(SinkTask sink, long fromId, int count) {
    for (long id = fromId; id < fromId + count; id++) {
      sink.execute(tuples.tuple(id, "eu", null, "p"));
    }
  }

  long expired() {
    return registry.counter("iceberg-batches-expired").getCount();
  }

  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void aCommitWhoseConflictsOutlastTheMessageTimeoutIsFailedNotAppendedLate(SinkTaskTest.CatalogKind kind) {
    createTable(kind);
    // Conflicting for 20 attempts of a second each: Iceberg would land it 20 s after the batch
    // opened, 10 s after Storm replayed its tuples.
    faults.inject(CommitFault.FAIL_BEFORE, 20);
    SinkTask sink = SinkTasks.open(settings(options().build()), environment());

    send(sink, 0, 5);

    assertThat(recorder.acked).isEmpty();
    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(TestTables.snapshots(table)).isEmpty();
    assertThat(TestTables.walEntries(table)).isEmpty();
    assertThat(expired()).isEqualTo(1);
    // The guard stopped Iceberg's retries at the deadline (8 s after the batch opened), not after 20.
    assertThat(faults.injected.get()).isBetween(7, 9);
    assertThat(recorder.errors).singleElement().satisfies(e -> assertThat(e.getMessage()).contains("commit deadline margin"));

    // Once the catalog accepts commits, the replay lands once. (It arrives well after the failed
    // commit: a tuple taken right after a commit counts as waiting since the commit began.)
    faults.clear();
    clock.addAndGet(60_000);
    send(sink, 0, 5);
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(TestTables.ids(table)).containsExactly(0L, 1L, 2L, 3L, 4L);
    sink.close();
  }

  @Test
  void theSettlersRetriesStopAtTheDeadline() {
    createTable(SinkTaskTest.CatalogKind.HADOOP);
    // Every answer is lost and nothing applied: without a deadline, the settler's ten retries would
    // land the batch on its fourth, 5 s after the message timeout.
    faults.inject(CommitFault.UNKNOWN_NOT_APPLIED, 4);
    SinkTask sink = SinkTasks.open(settings(options().withCommitRetries(10).withCommitRetryBackoffMillis(1).build()), environment());
    faults.duringCommit = () -> clock.addAndGet(3_000);

    send(sink, 0, 5);

    assertThat(recorder.acked).isEmpty();
    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(TestTables.snapshots(table)).isEmpty();
    assertThat(faults.injected.get()).as("attempts that reached the catalog").isEqualTo(3);
    // Unsettled, not expired: the first attempt's fate is open, so its WAL entry stays for the next start.
    assertThat(TestTables.walEntries(table)).hasSize(1);
    assertThat(registry.counter("iceberg-commit-failures").getCount()).isEqualTo(1);
    sink.close();
  }

  @Test
  void aBatchThatSealsAfterItsDeadlineIsFailedWithoutAnAttempt() {
    createTable(SinkTaskTest.CatalogKind.HADOOP);
    SinkTask sink = SinkTasks.open(settings(options().build()), environment());

    send(sink, 0, 4);
    clock.addAndGet(TIMEOUT_SECS * 1000L - MARGIN_MILLIS);
    send(sink, 4, 1);

    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(faults.realCommits).hasValue(0);
    assertThat(TestTables.snapshots(table)).isEmpty();
    assertThat(TestTables.walEntries(table)).isEmpty();
    assertThat(expired()).isEqualTo(1);

    // A batch sealed just before its deadline commits.
    send(sink, 10, 4);
    clock.addAndGet(TIMEOUT_SECS * 1000L - MARGIN_MILLIS - 1);
    send(sink, 14, 1);
    assertThat(recorder.ackedIds()).containsExactly(10L, 11L, 12L, 13L, 14L);
    assertThat(expired()).isEqualTo(1);
    sink.close();
  }

  @Test
  void theCommitterFailsOnlyTheDescriptorsWhoseBatchPassedItsDeadline() {
    createTable(SinkTaskTest.CatalogKind.HADOOP);
    faults.duringCommit = () -> {};
    RecordingCollector writerOut = new RecordingCollector();
    TaskEnvironment writerEnv =
        new TaskEnvironment(
            new TaskIdentity("topology", "iceberg-writer", 3, 0, 1), writerOut.collector(), clock::get,
            SinkMetrics.detached(new MetricRegistry(), clock::get), Map.of(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, TIMEOUT_SECS));
    SinkTask writer = SinkTasks.openWriter(settings(options().build()), writerEnv);
    send(writer, 0, 5);
    clock.addAndGet(5_000);
    send(writer, 5, 5);
    assertThat(writerOut.emitted).hasSize(2);
    CommitterTask committer =
        CommitterTask.open(settings(options().withGroupCommitMaxDataFiles(1_000).withGroupCommitIntervalMillis(4_000).build()), environment());
    Tuples descriptors = Tuples.from("iceberg-writer", IcebergWriterBolt.DESCRIPTOR_FIELD);
    committer.execute(descriptors.tuple(writerOut.emitted.get(0).values().get(0)));
    committer.execute(descriptors.tuple(writerOut.emitted.get(1).values().get(0)));

    // The first batch opened 8 s ago: past its deadline. The second opened 3 s ago.
    clock.addAndGet(4_000);
    committer.execute(descriptors.tick());

    assertThat(recorder.failed).hasSize(1);
    assertThat(recorder.acked).hasSize(1);
    assertThat(TestTables.ids(table)).containsExactly(5L, 6L, 7L, 8L, 9L);
    assertThat(expired()).isEqualTo(1);
    committer.close();
    writer.close();
  }

  @Test
  void aMarginThatLeavesNoTimeToCommitFailsWhenTheTaskStarts() {
    createTable(SinkTaskTest.CatalogKind.HADOOP);
    IcebergOptions options = options().withCommitDeadlineMarginMillis(TIMEOUT_SECS * 1000L).build();

    assertThatThrownBy(() -> SinkTasks.open(settings(options), environment()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "commit deadline margin 10000 ms is not below topology.message.timeout.secs (10 s): every batch would"
                + " pass its deadline before it could commit; lower withCommitDeadlineMarginMillis or raise the timeout");
  }

  @Test
  void aDescriptorOfTheFirstFormatIsStillReadTakingItsOldestTupleAsItsCreation() {
    createTable(SinkTaskTest.CatalogKind.HADOOP);
    String v1 =
        "{\"version\":1,\"id\":\"b\",\"table\":\"test.db.events\",\"component\":\"w\",\"task-index\":0,"
            + "\"created-at-ms\":42,\"files\":[]}";
    DataFilesCodec.Entry entry = DataFilesCodec.decode(v1.getBytes(StandardCharsets.UTF_8), "here", table.specs());
    assertThat(entry.oldestTupleMillis()).isEqualTo(42);
    assertThat(entry.files()).isEqualTo(List.of());
  }
}
