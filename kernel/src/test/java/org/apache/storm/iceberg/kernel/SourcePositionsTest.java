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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.Faults.CommitFault;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * IcebergBolt's tasks with source positions, on real catalogs: a record is written once however
 * often its tuple comes, the table's newest commit of the sink records every committed offset, and
 * what cannot be told apart from a duplicate is refused loudly, never skipped.
 */
class SourcePositionsTest {
  static final String[] FIELDS = {"id", "region", "event_time", "payload", "topic", "partition", "offset"};
  static final String POSITIONS = "storm.iceberg.source-positions";

  @TempDir Path dir;
  final AtomicLong clock = new AtomicLong(1_000_000);
  final Tuples tuples = new Tuples(FIELDS);
  final Faults faults = Faults.create();
  Map<String, String> catalogProperties;
  Table table;

  @AfterEach
  void forgetIdentities() {
    FieldPositions.IDENTITIES.clear();
  }

  void start(SinkTaskTest.CatalogKind kind) {
    Map<String, String> real = kind == SinkTaskTest.CatalogKind.HADOOP ? TestCatalogs.hadoop(dir) : TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(real);
    if (catalog instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("db"));
    }
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    catalogProperties = FaultInjectingCatalog.properties(real, faults);
  }

  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.events")
        .withCommitIntervalRecords(5)
        .withCommitRetryBackoffMillis(10)
        .withSourcePositions(new FieldPositions());
  }

  SinkTask open(IcebergOptions options, RecordingCollector recorder, int taskIndex) {
    return open(options, recorder, "orders", taskIndex);
  }

  /** A task of component "iceberg" of the topology named {@code topology}. */
  SinkTask open(IcebergOptions options, RecordingCollector recorder, String topology, int taskIndex) {
    return SinkTasks.open(settings(options), new TaskIdentity(topology, "iceberg", 7 + taskIndex, taskIndex, 2),
        recorder.collector(), clock::get);
  }

  String newestScope() {
    table.refresh();
    List<Snapshot> newestFirst = new ArrayList<>(TestTables.snapshots(table));
    Collections.reverse(newestFirst);
    return newestFirst.stream().filter(snapshot -> snapshot.summary().containsKey(POSITIONS))
        .map(snapshot -> snapshot.summary().get("storm.iceberg.positions-scope")).findFirst().orElse(null);
  }

  Tuple record(long offset) {
    return record(0, offset);
  }

  /** The record at {@code offset} of partition {@code partition} of topic "events"; its id is partition × 1000 + offset. */
  Tuple record(int partition, long offset) {
    return tuples.tuple(partition * 1000L + offset, "eu", null, "p" + offset, "events", partition, offset);
  }

  void send(SinkTask sink, int partition, long... offsets) {
    for (long offset : offsets) {
      sink.execute(record(partition, offset));
    }
  }

  static long[] offsets(long from, long toExclusive) {
    return LongStream.range(from, toExclusive).toArray();
  }

  List<Long> ids() {
    table.refresh();
    List<Long> ids = new ArrayList<>(TestTables.ids(table));
    Collections.sort(ids);
    return ids;
  }

  String newestPositions() {
    table.refresh();
    List<Snapshot> newestFirst = new ArrayList<>(TestTables.snapshots(table));
    Collections.reverse(newestFirst);
    for (Snapshot snapshot : newestFirst) {
      if (snapshot.summary().containsKey(POSITIONS)) {
        return snapshot.summary().get(POSITIONS);
      }
    }
    return null;
  }

  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void aCommittedOffsetIsAckedAndNotWrittenAgainEvenByANewIncarnation(SinkTaskTest.CatalogKind kind) {
    start(kind);
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options().build(), recorder, 0);
    send(sink, 0, offsets(0, 10));
    send(sink, 0, offsets(0, 10));
    SinkTask restarted = open(options().build(), recorder, 0);
    send(restarted, 0, offsets(0, 10));

    assertThat(ids()).isEqualTo(LongStream.range(0, 10).boxed().toList());
    assertThat(recorder.ackedIds()).hasSize(30);
    assertThat(recorder.failedIds()).isEmpty();
    assertThat(sink.metrics()).isNotNull();
    assertThat(newestPositions()).isEqualTo("events@id-1|0=0-9");
  }

  /**
   * Operators redeploy under versioned names: the sink is its WAL namespace and its sources, so a
   * renamed topology skips what its predecessor committed, and only another WAL namespace makes a
   * second, independent copy.
   */
  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void aTopologyRedeployedUnderANewNameSkipsWhatItsPredecessorCommitted(SinkTaskTest.CatalogKind kind) {
    start(kind);
    RecordingCollector recorder = new RecordingCollector();
    send(open(options().build(), recorder, "events-to-iceberg-v6", 0), 0, offsets(0, 10));
    send(open(options().build(), recorder, "events-to-iceberg-v7", 0), 0, offsets(0, 15));

    assertThat(ids()).isEqualTo(LongStream.range(0, 15).boxed().toList());
    assertThat(recorder.failedIds()).isEmpty();
    assertThat(newestPositions()).isEqualTo("events@id-1|0=0-14");
    assertThat(newestScope()).isEqualTo("default");

    send(open(options().withWalNamespace("second-copy").build(), recorder, "events-to-iceberg-v7", 0), 0, offsets(0, 5));
    assertThat(ids()).as("a second WAL namespace is a second, independent sink")
        .isEqualTo(LongStream.concat(LongStream.range(0, 15), LongStream.range(0, 5)).sorted().boxed().toList());
  }

  /**
   * A table whose positions an earlier build recorded under the scope naming the topology
   * ({@code <namespace>/<topology>}): the upgraded sink, under the same or a new topology name,
   * carries them forward and writes nothing twice.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"orders", "orders-v2"})
  void positionsAnEarlierBuildRecordedUnderTheTopologysNameCarryForward(String topologyAfterUpgrade) {
    start(SinkTaskTest.CatalogKind.JDBC_SQLITE);
    RecordingCollector recorder = new RecordingCollector();
    // The rows, written by an unrelated sink, then the earlier build's record of them.
    send(open(options().withWalNamespace("scratch").build(), recorder, "orders", 0), 0, offsets(0, 10));
    table.newFastAppend()
        .set(POSITIONS, "events@id-1|0=0-9")
        .set("storm.iceberg.positions-scope", "default/orders")
        .commit();

    send(open(options().build(), recorder, topologyAfterUpgrade, 0), 0, offsets(0, 15));

    assertThat(ids()).isEqualTo(LongStream.range(0, 15).boxed().toList());
    assertThat(newestPositions()).isEqualTo("events@id-1|0=0-14");
    assertThat(newestScope()).isEqualTo("default");
    assertThat(recorder.failedIds()).isEmpty();
  }

  @Test
  void aTupleWhoseOffsetTheOpenBatchHoldsIsHeldUnwrittenAndSettledWithIt() {
    start(SinkTaskTest.CatalogKind.HADOOP);
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options().build(), recorder, 0);
    send(sink, 0, 0, 1, 1, 2);
    // More refusals than Iceberg's own conflict retries: the batch fails.
    faults.inject(CommitFault.FAIL_BEFORE, 10);
    send(sink, 0, 3, 3, 4);
    faults.clear();

    assertThat(ids()).isEmpty();
    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 1L, 2L, 3L, 3L, 4L);

    send(sink, 0, 0, 1, 1, 2, 3, 4);
    assertThat(ids()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 1L, 2L, 3L, 4L);
  }

  @Test
  void anOffsetRetriedAfterLaterOnesLandedStillLands() {
    start(SinkTaskTest.CatalogKind.JDBC_SQLITE);
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options().build(), recorder, 0);
    send(sink, 0, 0, 1, 2, 3, 4);
    send(sink, 0, 6, 7, 8, 9, 10);
    assertThat(newestPositions()).isEqualTo("events@id-1|0=0-4,6-10");

    send(sink, 0, 5, 11, 12, 13, 14);

    assertThat(ids()).isEqualTo(LongStream.range(0, 15).boxed().toList());
    assertThat(newestPositions()).isEqualTo("events@id-1|0=0-14");
  }

  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void tasksCommittingConcurrentlyKeepEachOthersPositions(SinkTaskTest.CatalogKind kind) {
    start(kind);
    RecordingCollector first = new RecordingCollector();
    RecordingCollector second = new RecordingCollector();
    SinkTask a = open(options().build(), first, 0);
    SinkTask b = open(options().build(), second, 1);
    // Each commit of one task lands while the other task's batch is open on an older base.
    send(a, 0, 0, 1, 2);
    send(b, 1, 0, 1, 2);
    send(a, 0, 3, 4);
    send(b, 1, 3, 4);
    send(a, 0, offsets(5, 10));
    send(b, 1, offsets(5, 10));

    assertThat(newestPositions()).isEqualTo("events@id-1|0=0-9|1=0-9");
    assertThat(ids()).hasSize(20);
  }

  @Test
  void aBatchHoldingOffsetsAnotherTaskCommittedIsRefusedAndItsReplayWritesOnlyTheRest() {
    start(SinkTaskTest.CatalogKind.HADOOP);
    RecordingCollector first = new RecordingCollector();
    RecordingCollector second = new RecordingCollector();
    SinkTask a = open(options().build(), first, 0);
    SinkTask b = open(options().build(), second, 1);
    // Two tasks own partition 0 at once, as during a rebalance.
    send(b, 0, 3, 4);
    send(a, 0, 0, 1, 2, 3, 4);
    send(b, 0, 5, 6, 7);

    assertThat(second.failedIds()).containsExactly(3L, 4L, 5L, 6L, 7L);
    assertThat(second.errors).singleElement().asString()
        .contains("it holds events partition 0 offset 3, which the sink already committed");

    send(b, 0, 3, 4, 5, 6, 7, 8, 9);
    assertThat(ids()).isEqualTo(LongStream.range(0, 10).boxed().toList());
    assertThat(newestPositions()).isEqualTo("events@id-1|0=0-9");
  }

  @Test
  void aRecreatedTopicsOffsetsAreRefusedLoudlyNeverSkippedUnlessTheResetIsAccepted() {
    start(SinkTaskTest.CatalogKind.HADOOP);
    RecordingCollector recorder = new RecordingCollector();
    send(open(options().build(), recorder, 0), 0, offsets(0, 5));
    FieldPositions.IDENTITIES.put("events", "id-2");

    RecordingCollector refused = new RecordingCollector();
    SinkTask sink = open(options().build(), refused, 0);
    send(sink, 0, offsets(0, 5));
    assertThat(refused.failedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(refused.errors).first().asString().contains(
        "Source events changed identity (id-1 when the sink last committed to test.db.events, id-2 now)");
    assertThat(ids()).hasSize(5);

    RecordingCollector accepted = new RecordingCollector();
    SinkTask reset = open(options().withSourceResetAccepted(true).build(), accepted, 0);
    send(reset, 0, offsets(0, 5));
    assertThat(accepted.ackedIds()).hasSize(5);
    assertThat(ids()).containsExactly(0L, 0L, 1L, 1L, 2L, 2L, 3L, 3L, 4L, 4L);
    assertThat(newestPositions()).isEqualTo("events@id-2|0=0-4");
  }

  @ParameterizedTest
  @EnumSource(value = CommitFault.class, names = {"UNKNOWN_AFTER", "UNKNOWN_LANDS_LATE", "UNKNOWN_STALE_AFTER_RETRY", "FAIL_BEFORE"})
  void aReplayAfterAnyCommitFaultWritesEachOffsetOnce(CommitFault fault) {
    start(SinkTaskTest.CatalogKind.JDBC_SQLITE);
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options().build(), recorder, 0);
    faults.inject(fault, 1);
    send(sink, 0, offsets(0, 5));
    faults.clear();
    // The spout replays whatever it was not told is safe, and more.
    send(sink, 0, offsets(0, 10));

    assertThat(ids()).isEqualTo(LongStream.range(0, 10).boxed().toList());
  }

  @Test
  void aThousandPartitionsWithoutGapsTakeAboutTwentyFourBytesEachInTheSummary() {
    Positions positions = new Positions();
    for (int partition = 0; partition < 1000; partition++) {
      for (long offset = 0; offset < 3; offset++) {
        positions.add(new org.apache.storm.iceberg.spi.SourcePosition("events", partition, 123_456_000L + offset));
      }
    }
    String encoded = positions.encode();
    // "|123=123456000-123456002": a partition number and two nine-digit offsets.
    assertThat(encoded.length()).isBetween(23_000, 25_000);
    assertThat(Positions.decode(encoded).encode()).isEqualTo(encoded);
  }

  /** The descriptors a writer task emits for the given offsets of partition 0 (batches of 5). */
  List<Tuple> writerDescriptors(int taskIndex, long... offsets) {
    RecordingCollector out = new RecordingCollector();
    SinkTask writer = SinkTasks.openWriter(settings(options().build()),
        new TaskIdentity("orders", "iceberg-writer", 10 + taskIndex, taskIndex, 2), out.collector(), clock::get);
    send(writer, 0, offsets);
    writer.close();
    return out.emitted.stream().map(e -> descriptors.tuple(e.values().get(0))).toList();
  }

  final Tuples descriptors = Tuples.from("iceberg-writer", org.apache.storm.iceberg.IcebergWriterBolt.DESCRIPTOR_FIELD);

  @Test
  void theSplitSinksCommitterFailsADescriptorHoldingOffsetsAnotherWriterHoldsOrTheSinkCommitted() {
    start(SinkTaskTest.CatalogKind.HADOOP);
    RecordingCollector out = new RecordingCollector();
    org.apache.storm.iceberg.kernel.task.CommitterTask committer = org.apache.storm.iceberg.kernel.task.CommitterTask.open(
        settings(options().withGroupCommitIntervalMillis(1_000).build()),
        new TaskIdentity("orders", "iceberg-committer", 1, 0, 1), out.collector(), clock::get);
    List<Tuple> first = writerDescriptors(0, offsets(0, 5));
    List<Tuple> overlapping = writerDescriptors(1, offsets(3, 8));
    first.forEach(committer::execute);
    overlapping.forEach(committer::execute);
    clock.addAndGet(1_000);
    committer.execute(descriptors.tick());

    assertThat(out.acked).containsExactlyElementsOf(first);
    assertThat(out.failed).containsExactlyElementsOf(overlapping);
    assertThat(out.errors).singleElement().asString().contains("it holds events partition 0 offset 3");
    assertThat(newestPositions()).isEqualTo("events@id-1|0=0-4");

    // The writer's replay skips what is committed: only offsets 5 to 9 are written again.
    List<Tuple> replay = writerDescriptors(1, offsets(3, 10));
    replay.forEach(committer::execute);
    clock.addAndGet(1_000);
    committer.execute(descriptors.tick());
    assertThat(ids()).isEqualTo(LongStream.range(0, 10).boxed().toList());
    assertThat(newestPositions()).isEqualTo("events@id-1|0=0-9");
  }

  /**
   * Plain Iceberg expiry that takes the sink's token (and the history before the head) with it: the
   * restarted sink cannot tell it committed before, so it says what may have happened, once, and
   * counts it; a sink starting on a table whose history is whole says nothing.
   */
  @Test
  void aStartInAHistoryCutByExpiryWithNoPositionsWarnsThatTheTokenMayBeExpired() {
    start(SinkTaskTest.CatalogKind.HADOOP);
    com.codahale.metrics.MetricRegistry first = new com.codahale.metrics.MetricRegistry();
    send(openMeasured(first), 0, offsets(0, 10));
    assertThat(first.counter("iceberg-token-missing").getCount()).as("a history that is whole").isZero();
    table.newFastAppend().set("writer", "another-job").commit();
    table.expireSnapshots().expireOlderThan(System.currentTimeMillis() + 1).retainLast(1).commit();

    com.codahale.metrics.MetricRegistry restarted = new com.codahale.metrics.MetricRegistry();
    try (org.apache.storm.iceberg.testing.LogCapture logs = new org.apache.storm.iceberg.testing.LogCapture(
        "org.apache.storm.iceberg.kernel.task.Deduplication", org.apache.logging.log4j.Level.WARN)) {
      SinkTask sink = openMeasured(restarted);
      send(sink, 0, offsets(0, 10));
      send(sink, 0, offsets(10, 15));
      assertThat(logs.lines).filteredOn(line -> line.contains("No source positions")).as("warned once").singleElement().asString()
          .contains("No source positions of this sink in test.db.events, whose history ends at snapshot "
              + table.currentSnapshot().snapshotId())
          .contains("its token (its newest snapshot with positions) was expired with them");
    }
    assertThat(restarted.counter("iceberg-token-missing").getCount()).isEqualTo(1);
    assertThat(ids()).as("what the control shows: the replays written again").hasSize(25);
  }

  SinkTask openMeasured(com.codahale.metrics.MetricRegistry registry) {
    return SinkTasks.open(settings(options().build()), new org.apache.storm.iceberg.kernel.env.TaskEnvironment(
        new TaskIdentity("orders", "iceberg", 7, 0, 2), new RecordingCollector().collector(), clock::get,
        org.apache.storm.iceberg.kernel.metrics.SinkMetrics.detached(registry, clock::get), Map.of()));
  }
}
