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
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.mappers.FieldNameRecordMapper;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.storm.iceberg.spi.InternalRowMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.ITuple;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed tuples and misbehaving mappers in the middle of a batch: each bad tuple gets a clear
 * error; the rest of the batch is committed, or failed for replay, and nothing is lost.
 */
class BadInputTest {
  /** How tuple 3 of 6 goes wrong. */
  enum Case {
    MISSING_REQUIRED_FIELD("required column 'id' (long) has no value"),
    WRONG_VALUE_TYPE("column 'payload' expects string but got java.lang.Integer"),
    MAPPER_THROWS("mapper blew up on tuple 3"),
    MAPPER_RETURNS_NULL("returned null"),
    MAPPER_RETURNS_WRONG_PARTITION_TYPE("column 'region' (string) takes java.lang.CharSequence, got java.lang.Integer"),
    /** A record the file writer would refuse part-way through its row: refused before it is written. */
    MAPPER_RETURNS_WRONG_JAVA_TYPE("column 'payload' (string) takes java.lang.CharSequence, got java.lang.Integer");

    final String message;

    Case(String message) {
      this.message = message;
    }

    /** The column the error names, or null when no one column is to blame. */
    String column() {
      return switch (this) {
        case MISSING_REQUIRED_FIELD -> "id";
        case WRONG_VALUE_TYPE, MAPPER_RETURNS_WRONG_JAVA_TYPE -> "payload";
        case MAPPER_RETURNS_WRONG_PARTITION_TYPE -> "region";
        default -> null;
      };
    }
  }

  /**
   * What a misbehaving mapper does: maps by field name ({@code mapped}), except tuple 3, which it
   * gets wrong as the case says ({@code wrongPartition}: a row with an int where the string
   * partition source belongs; {@code wrongType}: the mapped row with an int where the string
   * payload belongs).
   */
  static <R> R mapOrMisbehave(
      Case badCase, ITuple tuple, Supplier<R> wrongPartition, Supplier<R> wrongType, Supplier<R> mapped) {
    Object id = tuple.getValueByField("id");
    if (Long.valueOf(3L).equals(id) || id == null) {
      switch (badCase) {
        case MAPPER_THROWS -> throw new IllegalStateException("mapper blew up on tuple 3");
        case MAPPER_RETURNS_NULL -> {
          return null;
        }
        case MAPPER_RETURNS_WRONG_PARTITION_TYPE -> {
          return wrongPartition.get();
        }
        case MAPPER_RETURNS_WRONG_JAVA_TYPE -> {
          return wrongType.get();
        }
        default -> { }
      }
    }
    return mapped.get();
  }

  /** Misbehaves with generic records, as a mapper written against {@link RecordMapper} alone. */
  static final class MisbehavingMapper implements RecordMapper {
    private final Case badCase;

    MisbehavingMapper(Case badCase) {
      this.badCase = badCase;
    }

    @Override
    public Record map(ITuple tuple, Schema schema) {
      return mapOrMisbehave(badCase, tuple, () -> {
        GenericRecord record = GenericRecord.create(schema);
        record.setField("id", 3L);
        record.setField("region", 42);
        return record;
      }, () -> {
        Record record = new FieldNameRecordMapper().map(tuple, schema);
        record.setField("payload", 99);
        return record;
      }, () -> new FieldNameRecordMapper().map(tuple, schema));
    }
  }

  /** Misbehaves with internal rows, which the kernel asks it for in a Parquet batch. */
  static final class MisbehavingInternalMapper implements InternalRowMapper {
    private final Case badCase;

    MisbehavingInternalMapper(Case badCase) {
      this.badCase = badCase;
    }

    @Override
    public Record map(ITuple tuple, Schema schema) {
      throw new AssertionError("a Parquet batch must ask for internal rows");
    }

    @Override
    public InternalRow mapInternal(ITuple tuple, Schema schema) {
      return mapOrMisbehave(badCase, tuple, () -> {
        InternalRow row = new InternalRow(schema.columns().size());
        row.set(0, 3L);
        row.set(schema.columns().indexOf(schema.findField("region")), 42);
        return row;
      }, () -> {
        InternalRow row = new FieldNameRecordMapper().mapInternal(tuple, schema);
        row.set(schema.columns().indexOf(schema.findField("payload")), 99);
        return row;
      }, () -> new FieldNameRecordMapper().mapInternal(tuple, schema));
    }
  }

  static Stream<Arguments> casesForEachRowModel() {
    return Arrays.stream(Case.values()).flatMap(c -> Stream.of(Arguments.of(c, false), Arguments.of(c, true)));
  }

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}, internal rows: {1}")
  @MethodSource("casesForEachRowModel")
  void aBadTupleFailsAloneWithAClearErrorAndTheBatchIsCommitted(Case badCase, boolean internalRows) {
    Map<String, String> catalogProperties = TestCatalogs.hadoop(dir);
    var catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    PartitionSpec byRegion = PartitionSpec.builderFor(TestTables.SCHEMA).identity("region").build();
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, byRegion);
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = SinkTasks.open(
        settings(new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
            .withTable("db.events")
            .withRecordMapper(internalRows ? new MisbehavingInternalMapper(badCase) : new MisbehavingMapper(badCase))
            .withCommitIntervalRecords(5).build()),
        SinkTaskTest.TASK, recorder.collector());
    Tuples tuples = new Tuples(TestTables.FIELDS);

    Tuple bad = null;
    for (long id = 0; id < 6; id++) {
      Object idValue = id == 3 && badCase == Case.MISSING_REQUIRED_FIELD ? null : id;
      Object payload = id == 3 && badCase == Case.WRONG_VALUE_TYPE ? (Object) 99 : "p" + id;
      Tuple tuple = tuples.tuple(idValue, "eu", null, payload);
      if (id == 3) {
        bad = tuple;
      }
      sink.execute(tuple);
    }

    assertThat(recorder.failed).containsExactly(bad);
    assertThat(recorder.errors).singleElement().satisfies(e -> assertThat(e.getMessage())
        .startsWith("Cannot map tuple to table test.db.events")
        .contains(badCase.message)
        .contains("component 'events'"));
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 4L, 5L);
    Set<Tuple> settled = new HashSet<>(recorder.acked);
    settled.addAll(recorder.failed);
    assertThat(settled).as("every tuple acked or failed: nothing lost").hasSize(6);
    assertThat(TestTables.ids(table)).isEqualTo(List.of(0L, 1L, 2L, 4L, 5L));
    sink.close();
  }
}
