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

import com.codahale.metrics.MetricRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.DeadLetterFields;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.storm.iceberg.spi.InternalRowMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.tuple.ITuple;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A sink with a dead-letter stream: each {@link BadInputTest} case is emitted there, anchored to its
 * tuple, which is then acked, while the rest of the batch commits; the bound on the share of dead
 * letters; a stream nobody reads; and the split sink's writer.
 */
class DeadLetterStreamTest {
  static final String STREAM = "dead-letters";

  @TempDir Path dir;
  Map<String, String> catalogProperties;
  Table table;
  final RecordingCollector recorder = new RecordingCollector();
  final MetricRegistry registry = new MetricRegistry();
  final Tuples tuples = new Tuples(TestTables.FIELDS);

  @BeforeEach
  void createTable() {
    catalogProperties = TestCatalogs.hadoop(dir);
    var catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA,
        PartitionSpec.builderFor(TestTables.SCHEMA).identity("region").build());
  }

  IcebergOptions.Builder options(RecordMapper mapper) {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withRecordMapper(mapper).withDeadLetterStream(STREAM);
  }

  TaskEnvironment env() {
    return new TaskEnvironment(SinkTaskTest.TASK, recorder.collector(), System::currentTimeMillis,
        SinkMetrics.detached(registry, System::currentTimeMillis), Map.of());
  }

  /** Tuple {@code id}, bad as {@code badCase} says when {@code bad}. */
  Tuple event(long id, BadInputTest.Case badCase, boolean bad) {
    Object idValue = bad && badCase == BadInputTest.Case.MISSING_REQUIRED_FIELD ? null : id;
    Object payload = bad && badCase == BadInputTest.Case.WRONG_VALUE_TYPE ? (Object) 99 : "p" + id;
    return tuples.tuple(idValue, "eu", null, payload);
  }

  /**
   * Misbehaves as {@link BadInputTest}'s mappers do, in the way the tuple's region names (a {@link
   * BadInputTest.Case}); maps a tuple from a real region by field name.
   */
  static final class EveryCaseMapper implements InternalRowMapper {
    private final boolean internalRows;

    EveryCaseMapper(boolean internalRows) {
      this.internalRows = internalRows;
    }

    private static BadInputTest.Case caseOf(ITuple tuple) {
      String region = tuple.getStringByField("region");
      return Arrays.stream(BadInputTest.Case.values()).filter(c -> c.name().equals(region)).findFirst()
          .orElse(BadInputTest.Case.MAPPER_THROWS);
    }

    @Override
    public Record map(ITuple tuple, Schema schema) {
      return new BadInputTest.MisbehavingMapper(caseOf(tuple)).map(tuple, schema);
    }

    @Override
    public InternalRow mapInternal(ITuple tuple, Schema schema) {
      if (!internalRows) {
        throw new AssertionError("this mapper writes generic records only");
      }
      return new BadInputTest.MisbehavingInternalMapper(caseOf(tuple)).mapInternal(tuple, schema);
    }
  }

  @ParameterizedTest(name = "internal rows: {0}")
  @ValueSource(booleans = {false, true})
  void eachBadInputCaseGoesToTheStreamAnchoredThenAckedAndTheRestOfTheBatchCommits(boolean internalRows) {
    RecordMapper mapper = internalRows ? new EveryCaseMapper(true) : (RecordMapper) new EveryCaseMapper(false)::map;
    BadInputTest.Case[] cases = BadInputTest.Case.values();
    SinkTask sink = SinkTasks.open(settings(options(mapper).withCommitIntervalRecords(4).build()), env());

    // Good ids 0, 1, then every case (as a tuple 3 whose region names it), then good ids 4, 5.
    List<Tuple> bad = new ArrayList<>();
    sink.execute(tuples.tuple(0L, "eu", null, "p0"));
    sink.execute(tuples.tuple(1L, "us", null, "p1"));
    for (BadInputTest.Case badCase : cases) {
      Object id = badCase == BadInputTest.Case.MISSING_REQUIRED_FIELD ? null : 3L;
      Object payload = badCase == BadInputTest.Case.WRONG_VALUE_TYPE ? (Object) 99 : "p3";
      Tuple tuple = tuples.tuple(id, badCase.name(), null, payload);
      bad.add(tuple);
      sink.execute(tuple);
    }
    sink.execute(tuples.tuple(4L, "eu", null, "p4"));
    sink.execute(tuples.tuple(5L, "us", null, "p5"));
    sink.close();

    assertThat(recorder.failed).as("nothing failed").isEmpty();
    assertThat(recorder.errors).as("nothing reported: the dead letters say it").isEmpty();
    assertThat(recorder.emitted).hasSize(cases.length);
    for (int i = 0; i < cases.length; i++) {
      BadInputTest.Case badCase = cases[i];
      RecordingCollector.Emitted letter = recorder.emitted.get(i);
      assertThat(letter.stream()).as(badCase + ": stream").isEqualTo(STREAM);
      assertThat(letter.anchors()).as(badCase + ": anchors").containsExactly(bad.get(i));
      assertThat(letter.values()).hasSize(DeadLetterFields.fields().size());
      assertThat(value(letter, DeadLetterFields.VALUES)).isEqualTo(bad.get(i).getValues());
      assertThat(value(letter, DeadLetterFields.SOURCE_COMPONENT)).isEqualTo("events");
      assertThat(value(letter, DeadLetterFields.SOURCE_STREAM)).isEqualTo("default");
      assertThat(value(letter, DeadLetterFields.TABLE)).isEqualTo("test.db.events");
      assertThat(value(letter, DeadLetterFields.COLUMN)).as(badCase + ": column").isEqualTo(badCase.column());
      assertThat((String) value(letter, DeadLetterFields.ERROR)).as(badCase + ": error")
          .startsWith("Cannot map tuple to table test.db.events").contains(badCase.message).contains("component 'events'");
      // Each bad tuple is acked right after its dead letter is emitted: calls 2i and 2i + 1.
      assertThat(recorder.calls.subList(2 * i, 2 * i + 2)).containsExactly("emit", "ack");
      assertThat(recorder.acked.get(i)).isSameAs(bad.get(i));
    }
    assertThat(recorder.ackedIds()).hasSize(4 + cases.length);
    assertThat(TestTables.ids(table)).isEqualTo(List.of(0L, 1L, 4L, 5L));
    assertThat(registry.counter("iceberg-records-dead-lettered").getCount()).isEqualTo(cases.length);
  }

  static Object value(RecordingCollector.Emitted letter, String field) {
    return letter.values().get(DeadLetterFields.fields().fieldIndex(field));
  }

  @Test
  void aboveTheMaxFractionTuplesAreFailedInsteadAndTheSinkSaysSoLoudlyOncePerWindow() {
    BadInputTest.Case badCase = BadInputTest.Case.WRONG_VALUE_TYPE;
    SinkTask sink = SinkTasks.open(settings(options(new BadInputTest.MisbehavingMapper(badCase))
        .withMaxDeadLetterFraction(0.2, 10).withCommitIntervalRecords(100).withTickIntervalSecs(1).build()), env());
    List<Long> badIds = new ArrayList<>();
    try (LogCapture log = new LogCapture()) {
      // Two windows of 10 tuples, the odd ids bad: 5 bad in each, 2 allowed.
      for (long id = 0; id < 20; id++) {
        boolean bad = id % 2 == 1;
        if (bad) {
          badIds.add(id);
        }
        sink.execute(event(id, badCase, bad));
      }
      sink.close();

      assertThat(recorder.emitted).extracting(e -> (Object) ((List<?>) value(e, DeadLetterFields.VALUES)).get(0))
          .containsExactly(1L, 3L, 11L, 13L);
      assertThat(recorder.failedIds()).containsExactly(5L, 7L, 9L, 15L, 17L, 19L);
      assertThat(registry.counter("iceberg-records-dead-lettered").getCount()).isEqualTo(4);
      assertThat(registry.counter("iceberg-dead-letter-limit-exceeded").getCount()).isEqualTo(6);
      List<String> loud = log.lines.stream().filter(l -> l.startsWith("ERROR More than 2 of 10 tuples")).toList();
      assertThat(loud).as("one error a window").hasSize(2)
          .allSatisfy(l -> assertThat(l).contains("withMaxDeadLetterFraction").contains("test.db.events"));
    }
    assertThat(recorder.errors).filteredOn(e -> e.getMessage().startsWith("More than 2 of 10 tuples")).hasSize(2);
  }

  @Test
  void aDeadLetterNobodySubscribedToIsNotAckedButFailed() {
    recorder.emitTargets = List.of();
    BadInputTest.Case badCase = BadInputTest.Case.MAPPER_THROWS;
    SinkTask sink = SinkTasks.open(settings(options(new BadInputTest.MisbehavingMapper(badCase))
        .withCommitIntervalRecords(3).build()), env());
    try (LogCapture log = new LogCapture()) {
      for (long id = 2; id < 5; id++) {
        sink.execute(event(id, badCase, id == 3));
      }
      sink.close();
      assertThat(log.lines).anyMatch(l -> l.startsWith("ERROR Dead-letter stream 'dead-letters' of the sink writing"
          + " test.db.events has no subscriber; failing the tuple instead"));
    }
    assertThat(recorder.failedIds()).containsExactly(3L);
    assertThat(recorder.ackedIds()).doesNotContain(3L);
    assertThat(registry.counter("iceberg-records-dead-lettered").getCount()).isZero();
  }

  @Test
  void theSplitSinksWriterDeadLettersTooAndItsDescriptorIsAnchoredToTheOthersOnly() {
    BadInputTest.Case badCase = BadInputTest.Case.MAPPER_RETURNS_WRONG_JAVA_TYPE;
    SinkTask writer = SinkTasks.openWriter(settings(options(new BadInputTest.MisbehavingMapper(badCase))
        .withCommitIntervalRecords(5).build()), env());
    List<Tuple> sent = new ArrayList<>();
    for (long id = 0; id < 6; id++) {
      Tuple tuple = event(id, badCase, id == 3);
      sent.add(tuple);
      writer.execute(tuple);
    }
    writer.close();

    assertThat(recorder.failed).isEmpty();
    assertThat(recorder.emitted).extracting(RecordingCollector.Emitted::stream).containsExactly(STREAM, "default");
    assertThat(recorder.emitted.get(0).anchors()).containsExactly(sent.get(3));
    assertThat(value(recorder.emitted.get(0), DeadLetterFields.COLUMN)).isEqualTo("payload");
    assertThat(recorder.emitted.get(1).anchors())
        .containsExactlyElementsOf(Arrays.asList(sent.get(0), sent.get(1), sent.get(2), sent.get(4), sent.get(5)));
    assertThat(recorder.ackedIds()).containsExactly(3L, 0L, 1L, 2L, 4L, 5L);
  }
}
