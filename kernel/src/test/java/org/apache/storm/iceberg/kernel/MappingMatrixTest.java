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
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The field-name mapper's whole conversion matrix, end to end: every accepted value goes through
 * IcebergBolt's task into a real table, in each file format, and is read back equal; every refused value fails its tuple
 * with an exact message naming the table, column, expected type, value class and tuple origin.
 */
class MappingMatrixTest {
  static final Types.StructType POINT =
      Types.StructType.of(optional(30, "a", Types.IntegerType.get()), optional(31, "b", Types.StringType.get()));
  static final Types.StructType LEAF = Types.StructType.of(required(40, "x", Types.LongType.get()));
  static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "c_boolean", Types.BooleanType.get()),
          optional(3, "c_int", Types.IntegerType.get()),
          optional(4, "c_long", Types.LongType.get()),
          optional(5, "c_float", Types.FloatType.get()),
          optional(6, "c_double", Types.DoubleType.get()),
          optional(7, "c_decimal", Types.DecimalType.of(9, 2)),
          optional(8, "c_string", Types.StringType.get()),
          optional(9, "c_uuid", Types.UUIDType.get()),
          optional(10, "c_date", Types.DateType.get()),
          optional(11, "c_time", Types.TimeType.get()),
          optional(12, "c_timestamp", Types.TimestampType.withoutZone()),
          optional(13, "c_timestamptz", Types.TimestampType.withZone()),
          optional(14, "c_binary", Types.BinaryType.get()),
          optional(15, "c_fixed", Types.FixedType.ofLength(4)),
          optional(16, "c_struct", POINT),
          optional(17, "c_list", Types.ListType.ofOptional(18, Types.IntegerType.get())),
          optional(19, "c_map", Types.MapType.ofOptional(20, 21, Types.StringType.get(), Types.IntegerType.get())),
          optional(
              22,
              "c_nested",
              Types.MapType.ofOptional(23, 24, Types.StringType.get(), Types.ListType.ofOptional(25, LEAF))));

  static final UUID A_UUID = UUID.fromString("f79c3e09-677c-4bbd-a479-3f349cb785e7");
  static final Instant INSTANT = Instant.parse("2026-11-01T10:15:30.123Z");
  static final OffsetDateTime UTC_TIME = INSTANT.atOffset(ZoneOffset.UTC);
  static final Instant MICROS_INSTANT = Instant.parse("2026-11-01T10:15:30.123456Z");

  record Accepted(String column, Object value, Object expected) {}

  record Refused(String column, Object value, String message) {}

  static List<Accepted> accepted() {
    Record point = GenericRecord.create(POINT);
    point.setField("a", 1);
    point.setField("b", "x");
    Record leaf = GenericRecord.create(LEAF);
    leaf.setField("x", 5L);
    byte[] uuidBytes = ByteBuffer.allocate(16).putLong(A_UUID.getMostSignificantBits()).putLong(A_UUID.getLeastSignificantBits()).array();
    return List.of(
        new Accepted("c_boolean", true, true),
        new Accepted("c_int", 7, 7),
        new Accepted("c_int", (short) 7, 7),
        new Accepted("c_int", (byte) 7, 7),
        new Accepted("c_int", 7L, 7),
        new Accepted("c_long", 7, 7L),
        new Accepted("c_long", (short) 7, 7L),
        new Accepted("c_long", (byte) 7, 7L),
        new Accepted("c_long", Long.MAX_VALUE, Long.MAX_VALUE),
        new Accepted("c_float", 1.5f, 1.5f),
        new Accepted("c_float", 16_777_216L, 16_777_216f),
        new Accepted("c_float", 3, 3f),
        new Accepted("c_double", 1.5d, 1.5d),
        new Accepted("c_double", 1.5f, 1.5d),
        new Accepted("c_double", 7, 7d),
        new Accepted("c_double", 7L, 7d),
        new Accepted("c_decimal", new BigDecimal("12.34"), new BigDecimal("12.34")),
        new Accepted("c_decimal", new BigDecimal("12.3"), new BigDecimal("12.30")),
        new Accepted("c_decimal", new BigDecimal("12.300"), new BigDecimal("12.30")),
        new Accepted("c_decimal", BigInteger.valueOf(12), new BigDecimal("12.00")),
        new Accepted("c_decimal", 12, new BigDecimal("12.00")),
        new Accepted("c_decimal", "-1234567.89", new BigDecimal("-1234567.89")),
        new Accepted("c_string", "héllo", "héllo"),
        new Accepted("c_string", new StringBuilder("built"), "built"),
        new Accepted("c_uuid", A_UUID, A_UUID),
        new Accepted("c_uuid", A_UUID.toString(), A_UUID),
        new Accepted("c_uuid", uuidBytes, A_UUID),
        new Accepted("c_date", LocalDate.of(2026, 11, 1), LocalDate.of(2026, 11, 1)),
        new Accepted("c_date", java.sql.Date.valueOf("2026-11-01"), LocalDate.of(2026, 11, 1)),
        new Accepted("c_date", 20_393, LocalDate.ofEpochDay(20_393)),
        new Accepted("c_time", LocalTime.of(10, 15, 30), LocalTime.of(10, 15, 30)),
        new Accepted("c_timestamp", LocalDateTime.of(2026, 11, 1, 10, 15), LocalDateTime.of(2026, 11, 1, 10, 15)),
        new Accepted("c_timestamptz", INSTANT, UTC_TIME),
        new Accepted("c_timestamptz", INSTANT.atOffset(ZoneOffset.ofHours(2)), UTC_TIME),
        new Accepted("c_timestamptz", INSTANT.atZone(ZoneId.of("America/New_York")), UTC_TIME),
        new Accepted("c_timestamptz", java.util.Date.from(INSTANT), UTC_TIME),
        new Accepted("c_timestamptz", INSTANT.toEpochMilli(), UTC_TIME),
        new Accepted("c_timestamptz", java.sql.Timestamp.from(MICROS_INSTANT), MICROS_INSTANT.atOffset(ZoneOffset.UTC)),
        new Accepted("c_binary", new byte[] {1, 2, 3}, ByteBuffer.wrap(new byte[] {1, 2, 3})),
        new Accepted("c_binary", ByteBuffer.wrap(new byte[] {4, 5}), ByteBuffer.wrap(new byte[] {4, 5})),
        new Accepted("c_fixed", new byte[] {1, 2, 3, 4}, new byte[] {1, 2, 3, 4}),
        new Accepted("c_struct", Map.of("a", 1, "b", "x"), point),
        new Accepted("c_list", List.of(1, 2), List.of(1, 2)),
        new Accepted("c_list", new Integer[] {1, 2}, List.of(1, 2)),
        new Accepted("c_list", new int[] {1, 2}, List.of(1, 2)),
        new Accepted("c_map", Map.of("k", 1), Map.of("k", 1)),
        new Accepted("c_nested", Map.of("k", List.of(Map.of("x", 5L))), Map.of("k", List.of(leaf))));
  }

  static List<Refused> refused() {
    return List.of(
        new Refused("c_boolean", "true", "column 'c_boolean' expects boolean but got java.lang.String"),
        new Refused("c_int", 3_000_000_000L, "column 'c_int' expects int but got java.lang.Long: value 3000000000 does not fit in an int"),
        new Refused("c_int", 7.0d, "column 'c_int' expects int but got java.lang.Double"),
        new Refused("c_long", "7", "column 'c_long' expects long but got java.lang.String"),
        new Refused("c_long", new BigDecimal("7"), "column 'c_long' expects long but got java.math.BigDecimal"),
        new Refused("c_float", 16_777_217L, "column 'c_float' expects float but got java.lang.Long: value 16777217 is not exactly a float"),
        new Refused("c_float", 1.5d, "column 'c_float' expects float but got java.lang.Double"),
        new Refused("c_double", "1.5", "column 'c_double' expects double but got java.lang.String"),
        new Refused("c_decimal", new BigDecimal("1.234"), "column 'c_decimal' expects decimal(9, 2) but got java.math.BigDecimal: 1.234 needs scale 3"),
        new Refused("c_decimal", new BigDecimal("12345678.9"), "column 'c_decimal' expects decimal(9, 2) but got java.math.BigDecimal: 12345678.9 needs precision 10"),
        new Refused("c_decimal", 1.5d, "column 'c_decimal' expects decimal(9, 2) but got java.lang.Double"),
        new Refused("c_decimal", "twelve", "column 'c_decimal' expects decimal(9, 2) but got java.lang.String: 'twelve' is not a decimal number"),
        new Refused("c_string", 7, "column 'c_string' expects string but got java.lang.Integer"),
        new Refused("c_uuid", "not-a-uuid", "column 'c_uuid' expects uuid but got java.lang.String: 'not-a-uuid' is not a UUID"),
        new Refused("c_uuid", new byte[3], "column 'c_uuid' expects uuid but got [B"),
        new Refused("c_date", "2026-11-01", "column 'c_date' expects date but got java.lang.String"),
        new Refused("c_time", "10:15", "column 'c_time' expects time but got java.lang.String"),
        new Refused("c_timestamp", INSTANT, "column 'c_timestamp' expects timestamp but got java.time.Instant"),
        new Refused("c_timestamptz", LocalDateTime.of(2026, 11, 1, 10, 15), "column 'c_timestamptz' expects timestamptz but got java.time.LocalDateTime"),
        new Refused("c_timestamptz", 1_700_000_000, "column 'c_timestamptz' expects timestamptz but got java.lang.Integer"),
        new Refused("c_timestamptz", Long.MAX_VALUE, "column 'c_timestamptz' expects timestamptz but got java.lang.Long: 9223372036854775807 ms from the epoch is beyond the microseconds a long holds"),
        new Refused("c_timestamptz", Instant.MAX, "column 'c_timestamptz' expects timestamptz but got java.time.Instant: +1000000000-12-31T23:59:59.999999999Z is beyond the microseconds a long holds"),
        new Refused("c_timestamptz", new java.util.Date(Long.MAX_VALUE), "column 'c_timestamptz' expects timestamptz but got java.util.Date: +292278994-08-17T07:12:55.807Z is beyond the microseconds a long holds"),
        new Refused("c_timestamp", LocalDateTime.MAX, "column 'c_timestamp' expects timestamp but got java.time.LocalDateTime: +999999999-12-31T23:59:59.999999999Z is beyond the microseconds a long holds"),
        new Refused("c_date", LocalDate.MAX, "column 'c_date' expects date but got java.time.LocalDate: +999999999-12-31 is beyond the days an int holds"),
        new Refused("c_binary", "AQID", "column 'c_binary' expects binary but got java.lang.String"),
        new Refused("c_fixed", new byte[3], "column 'c_fixed' expects fixed[4] but got [B: length 3 is not 4"),
        new Refused("c_struct", "x", /* the catalog reassigns field ids at create */ "column 'c_struct' expects struct<20: a: optional int, 21: b: optional string> but got java.lang.String"),
        new Refused("c_struct", Map.of("a", "one"), "column 'c_struct.a' expects int but got java.lang.String"),
        new Refused("c_list", "1,2", "column 'c_list' expects list<int> but got java.lang.String"),
        new Refused("c_list", List.of(1, "2"), "column 'c_list.element' expects int but got java.lang.String"),
        new Refused("c_map", List.of(1), "column 'c_map' expects map<string, int> but got java.util.ImmutableCollections$List12"),
        new Refused("c_nested", Map.of("k", List.of(Map.of("y", 5L))), "required field 'c_nested.value.element.x' (long) has no value"));
  }

  @TempDir Path dir;

  /**
   * Parquet batches are written as internal rows, Avro and ORC batches as generic records: the two
   * representations must accept, refuse and write exactly the same.
   */
  @ParameterizedTest
  @ValueSource(strings = {"parquet", "avro", "orc"})
  void everyAcceptedValueIsReadBackEqualAndEveryRefusedOneFailsWithAnExactMessage(String format) {
    Map<String, String> catalogProperties = TestCatalogs.hadoop(dir);
    var catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "matrix"), SCHEMA, PartitionSpec.unpartitioned());
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink =
        SinkTasks.open(
            settings(new IcebergOptions.Builder()
                .withCatalogName("test")
                .withCatalogProperties(catalogProperties)
                .withTable("db.matrix")
                .withCommitIntervalRecords(accepted().size())
                .withFileFormat(format)
                .build()),
            new TaskIdentity("topology", "iceberg", 1, 0, 1),
            recorder.collector());

    Map<String, Tuples> layouts = new HashMap<>();
    List<Tuple> refusedTuples = new ArrayList<>();
    long id = 0;
    for (Refused refused : refused()) {
      Tuple tuple = layouts.computeIfAbsent(refused.column(), c -> new Tuples("id", c)).tuple(id++, refused.value());
      refusedTuples.add(tuple);
      sink.execute(tuple);
    }
    for (Accepted accepted : accepted()) {
      sink.execute(layouts.computeIfAbsent(accepted.column(), c -> new Tuples("id", c)).tuple(id++, accepted.value()));
    }

    assertThat(recorder.failed).containsExactlyElementsOf(refusedTuples);
    List<String> messages = recorder.errors.stream().map(Throwable::getMessage).toList();
    for (int i = 0; i < refused().size(); i++) {
      Refused refused = refused().get(i);
      assertThat(messages.get(i))
          .as(refused.column() + " refusing " + refused.value().getClass().getName())
          .isEqualTo(
              "Cannot map tuple to table test.db.matrix: " + refused.message() + " (tuple from component 'events', stream 'default', message id "
                  + refusedTuples.get(i).getMessageId() + ", fields [id, " + refused.column() + "])");
    }

    assertThat(recorder.acked).hasSize(accepted().size());
    Map<Long, Record> rows = new HashMap<>();
    TestTables.rows(table).forEach(r -> rows.put((Long) r.getField("id"), r));
    long acceptedId = refused().size();
    for (Accepted accepted : accepted()) {
      Record row = rows.get(acceptedId++);
      assertThat(row.getField(accepted.column()))
          .as(accepted.column() + " from " + accepted.value().getClass().getName() + " in " + format)
          .isEqualTo(accepted.expected());
    }
    sink.close();
  }

  @Test
  void nullsAreNullForOptionalColumnsAndAnErrorForRequiredOnes() {
    Map<String, String> catalogProperties = TestCatalogs.hadoop(dir);
    var catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "matrix"), SCHEMA, PartitionSpec.unpartitioned());
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink =
        SinkTasks.open(
            settings(new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
                .withTable("db.matrix").withCommitIntervalRecords(1).build()),
            new TaskIdentity("topology", "iceberg", 1, 0, 1),
            recorder.collector());
    Tuples tuples = new Tuples("id", "c_string");
    sink.execute(tuples.tuple(1L, null));
    sink.execute(tuples.tuple(null, "x"));

    assertThat(recorder.acked).hasSize(1);
    assertThat(recorder.errors).singleElement().satisfies(e -> assertThat(e.getMessage())
        .startsWith("Cannot map tuple to table test.db.matrix: required column 'id' (long) has no value (tuple from"));
    assertThat(TestTables.rows(table)).singleElement().satisfies(r -> assertThat(r.getField("c_string")).isNull());
    sink.close();
  }

  @Test
  void theJsonMapperWritesADocumentOfEveryTypeToARealTable() {
    Map<String, String> catalogProperties = TestCatalogs.hadoop(dir);
    var catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "matrix"), SCHEMA, PartitionSpec.unpartitioned());
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink =
        SinkTasks.open(
            settings(new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
                .withTable("db.matrix").withRecordMapper("json", Map.of("field", "payload")).withCommitIntervalRecords(1).build()),
            new TaskIdentity("topology", "iceberg", 1, 0, 1),
            recorder.collector());

    sink.execute(new Tuples("payload").tuple(
        """
        {"id": 1, "c_boolean": true, "c_int": 7, "c_long": 9007199254740993, "c_float": 1.5, "c_double": 2.25,
         "c_decimal": 12.3, "c_string": "héllo", "c_uuid": "f79c3e09-677c-4bbd-a479-3f349cb785e7",
         "c_date": "2026-11-01", "c_time": "10:15:30", "c_timestamp": "2026-11-01T10:15",
         "c_timestamptz": "2026-11-01T12:15:30.123+02:00", "c_binary": "AQID", "c_fixed": "AQIDBA==",
         "c_struct": {"a": 1, "b": "x"}, "c_list": [1, 2], "c_map": {"k": 1},
         "c_nested": {"k": [{"x": 5}]}}
        """.getBytes(java.nio.charset.StandardCharsets.UTF_8)));

    assertThat(recorder.errors).isEmpty();
    Record row = TestTables.rows(table).get(0);
    assertThat(row.getField("c_long")).isEqualTo(9_007_199_254_740_993L);
    assertThat(row.getField("c_decimal")).isEqualTo(new BigDecimal("12.30"));
    assertThat(row.getField("c_uuid")).isEqualTo(A_UUID);
    assertThat(row.getField("c_timestamptz")).isEqualTo(UTC_TIME);
    assertThat(row.getField("c_timestamp")).isEqualTo(LocalDateTime.of(2026, 11, 1, 10, 15));
    assertThat(row.getField("c_binary")).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2, 3}));
    assertThat(row.getField("c_fixed")).isEqualTo(new byte[] {1, 2, 3, 4});
    assertThat(((Record) row.getField("c_struct")).getField("b")).isEqualTo("x");
    assertThat(row.getField("c_list")).isEqualTo(List.of(1, 2));
    assertThat(((Record) ((List<?>) ((Map<?, ?>) row.getField("c_nested")).get("k")).get(0)).getField("x")).isEqualTo(5L);
    sink.close();
  }
}
