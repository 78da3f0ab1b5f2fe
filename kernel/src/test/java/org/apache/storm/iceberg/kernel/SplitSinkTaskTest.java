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
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The split sink's two task halves, wired by hand, on a real HadoopCatalog table. */
class SplitSinkTaskTest {
  @TempDir Path dir;
  final AtomicLong clock = new AtomicLong(1_000_000);
  final Tuples events = new Tuples(TestTables.FIELDS);
  final Tuples descriptors = Tuples.from("iceberg-writer", IcebergWriterBolt.DESCRIPTOR_FIELD);
  final Faults faults = Faults.create();
  Map<String, String> catalogProperties;
  Table table;

  @BeforeEach
  void createTable() {
    catalogProperties = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table =
        catalog.createTable(
            TableIdentifier.of("db", "events"), TestTables.SCHEMA, TestTables.REGION_DAY,
            Map.of(TableProperties.COMMIT_NUM_RETRIES, "0"));
  }

  IcebergOptions.Builder options(Map<String, String> catalog) {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalog).withTable("db.events");
  }

  /** Writes {@code count} events through a writer task with index {@code taskIndex}; returns its descriptors. */
  List<String> writeBatch(int taskIndex, long firstId, int count) {
    RecordingCollector writerOut = new RecordingCollector();
    SinkTask writer =
        SinkTasks.openWriter(
            settings(options(catalogProperties).withCommitIntervalRecords(count).build()),
            new TaskIdentity("topology", "iceberg-writer", 10 + taskIndex, taskIndex, 4),
            writerOut.collector(),
            clock::get);
    for (long id = firstId; id < firstId + count; id++) {
      writer.execute(events.tuple(id, id % 2 == 0 ? "eu" : "us", Instant.parse("2026-11-01T10:00:00Z"), "p"));
    }
    writer.close();
    List<String> json = new ArrayList<>();
    writerOut.emitted.forEach(e -> json.add((String) e.values().get(0)));
    return json;
  }

  CommitterTask committer(RecordingCollector out, Map<String, String> catalog, int maxFiles) {
    return CommitterTask.open(
        settings(options(catalog).withGroupCommitIntervalMillis(5_000).withGroupCommitMaxDataFiles(maxFiles).build()),
        new TaskIdentity("topology", "iceberg-committer", 1, 0, 1),
        out.collector(),
        clock::get);
  }

  @Test
  void theWriterEmitsOneDescriptorAnchoredToTheWholeBatchThenAcksIt() {
    RecordingCollector out = new RecordingCollector();
    SinkTask writer =
        SinkTasks.openWriter(
            settings(options(catalogProperties).withCommitIntervalRecords(4).build()),
            new TaskIdentity("topology", "iceberg-writer", 10, 0, 1),
            out.collector(),
            clock::get);
    List<Tuple> batch = new ArrayList<>();
    for (long id = 0; id < 4; id++) {
      Tuple tuple = events.tuple(id, id % 2 == 0 ? "eu" : "us", Instant.parse("2026-11-01T10:00:00Z"), "p");
      batch.add(tuple);
      writer.execute(tuple);
    }

    assertThat(out.calls).containsExactly("emit", "ack", "ack", "ack", "ack");
    assertThat(out.emitted).singleElement().satisfies(e -> assertThat(e.anchors()).containsExactlyElementsOf(batch));
    assertThat(out.acked).containsExactlyElementsOf(batch);
    // Anchoring updates each anchor's ack value, so the acks must be of the very objects anchored to.
    List<Tuple> anchored = out.emitted.get(0).anchorsAsGiven();
    assertThat(out.ackedAsGiven).hasSize(4);
    for (int i = 0; i < 4; i++) {
      assertThat(out.ackedAsGiven.get(i)).isSameAs(anchored.get(i));
    }
    DataFilesCodec.Entry descriptor =
        DataFilesCodec.decode(((String) out.emitted.get(0).values().get(0)).getBytes(StandardCharsets.UTF_8), "test", table.specs());
    assertThat(descriptor.files()).hasSize(2).allSatisfy(f -> {
      assertThat(f.specId()).isEqualTo(table.spec().specId());
      assertThat(f.valueCounts()).containsEntry(1, 2L);
    });
    assertThat(descriptor.files()).extracting(f -> f.partition().get(0, String.class)).containsExactlyInAnyOrder("eu", "us");
    assertThat(TestTables.snapshots(table)).as("the writer commits nothing").isEmpty();
    assertThat(TestTables.walEntries(table)).as("the writer writes no WAL").isEmpty();
    writer.close();
  }

  @Test
  void aWriterWhoseDescriptorsReachNoCommitterFailsTheBatchInsteadOfAckingIt() {
    RecordingCollector out = new RecordingCollector();
    out.emitTargets = List.of();
    SinkTask writer =
        SinkTasks.openWriter(
            settings(options(catalogProperties).withCommitIntervalRecords(2).build()),
            new TaskIdentity("topology", "iceberg-writer", 10, 0, 1),
            out.collector(),
            clock::get);
    writer.execute(events.tuple(1L, "eu", null, "p"));
    writer.execute(events.tuple(2L, "eu", null, "p"));

    assertThat(out.acked).isEmpty();
    assertThat(out.failedIds()).containsExactly(1L, 2L);
    assertThat(out.errors).singleElement().satisfies(e -> assertThat(e).hasMessage(
        "IcebergWriterBolt 'iceberg-writer' has no subscriber on its default stream: connect an IcebergCommitterBolt to it with globalGrouping"));
    writer.close();
  }

  @Test
  void theCommitterCommitsDescriptorsOfSeveralWritersInOneAppendAndAcksThem() {
    List<String> fromWriter0 = writeBatch(0, 0, 10);
    List<String> fromWriter3 = writeBatch(3, 10, 10);
    RecordingCollector out = new RecordingCollector();
    CommitterTask committer = committer(out, catalogProperties, 1_000);

    Tuple first = descriptors.tuple(fromWriter0.get(0));
    Tuple second = descriptors.tuple(fromWriter3.get(0));
    committer.execute(first);
    committer.execute(second);
    committer.execute(descriptors.tick());
    assertThat(out.acked).isEmpty();

    clock.addAndGet(5_000);
    committer.execute(descriptors.tick());

    assertThat(out.acked).containsExactly(first, second);
    List<Snapshot> snapshots = TestTables.snapshots(table);
    assertThat(snapshots).hasSize(1);
    assertThat(snapshots.get(0).summary())
        .containsEntry("added-data-files", "4")
        .containsEntry("storm.iceberg.writer-batches", "2")
        .containsEntry("storm.iceberg.writer-tasks", "0,3")
        .containsEntry("storm.iceberg.component", "iceberg-committer")
        .containsKey(IcebergOptions.COMMIT_ID_PROPERTY);
    assertThat(TestTables.ids(table)).hasSize(20);
    assertThat(TestTables.walEntries(table)).isEmpty();
    committer.close();
  }

  @Test
  void theCommitterCommitsOnceEnoughDataFilesArePending() {
    RecordingCollector out = new RecordingCollector();
    CommitterTask committer = committer(out, catalogProperties, 4);
    committer.execute(descriptors.tuple(writeBatch(0, 0, 10).get(0)));
    assertThat(out.acked).isEmpty();
    committer.execute(descriptors.tuple(writeBatch(1, 10, 10).get(0)));
    assertThat(out.acked).hasSize(2);
    assertThat(TestTables.snapshots(table)).hasSize(1);
    committer.close();
  }

  @Test
  void aDescriptorItCannotUseFailsAloneWithAClearError() {
    String good = writeBatch(0, 0, 10).get(0);
    RecordingCollector out = new RecordingCollector();
    CommitterTask committer = committer(out, catalogProperties, 1_000);

    Tuple corrupt = descriptors.tuple("{not json");
    Tuple futureVersion = descriptors.tuple(good.replace("\"version\":" + DataFilesCodec.VERSION, "\"version\":99"));
    Tuple unknownSpec = descriptors.tuple(good.replace("\"spec-id\":0", "\"spec-id\":42"));
    DataFilesCodec.Entry entry = DataFilesCodec.decode(good.getBytes(StandardCharsets.UTF_8), "test", table.specs());
    Tuple usable = descriptors.tuple(good);
    committer.execute(corrupt);
    committer.execute(futureVersion);
    committer.execute(unknownSpec);
    committer.execute(usable);
    clock.addAndGet(5_000);
    committer.execute(descriptors.tick());

    assertThat(out.failed).containsExactly(corrupt, futureVersion, unknownSpec);
    assertThat(out.acked).containsExactly(usable);
    assertThat(out.errors).extracting(Throwable::getMessage).satisfiesExactly(
        m -> assertThat(m).startsWith("Committer of test.db.events cannot use a descriptor: unrecognized version -1 or corrupt entry at descriptor from component 'iceberg-writer' task 1"),
        m -> assertThat(m).contains("unrecognized version 99 or corrupt entry at descriptor from component 'iceberg-writer'"),
        m -> assertThat(m).contains("holds a file of partition spec id 42, which the table does not have (its spec ids are [0])"));
    assertThat(TestTables.ids(table)).hasSize(10);
    committer.close();
  }

  @Test
  void aFailedAppendFailsEveryDescriptorOfTheGroup() {
    List<String> batches = new ArrayList<>();
    batches.addAll(writeBatch(0, 0, 10));
    batches.addAll(writeBatch(1, 10, 10));
    RecordingCollector out = new RecordingCollector();
    CommitterTask committer = committer(out, FaultInjectingCatalog.properties(catalogProperties, faults), 1_000);
    faults.inject(Faults.CommitFault.FAIL_BEFORE, 1);

    Tuple first = descriptors.tuple(batches.get(0));
    Tuple second = descriptors.tuple(batches.get(1));
    committer.execute(first);
    committer.execute(second);
    clock.addAndGet(5_000);
    committer.execute(descriptors.tick());

    assertThat(out.failed).containsExactly(first, second);
    assertThat(out.acked).isEmpty();
    assertThat(TestTables.snapshots(table)).isEmpty();
    committer.close();
  }
}
