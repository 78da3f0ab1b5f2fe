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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.task.CommitterTask;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.spi.CommitEventFields;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit-event stream: one unanchored tuple per landed commit, from IcebergBolt's task and from
 * the split sink's committer, each describing exactly the snapshot the table holds for it.
 */
class CommitEventsTest {
  static final String STREAM = "iceberg-commits";

  @TempDir Path dir;
  final AtomicLong clock = new AtomicLong(1_000_000);
  final Tuples tuples = new Tuples(TestTables.FIELDS);
  final Tuples descriptors = Tuples.from("iceberg-writer", IcebergWriterBolt.DESCRIPTOR_FIELD);
  Map<String, String> catalogProperties;
  Table table;

  void start() {
    catalogProperties = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
  }

  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.events")
        .withCommitIntervalRecords(5)
        .withCommitEvents(STREAM);
  }

  void send(SinkTask sink, long from, long toExclusive) {
    for (long id = from; id < toExclusive; id++) {
      sink.execute(tuples.tuple(id, "eu", null, "p" + id));
    }
  }

  /** What the events of the table's snapshots must say, oldest first. */
  List<List<Object>> expectedEvents() {
    table.refresh();
    List<List<Object>> expected = new ArrayList<>();
    for (Snapshot snapshot : TestTables.snapshots(table)) {
      Map<String, String> summary = snapshot.summary();
      expected.add(List.of("db.events", snapshot.snapshotId(), snapshot.sequenceNumber(),
          Integer.parseInt(summary.get(SnapshotSummary.ADDED_FILES_PROP)), Long.parseLong(summary.get(SnapshotSummary.ADDED_FILE_SIZE_PROP)), 0));
    }
    return expected;
  }

  static List<List<Object>> events(RecordingCollector out) {
    List<List<Object>> events = new ArrayList<>();
    for (RecordingCollector.Emitted emitted : out.emitted) {
      if (emitted.stream().equals(STREAM)) {
        assertThat(emitted.anchors()).as("commit events are unanchored").isEmpty();
        assertThat(emitted.values()).hasSize(CommitEventFields.fields().size());
        assertThat((Long) emitted.values().get(6)).as(CommitEventFields.DURATION_MILLIS).isNotNegative();
        events.add(emitted.values().subList(0, 6));
      }
    }
    return events;
  }

  @Test
  void icebergBoltsTaskAnnouncesEachCommitWithItsSnapshot() {
    start();
    RecordingCollector out = new RecordingCollector();
    SinkTask sink = SinkTasks.open(settings(options().build()), new TaskIdentity("orders", "iceberg", 7, 0, 1), out.collector(), clock::get);
    send(sink, 0, 10);
    sink.close();

    assertThat(out.ackedIds()).hasSize(10);
    assertThat(events(out)).hasSize(2).isEqualTo(expectedEvents());
  }

  @Test
  void theSplitSinksCommitterAnnouncesEachGroupCommit() {
    start();
    List<Tuple> handed = new ArrayList<>();
    for (int writer = 0; writer < 2; writer++) {
      RecordingCollector writes = new RecordingCollector();
      SinkTask task = SinkTasks.openWriter(settings(options().build()), new TaskIdentity("orders", "iceberg-writer", 10 + writer, writer, 2),
          writes.collector(), clock::get);
      send(task, writer * 100L, writer * 100L + 5);
      task.close();
      writes.emitted.forEach(e -> handed.add(descriptors.tuple(e.values().get(0))));
    }
    RecordingCollector out = new RecordingCollector();
    CommitterTask committer = CommitterTask.open(settings(options().withGroupCommitIntervalMillis(1_000).build()),
        new TaskIdentity("orders", "iceberg-committer", 1, 0, 1), out.collector(), clock::get);
    handed.forEach(committer::execute);
    clock.addAndGet(1_000);
    committer.execute(descriptors.tick());

    assertThat(out.acked).containsExactlyElementsOf(handed);
    assertThat(events(out)).singleElement().isEqualTo(expectedEvents().get(0));
    assertThat(events(out).get(0).get(3)).as("both writers' files in one group commit").isEqualTo(2);
  }

  @Test
  void noStreamNoEvents() {
    start();
    RecordingCollector out = new RecordingCollector();
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withCommitIntervalRecords(5).build();
    SinkTask sink = SinkTasks.open(settings(options), new TaskIdentity("orders", "iceberg", 7, 0, 1), out.collector(), clock::get);
    send(sink, 0, 5);
    sink.close();
    assertThat(out.acked).hasSize(5);
    assertThat(out.emitted).isEmpty();
  }

  @Test
  void aStreamOfAnotherPurposeIsRefusedAtBuild() {
    start();
    assertThatThrownBy(() -> options().withDeadLetterStream(STREAM).build())
        .hasMessage("withCommitEvents: stream 'iceberg-commits' is also the dead-letter stream; give the commit events a"
            + " stream of their own, e.g. \"iceberg-commits\"");
    assertThatThrownBy(() -> options().withCommitEvents("default").build())
        .hasMessageStartingWith("withCommitEvents needs a stream id of its own, not blank, not 'default'");
  }
}
