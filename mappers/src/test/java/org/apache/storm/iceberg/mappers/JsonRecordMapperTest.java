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

package org.apache.storm.iceberg.mappers;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.junit.jupiter.api.Test;

class JsonRecordMapperTest {
  static final Types.StructType LEAF =
      Types.StructType.of(required(50, "x", Types.LongType.get()), optional(51, "at", Types.TimestampType.withZone()));
  static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "flag", Types.BooleanType.get()),
          optional(3, "count", Types.IntegerType.get()),
          optional(4, "ratio", Types.FloatType.get()),
          optional(5, "score", Types.DoubleType.get()),
          optional(6, "price", Types.DecimalType.of(9, 2)),
          optional(7, "name", Types.StringType.get()),
          optional(8, "key", Types.UUIDType.get()),
          optional(9, "day", Types.DateType.get()),
          optional(10, "clock", Types.TimeType.get()),
          optional(11, "local", Types.TimestampType.withoutZone()),
          optional(12, "at", Types.TimestampType.withZone()),
          optional(13, "blob", Types.BinaryType.get()),
          optional(14, "code", Types.FixedType.ofLength(2)),
          optional(
              15,
              "nested",
              Types.MapType.ofOptional(16, 17, Types.StringType.get(), Types.ListType.ofOptional(18, LEAF))),
          optional(19, "by_day", Types.MapType.ofOptional(20, 21, Types.DateType.get(), Types.IntegerType.get())));

  final JsonRecordMapper mapper = new JsonRecordMapper("value");

  Record map(String json) {
    return mapper.map(FieldNameRecordMapperTest.tuple(Map.of("value", json)), SCHEMA);
  }

  @Test
  void parsingIsDrivenByEachColumnsType() {
    Record record =
        map(
            """
            {"id": 7, "flag": true, "count": 3, "ratio": 0.5, "score": 2.25, "price": 12.3,
             "name": "héllo", "key": "f79c3e09-677c-4bbd-a479-3f349cb785e7", "day": "2026-11-01",
             "clock": "10:15:30", "local": "2026-11-01T10:15:30", "at": "2026-11-01T12:15:30+02:00",
             "blob": "AQID", "code": "AQI=", "by_day": {"2026-11-01": 4}, "ignored": [1, 2]}
            """);

    assertThat(record.getField("id")).isEqualTo(7L);
    assertThat(record.getField("flag")).isEqualTo(true);
    assertThat(record.getField("count")).isEqualTo(3);
    assertThat(record.getField("ratio")).isEqualTo(0.5f);
    assertThat(record.getField("score")).isEqualTo(2.25d);
    assertThat(record.getField("price")).isEqualTo(new BigDecimal("12.30"));
    assertThat(record.getField("name")).isEqualTo("héllo");
    assertThat(record.getField("key")).isEqualTo(UUID.fromString("f79c3e09-677c-4bbd-a479-3f349cb785e7"));
    assertThat(record.getField("day")).isEqualTo(LocalDate.of(2026, 11, 1));
    assertThat(record.getField("clock")).isEqualTo(LocalTime.of(10, 15, 30));
    assertThat(record.getField("local")).isEqualTo(LocalDateTime.of(2026, 11, 1, 10, 15, 30));
    assertThat(record.getField("at")).isEqualTo(OffsetDateTime.of(2026, 11, 1, 12, 15, 30, 0, ZoneOffset.ofHours(2)));
    assertThat(record.getField("blob")).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2, 3}));
    assertThat(record.getField("code")).isEqualTo(new byte[] {1, 2});
    assertThat(record.getField("by_day")).isEqualTo(Map.of(LocalDate.of(2026, 11, 1), 4));
  }

  @Test
  void aStructWithinAListWithinAMapIsMappedRecursively() {
    Record record = map("{\"id\": 1, \"nested\": {\"k\": [{\"x\": 5, \"at\": 1700000000123}, null]}}");
    @SuppressWarnings("unchecked")
    List<Record> leaves = ((Map<String, List<Record>>) record.getField("nested")).get("k");
    assertThat(leaves).hasSize(2);
    assertThat(leaves.get(0).getField("x")).isEqualTo(5L);
    assertThat(leaves.get(0).getField("at")).isEqualTo(OffsetDateTime.parse("2023-11-14T22:13:20.123Z"));
    assertThat(leaves.get(1)).isNull();

    assertThatThrownBy(() -> map("{\"id\": 1, \"nested\": {\"k\": [{\"at\": 0}]}}"))
        .hasMessage("required column 'nested.value.element.x' (long) has no value");
  }

  @Test
  void bytesPayloadsAreReadAsUtf8() {
    Record record =
        mapper.map(FieldNameRecordMapperTest.tuple(Map.of("value", "{\"id\": 9, \"name\": \"ø\"}".getBytes(StandardCharsets.UTF_8))), SCHEMA);
    assertThat(record.getField("name")).isEqualTo("ø");
  }

  @Test
  void refusedValuesNameTheColumnTheTypeAndWhatTheJsonHeld() {
    assertThatThrownBy(() -> map("{\"id\": \"7\"}"))
        .isInstanceOf(RecordMappingException.class)
        .hasMessage("column 'id' expects long but got JSON string (com.fasterxml.jackson.databind.node.TextNode)");
    assertThatThrownBy(() -> map("{\"id\": 1, \"count\": 3000000000}"))
        .hasMessage("column 'count' expects int but got java.lang.Long: value 3000000000 does not fit in an int");
    assertThatThrownBy(() -> map("{\"id\": 1, \"count\": 1.5}"))
        .hasMessage("column 'count' expects int but got JSON number (com.fasterxml.jackson.databind.node.DecimalNode)");
    assertThatThrownBy(() -> map("{\"id\": 1, \"price\": 1.234}"))
        .hasMessage("column 'price' expects decimal(9, 2) but got java.math.BigDecimal: 1.234 needs scale 3");
    assertThatThrownBy(() -> map("{\"id\": 1, \"at\": \"2026-11-01T10:15:30\"}"))
        .hasMessage("column 'at' expects timestamptz but got JSON string (com.fasterxml.jackson.databind.node.TextNode): '2026-11-01T10:15:30' is not ISO-8601 date-time with an offset");
    assertThatThrownBy(() -> map("{\"id\": 1, \"code\": \"AQID\"}"))
        .hasMessage("column 'code' expects fixed[2] but got [B: length 3 is not 2");
    assertThatThrownBy(() -> map("{\"id\": 1, \"nested\": {\"k\": {\"x\": 1}}}"))
        .hasMessage("column 'nested.value' expects list<struct<50: x: required long, 51: at: optional timestamptz>> but got JSON object (com.fasterxml.jackson.databind.node.ObjectNode)");
  }

  @Test
  void documentProblemsAreClear() {
    assertThatThrownBy(() -> map("{\"id\": "))
        .isInstanceOf(RecordMappingException.class)
        .hasMessageStartingWith("field 'value' is not valid JSON: ");
    assertThatThrownBy(() -> map("[1, 2]")).hasMessage("the JSON document in field 'value' is a ARRAY, not an object");
    assertThatThrownBy(() -> mapper.map(FieldNameRecordMapperTest.tuple(Map.of("payload", "{}")), SCHEMA))
        .hasMessage("the tuple has no field 'value' holding the JSON document; its fields are [payload]");
    assertThatThrownBy(() -> mapper.map(FieldNameRecordMapperTest.tuple(Map.of("value", 42)), SCHEMA))
        .hasMessage("field 'value' must hold a JSON document as String or byte[], got java.lang.Integer");
  }

  @Test
  void theFactoryTakesTheFieldName() {
    assertThat(new JsonRecordMapperFactory().create(Map.of())).isInstanceOf(JsonRecordMapper.class);
    Record record =
        new JsonRecordMapperFactory().create(Map.of("field", "payload"))
            .map(FieldNameRecordMapperTest.tuple(Map.of("payload", "{\"id\": 3}")), SCHEMA);
    assertThat(record.getField("id")).isEqualTo(3L);
  }

  /** Debezium's envelope: the row from after, or from before when after is null (a delete). */
  @Test
  void aRowPathReadsTheRowFromTheFirstMemberHoldingAnObject() {
    JsonRecordMapper envelope = (JsonRecordMapper) new JsonRecordMapperFactory().create(Map.of("row-path", "after,before"));
    Record updated = envelope.map(FieldNameRecordMapperTest.tuple(Map.of("value",
        "{\"before\": {\"id\": 1}, \"after\": {\"id\": 2, \"name\": \"b\"}, \"op\": \"u\"}")), SCHEMA);
    Record deleted = envelope.map(FieldNameRecordMapperTest.tuple(Map.of("value",
        "{\"before\": {\"id\": 1}, \"after\": null, \"op\": \"d\"}")), SCHEMA);

    assertThat(updated.getField("id")).isEqualTo(2L);
    assertThat(updated.getField("name")).isEqualTo("b");
    assertThat(deleted.getField("id")).isEqualTo(1L);
  }

  @Test
  void changeFieldsAreReadAtDottedPathsOfTheDocument() {
    org.apache.storm.tuple.Tuple tuple = FieldNameRecordMapperTest.tuple(Map.of("value",
        "{\"op\": \"c\", \"source\": {\"lsn\": 123456789012, \"db\": \"bank\"}, \"ratio\": 1.5}"));

    assertThat(mapper.read(tuple, "op")).isEqualTo("c");
    assertThat(mapper.read(tuple, "source.lsn")).isEqualTo(123_456_789_012L);
    assertThat(mapper.read(tuple, "ratio")).isEqualTo(new java.math.BigDecimal("1.5"));
    assertThat(mapper.read(tuple, "source.missing")).isNull();
  }

  /**
   * One tuple view whose payload changes between calls, as the partition grouping hands the mapper:
   * each call reads its own payload, never the document parsed for the one before.
   */
  @Test
  void aReusedTupleViewIsParsedAgainWhenItsPayloadChanges() {
    java.util.List<Object> values = new java.util.ArrayList<>(java.util.List.of("{\"id\": 1}"));
    org.apache.storm.tuple.Tuple view = new org.apache.storm.tuple.TupleImpl(
        FieldNameRecordMapperTest.tuple(Map.of("value", "{}")).getContext(), values, "src", 1, "default");

    assertThat(mapper.map(view, SCHEMA).getField("id")).isEqualTo(1L);
    values.set(0, "{\"id\": 2}");
    assertThat(mapper.map(view, SCHEMA).getField("id")).isEqualTo(2L);
  }
}
