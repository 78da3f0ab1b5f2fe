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

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.Faults.CommitFault;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.SteppedCommitThread;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * IcebergBolt's task commits off its executor thread (#21): the executor writes the next batch while
 * the last commits, commits land in seal order, a failed one fails only its batch, acks happen on
 * executor calls only, and at most max-pending-commits sealed batches wait.
 */
class CommitPipelineTest {
  @TempDir Path dir;
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples tuples = new Tuples(TestTables.FIELDS);
  final Faults faults = Faults.create();
  final AtomicLong clock = new AtomicLong(1_000_000);
  final MetricRegistry registry = new MetricRegistry();
  final SteppedCommitThread stepped = new SteppedCommitThread();
  Map<String, String> real;
  Table table;

  @BeforeEach
  void createTable() {
    real = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(real);
    if (catalog instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("db"));
    }
    // No conflict retries: one injected CommitFailedException fails its commit for good.
    table = catalog.createTable(SinkTaskTest.EVENTS, TestTables.SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.COMMIT_NUM_RETRIES, "0"));
  }

  @AfterEach
  void clearFaults() {
    faults.clear();
  }

  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(FaultInjectingCatalog.properties(real, faults))
        .withTable("db.events")
        .withCommitIntervalRecords(5);
  }

  TaskEnvironment environment() {
    return new TaskEnvironment(SinkTaskTest.TASK, recorder.collector(), clock::get, SinkMetrics.detached(registry, clock::get), Map.of());
  }

  SinkTask openStepped(int maxPending) {
    return SinkTasks.open(settings(options().withMaxPendingCommits(maxPending).build()), environment(), stepped);
  }

  void send(SinkTask sink, long fromId, long toIdExclusive) {
    for (long id = fromId; id < toIdExclusive; id++) {
      sink.execute(tuples.tuple(id, "eu", Instant.parse("2026-11-01T10:00:00Z"), "p" + id));
    }
  }

  @Test
  void theExecutorWritesTheNextBatchWhileTheLastCommitsAndAcksOnlyOnItsOwnCalls() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    faults.duringCommit = () -> {
      try {
        release.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    SinkTask sink = SinkTasks.openPipelined(settings(options().build()), environment());

    send(sink, 0, 9); // batch A seals at 5 and commits; 4 records of batch B are written meanwhile

    assertThat(faults.realCommits).as("A's commit is still held in the catalog").hasValue(0);
    assertThat(recorder.acked).isEmpty();
    release.countDown();
    Deadline.await(Duration.ofSeconds(20), () -> TestTables.snapshots(table).size() == 1, () -> "A's commit");
    assertThat(recorder.acked).as("acks wait for the executor thread's next call").isEmpty();
    tickUntil(sink, () -> !recorder.acked.isEmpty(), "A's acks");
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);

    send(sink, 9, 10); // B seals
    tickUntil(sink, () -> recorder.acked.size() == 10, "B's acks");
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    assertThat(TestTables.ids(table, TestTables.snapshots(table).get(0).snapshotId())).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L);
    sink.close();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void beyondMaxPendingCommitsTheExecutorWaitsForTheOldest(int maxPending) {
    SinkTask sink = openStepped(maxPending);

    send(sink, 0, 15); // three batches seal

    // Each seal beyond the bound waited for the oldest commit, which ran and was settled.
    assertThat(stepped.executorWaits).isEqualTo(3 - maxPending);
    assertThat(stepped.queued()).isEqualTo(maxPending);
    assertThat(recorder.ackedIds()).hasSize(5 * (3 - maxPending));
    stepped.runAll();
    sink.execute(tuples.tick());
    assertThat(recorder.ackedIds()).hasSize(15);
    assertThat(TestTables.snapshots(table)).hasSize(3);
    sink.close();
  }

  @Test
  void aFailedCommitFailsOnlyItsBatchAndTheNextStillLandsInSealOrder() {
    SinkTask sink = openStepped(2);
    send(sink, 0, 10); // A and B handed over, neither run
    faults.inject(CommitFault.FAIL_BEFORE, 1);

    stepped.runAll();
    sink.execute(tuples.tick());

    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.ackedIds()).containsExactly(5L, 6L, 7L, 8L, 9L);
    assertThat(recorder.calls).as("settled in seal order").containsSubsequence("fail", "ack");
    assertThat(TestTables.ids(table)).containsExactlyInAnyOrder(5L, 6L, 7L, 8L, 9L);
    assertThat(TestTables.walEntries(table)).isEmpty();
    sink.close();
  }

  @Test
  void theOldestPendingAgeCoversABatchWaitingToCommitAndATickSettlesIt() {
    SinkTask sink = openStepped(1);
    send(sink, 0, 5); // A sealed and handed over
    clock.addAndGet(7_000);
    send(sink, 5, 6); // B opens now

    assertThat(gauge("iceberg-oldest-pending-age-ms")).isEqualTo(7_000L);
    assertThat(gauge("iceberg-pending-data-files")).isEqualTo(1);
    stepped.runAll();
    assertThat(recorder.acked).as("a finished commit waits for the executor's next call").isEmpty();
    sink.execute(tuples.tick());
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(gauge("iceberg-oldest-pending-age-ms")).isEqualTo(0L);
    sink.close();
  }

  @Test
  void closingSettlesACommitThatEndedAndNeverStartsOneThatDidNot() {
    SinkTask sink = openStepped(2);
    send(sink, 0, 10); // A and B handed over
    stepped.runNext(); // A lands; the task stops before its next call

    sink.close();

    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.failedIds()).as("B's tuples time out and replay").isEmpty();
    assertThat(TestTables.ids(table)).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L);
    assertThat(TestTables.walEntries(table)).as("B's commit never wrote its WAL entry").isEmpty();
    assertThat(stepped.stopped).isTrue();
  }

  /**
   * Storm calls {@code cleanup}, and so {@code close}, on another thread than the executor's: Storm's
   * collector is not thread-safe, so a commit that ended is not settled from there. Its rows stay;
   * its tuples time out and replay.
   */
  @Test
  void closingFromAnotherThreadThanTheExecutorsAcksNothing() throws Exception {
    SinkTask sink = openStepped(2);
    send(sink, 0, 10); // A and B handed over
    stepped.runNext(); // A lands; the executor makes no further call

    Thread cleanup = new Thread(sink::close, "cleanup");
    cleanup.start();
    cleanup.join(20_000);

    assertThat(cleanup.isAlive()).isFalse();
    assertThat(recorder.calls).as("no ack or fail from cleanup's thread").isEmpty();
    assertThat(TestTables.ids(table)).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L);
    assertThat(TestTables.walEntries(table)).isEmpty();
    assertThat(stepped.stopped).isTrue();
  }

  /** Abandoned (cleanup gave up on a stuck call), the task acks nothing more, even a commit that landed. */
  @Test
  void anAbandonedTaskAcksNothingMoreOnItsNextCall() {
    SinkTask sink = openStepped(2);
    send(sink, 0, 10); // A and B handed over
    stepped.runNext(); // A lands

    sink.abandon();
    sink.execute(tuples.tick());

    assertThat(recorder.calls).isEmpty();
    assertThat(TestTables.ids(table)).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L);
    assertThat(stepped.stopped).as("B's commit never starts").isTrue();
  }

  @Test
  void aBatchThatWaitedForTheCommitThreadPastItsDeadlineIsFailedNotAppended() {
    TaskEnvironment withTimeout = new TaskEnvironment(SinkTaskTest.TASK, recorder.collector(), clock::get,
        SinkMetrics.detached(registry, clock::get), Map.of(org.apache.storm.Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 10));
    SinkTask sink = SinkTasks.open(
        settings(options().withMaxPendingCommits(2).withCommitDeadlineMarginMillis(2_000).build()), withTimeout, stepped);
    send(sink, 0, 5); // A sealed and handed over
    clock.addAndGet(8_000); // A's deadline (10 s timeout less 2 s) comes while it waits
    send(sink, 5, 10); // B sealed now

    stepped.runAll();
    sink.execute(tuples.tick());

    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.ackedIds()).containsExactly(5L, 6L, 7L, 8L, 9L);
    assertThat(registry.counter("iceberg-batches-expired").getCount()).isEqualTo(1);
    assertThat(TestTables.ids(table)).containsExactlyInAnyOrder(5L, 6L, 7L, 8L, 9L);
    sink.close();
  }

  /** Ticks the task, as Storm would, until {@code settled}: a commit's outcome reaches the executor at its next call. */
  private void tickUntil(SinkTask sink, java.util.function.BooleanSupplier settled, String what) throws InterruptedException {
    Deadline.await(Duration.ofSeconds(20), () -> {
      sink.execute(tuples.tick());
      return settled.getAsBoolean();
    }, () -> what);
  }

  private Object gauge(String name) {
    Gauge<?> gauge = registry.getGauges().get(name);
    return gauge.getValue();
  }
}
