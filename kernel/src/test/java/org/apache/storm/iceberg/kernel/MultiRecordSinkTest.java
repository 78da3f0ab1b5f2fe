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

import com.codahale.metrics.MetricRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.storm.iceberg.DeadLetterFields;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.spi.MultiRecordMapper;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.Config;
import org.apache.storm.iceberg.TupleMappingException;
import org.apache.storm.iceberg.kernel.trident.TridentTask;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.trident.tuple.TridentTupleView;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.ITuple;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tuples that carry many records ({@code withMultiRecordMapper("json-array")}, a Kafka message
 * holding a JSON array): every record of a tuple lands in its tuple's commit, the tuple is acked once
 * after it, and a tuple with one bad record is failed or dead-lettered whole, none of its records
 * written. On a HadoopCatalog table partitioned by region, so one tuple's records span partitions.
 */
class MultiRecordSinkTest {
  static final String STREAM = "dead-letters";

  @TempDir Path dir;
  Map<String, String> catalogProperties;
  Table table;
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples tuples = new Tuples("value");

  @BeforeEach
  void createTable() {
    catalogProperties = TestCatalogs.hadoop(dir);
    var catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA,
        PartitionSpec.builderFor(TestTables.SCHEMA).identity("region").build());
  }

  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withMultiRecordMapper("json-array");
  }

  SinkTask open(IcebergOptions options) {
    return SinkTasks.open(settings(options), env());
  }

  TaskEnvironment env() {
    return new TaskEnvironment(SinkTaskTest.TASK, recorder.collector(), System::currentTimeMillis,
        SinkMetrics.detached(new MetricRegistry(), System::currentTimeMillis), Map.of());
  }

  /** One event of a JSON array: regions alternate, so a tuple's records fall in two partitions. */
  static String event(long id) {
    return "{\"id\": " + id + ", \"region\": \"" + (id % 2 == 0 ? "eu" : "us") + "\", \"payload\": \"p" + id + "\"}";
  }

  /** A tuple whose JSON array holds the events of {@code ids}. */
  Tuple carrying(long... ids) {
    return tuples.tuple(LongStream.of(ids).mapToObj(MultiRecordSinkTest::event).collect(Collectors.joining(", ", "[", "]")));
  }

  static List<Long> range(long from, long toExclusive) {
    return LongStream.range(from, toExclusive).boxed().collect(Collectors.toList());
  }

  @Test
  void everyRecordOfATupleIsCommittedWithItAndTheTupleIsAckedOnceAfterTheCommit() {
    SinkTask sink = open(options().withCommitIntervalRecords(4).build());
    Tuple first = carrying(0, 1, 2);
    Tuple second = carrying(3, 4, 5);
    Tuple third = carrying(6);

    sink.execute(first);
    assertThat(recorder.acked).as("3 records of 4: nothing sealed, nothing acked").isEmpty();
    assertThat(TestTables.snapshots(table)).isEmpty();
    sink.execute(second);
    assertThat(recorder.acked).as("the batch sealed past 4 records, at the end of the tuple").containsExactly(first, second);
    sink.execute(third);
    sink.sealNow();
    sink.close();

    List<Snapshot> snapshots = TestTables.snapshots(table);
    assertThat(snapshots).hasSize(2);
    assertThat(TestTables.ids(table, snapshots.get(0).snapshotId())).as("the first commit: both tuples whole")
        .containsExactlyElementsOf(range(0, 6));
    assertThat(snapshots.get(0).summary()).containsEntry("added-records", "6");
    assertThat(TestTables.ids(table)).containsExactlyElementsOf(range(0, 7));
    assertThat(recorder.acked).as("each tuple acked once").containsExactly(first, second, third);
    assertThat(recorder.failed).isEmpty();
    assertThat(recorder.errors).isEmpty();
  }

  @Test
  void aTupleWithOneBadRecordIsFailedWholeNamingTheTableColumnAndTypes() {
    SinkTask sink = open(options().withCommitIntervalRecords(100).build());
    Tuple good = carrying(0, 1);
    Tuple bad = tuples.tuple("[" + event(2) + ", {\"id\": \"three\", \"region\": \"eu\"}, " + event(4) + "]");

    sink.execute(good);
    sink.execute(bad);
    sink.sealNow();
    sink.close();

    assertThat(recorder.failed).containsExactly(bad);
    assertThat(recorder.acked).containsExactly(good);
    assertThat(TestTables.ids(table)).as("none of the bad tuple's records, not even the good ones").containsExactly(0L, 1L);
    assertThat(recorder.errors).singleElement().extracting(Throwable::getMessage).asString()
        .startsWith("Cannot map tuple to table test.db.events: element 1 of 3 in the JSON array in field 'value':"
            + " column 'id' expects long but got JSON string (com.fasterxml.jackson.databind.node.TextNode)"
            + " (tuple from component 'events', stream 'default', message id ")
        .endsWith("fields [value])");
  }

  /** Maps ids as the JSON mapper would, but puts an Integer in the long column of id 13, which the file writer would refuse. */
  static final class WrongClassForThirteen implements MultiRecordMapper {
    @Override
    public List<Record> mapAll(ITuple tuple, Schema schema) {
      List<Record> records = new ArrayList<>();
      for (String id : tuple.getStringByField("value").split(",")) {
        Record record = GenericRecord.create(schema);
        long value = Long.parseLong(id.trim());
        record.setField("id", value == 13 ? (Object) 13 : (Object) value);
        record.setField("region", "eu");
        records.add(record);
      }
      return records;
    }
  }

  @Test
  void aTupleTheFileWriterWouldRefuseInPartIsFailedWholeNamingTheRecord() {
    SinkTask sink = open(options().withMultiRecordMapper(new WrongClassForThirteen()).withCommitIntervalRecords(100).build());
    Tuple good = tuples.tuple("10, 11");
    Tuple bad = tuples.tuple("12, 13, 14");

    sink.execute(good);
    sink.execute(bad);
    sink.sealNow();
    sink.close();

    assertThat(recorder.failed).containsExactly(bad);
    assertThat(TestTables.ids(table)).as("record 12, before the refused one, is not written either").containsExactly(10L, 11L);
    assertThat(recorder.errors).singleElement().extracting(Throwable::getMessage).asString()
        .startsWith("Cannot map tuple to table test.db.events: record 1 of the tuple's 3: ")
        .contains("'id'").contains("java.lang.Integer");
  }

  @Test
  void withADeadLetterStreamABadTupleIsDeadLetteredWholeAndTheRestCommits() {
    SinkTask sink = open(options().withDeadLetterStream(STREAM).withCommitIntervalRecords(100).build());
    Tuple good = carrying(0, 1);
    Tuple bad = tuples.tuple("[" + event(2) + ", 42]");
    Tuple after = carrying(3);

    sink.execute(good);
    sink.execute(bad);
    sink.execute(after);
    sink.sealNow();
    sink.close();

    assertThat(recorder.failed).isEmpty();
    assertThat(recorder.emitted).singleElement().satisfies(letter -> {
      assertThat(letter.stream()).isEqualTo(STREAM);
      assertThat(letter.anchors()).containsExactly(bad);
      assertThat(letter.values().get(DeadLetterFields.fields().fieldIndex(DeadLetterFields.VALUES))).isEqualTo(bad.getValues());
      assertThat((String) letter.values().get(DeadLetterFields.fields().fieldIndex(DeadLetterFields.ERROR)))
          .startsWith("Cannot map tuple to table test.db.events: element 1 of the JSON array in field 'value' is a NUMBER,"
              + " not an object");
    });
    assertThat(recorder.acked).as("the dead-lettered tuple at once, the others after their commit").containsExactly(bad, good, after);
    assertThat(TestTables.ids(table)).containsExactly(0L, 1L, 3L);
  }

  @Test
  void aTupleWithNoRecordsIsAckedAtOnceAndCommitsNothing() {
    SinkTask sink = open(options().withCommitIntervalRecords(100).build());
    Tuple empty = tuples.tuple("[]");

    sink.execute(empty);

    assertThat(recorder.acked).containsExactly(empty);
    sink.sealNow();
    sink.close();
    assertThat(TestTables.snapshots(table)).isEmpty();
  }

  @Test
  void aTupleReplayedAtACommittedSourcePositionIsSkippedWhole() {
    Tuples kafka = new Tuples("value", "topic", "partition", "offset");
    String array = "[" + event(0) + ", " + event(1) + ", " + event(2) + "]";
    IcebergOptions options = options().withSourcePositions(new FieldPositions()).withCommitIntervalRecords(3).build();
    SinkTask sink = open(options);
    sink.execute(kafka.tuple(array, "events", 0, 40L));
    sink.close();
    assertThat(TestTables.ids(table)).containsExactly(0L, 1L, 2L);

    SinkTask restarted = open(options);
    Tuple replayed = kafka.tuple(array, "events", 0, 40L);
    restarted.execute(replayed);
    restarted.execute(kafka.tuple("[" + event(3) + ", " + event(4) + ", " + event(5) + "]", "events", 0, 41L));
    restarted.close();

    assertThat(recorder.acked).as("the replay acked as committed").contains(replayed);
    assertThat(TestTables.ids(table)).as("every record once").containsExactlyElementsOf(range(0, 6));
    assertThat(recorder.failed).isEmpty();
  }

  @Test
  void aTridentTransactionCommitsEveryRecordOfItsTuplesOnceAndABadRecordFailsItWhole() {
    MetricRegistry registry = new MetricRegistry();
    TridentTask task = TridentTask.openState(settings(options().withTridentStateType(StateType.TRANSACTIONAL).build()),
        Map.of(Config.TOPOLOGY_NAME, "orders"), SinkMetrics.detachedContext(registry), 0, 1, "0");
    TridentTupleView.FreshOutputFactory trident = new TridentTupleView.FreshOutputFactory(new Fields("value"));
    List<TridentTuple> first = List.of(trident.create(List.of(carrying(0, 1, 2).getString(0))),
        trident.create(List.of(carrying(3, 4).getString(0))));
    List<TridentTuple> bad = List.of(trident.create(List.of(carrying(5).getString(0))),
        trident.create(List.of("[" + event(6) + ", {\"id\": 7.5}]")));

    for (int attempt = 0; attempt < 2; attempt++) {
      task.transactions().begin(1L);
      if (task.transactions().wantsFiles()) {
        task.transactions().add(task.files().write(first));
      }
      task.transactions().commit(1L);
    }
    task.transactions().begin(2L);
    assertThatThrownBy(() -> task.files().write(bad)).isInstanceOf(TupleMappingException.class)
        .hasMessageStartingWith("Cannot map tuple to table test.db.events: element 1 of 2 in the JSON array in field 'value':"
            + " column 'id' expects long but got JSON number");

    assertThat(TestTables.ids(table)).as("txid 1 once, replay skipped; nothing of txid 2").containsExactlyElementsOf(range(0, 5));
    assertThat(TestTables.snapshots(table)).singleElement()
        .satisfies(s -> assertThat(s.summary()).containsEntry("added-records", "5"));
  }
}
