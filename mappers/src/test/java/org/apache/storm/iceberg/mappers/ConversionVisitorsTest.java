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
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.mappers.IcebergValues.Conversion;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.junit.jupiter.api.Test;

/**
 * The conversions the two visitors build for a column: errors name each level of the column's path,
 * both representations accept and refuse the same values with the same messages, and one built
 * conversion serves every value of its column.
 */
class ConversionVisitorsTest {
  static final Type NESTED =
      Types.MapType.ofOptional(
          1, 2, Types.StringType.get(),
          Types.ListType.ofRequired(
              3,
              Types.StructType.of(
                  required(4, "x", Types.LongType.get()), optional(5, "at", Types.TimestampType.withZone()),
                  optional(6, "day", Types.DateType.get()))));

  static List<Conversion> bothRepresentations(Type type, String path) {
    return List.of(IcebergValues.conversion(type, path), IcebergValues.internalConversion(type, path));
  }

  @Test
  void errorsNameEachLevelOfTheColumnsPath() {
    for (Conversion conversion : bothRepresentations(NESTED, "m")) {
      assertThatThrownBy(() -> conversion.apply(Map.of("k", List.of(Map.of("at", 0L)))))
          .isInstanceOf(RecordMappingException.class)
          .hasMessage("required field 'm.value.element.x' (long) has no value")
          .extracting(e -> ((RecordMappingException) e).columnPath())
          .isEqualTo("m.value.element.x");
      assertThatThrownBy(() -> conversion.apply(Map.of("k", List.of(Map.of("x", "one")))))
          .hasMessage("column 'm.value.element.x' expects long but got java.lang.String");
      assertThatThrownBy(() -> conversion.apply(Map.of(7, List.of())))
          .hasMessage("column 'm.key' expects string but got java.lang.Integer");
      List<Object> withNull = new ArrayList<>();
      withNull.add(null);
      assertThatThrownBy(() -> conversion.apply(Map.of("k", withNull)))
          .hasMessage("list 'm.value' holds a null element");
      assertThatThrownBy(() -> conversion.apply("not a map")).hasMessageStartingWith("column 'm' expects map<string, list<struct<");
    }
  }

  @Test
  void bothRepresentationsAcceptAndRefuseTheSameValuesWithTheSameMessages() {
    Map<Type, List<Object>> candidates = new java.util.LinkedHashMap<>();
    Instant instant = Instant.parse("2026-11-01T10:15:30.123456Z");
    List<Object> everything =
        List.of(
            true, 7, (short) 7, 3_000_000_000L, 16_777_217L, 1.5f, 1.5d, new BigDecimal("1.234"), "12.5", "x",
            UUID.randomUUID(), new byte[] {1, 2}, ByteBuffer.wrap(new byte[] {1}), LocalDate.of(2026, 11, 1),
            LocalDate.MAX, LocalTime.NOON, LocalDateTime.of(2026, 11, 1, 10, 15), LocalDateTime.MAX, instant,
            instant.atOffset(ZoneOffset.ofHours(2)), instant.atZone(ZoneId.of("Asia/Kolkata")), Instant.MAX,
            java.sql.Timestamp.from(instant), java.sql.Date.valueOf("2026-11-01"), Long.MAX_VALUE, List.of(1), Map.of("a", 1),
            "{\"a\": [1, 2.5]}", com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("a", 1),
            Map.of(1, "a"));
    for (Type type :
        List.of(
            Types.BooleanType.get(), Types.IntegerType.get(), Types.LongType.get(), Types.FloatType.get(),
            Types.DoubleType.get(), Types.DecimalType.of(9, 2), Types.StringType.get(), Types.UUIDType.get(),
            Types.DateType.get(), Types.TimeType.get(), Types.TimestampType.withoutZone(), Types.TimestampType.withZone(),
            Types.BinaryType.get(), Types.FixedType.ofLength(2), Types.TimestampNanoType.withZone(),
            Types.TimestampNanoType.withoutZone(), Types.VariantType.get(), Types.UnknownType.get(),
            Types.StructType.of(optional(9, "a", Types.IntegerType.get())), Types.ListType.ofOptional(9, Types.LongType.get()))) {
      candidates.put(type, everything);
    }
    candidates.forEach(
        (type, values) -> {
          for (Object value : values) {
            String generic = outcome(IcebergValues.conversion(type, "c"), value);
            String internal = outcome(IcebergValues.internalConversion(type, "c"), value);
            assertThat(internal).as("%s of %s", type, value.getClass().getName()).isEqualTo(generic);
          }
        });
  }

  /** "accepted", or the refusal's message. */
  private static String outcome(Conversion conversion, Object value) {
    try {
      conversion.apply(value);
      return "accepted";
    } catch (RecordMappingException e) {
      return e.getMessage();
    }
  }

  @Test
  void theRepresentationsDifferOnlyInTheFormOfTemporalFixedAndStructValues() {
    Instant instant = Instant.parse("2026-11-01T10:15:30.123456Z");
    long micros = 1_793_528_130_123_456L;
    assertThat(IcebergValues.convert(Types.TimestampType.withZone(), instant, "c")).isEqualTo(instant.atOffset(ZoneOffset.UTC));
    assertThat(IcebergValues.convertInternal(Types.TimestampType.withZone(), instant, "c")).isEqualTo(micros);
    assertThat(IcebergValues.convertInternal(Types.TimestampType.withZone(), 1_793_528_130_123L, "c")).isEqualTo(1_793_528_130_123_000L);
    assertThat(IcebergValues.convertInternal(Types.DateType.get(), LocalDate.of(1970, 1, 11), "c")).isEqualTo(10);
    assertThat(IcebergValues.convert(Types.DateType.get(), 10, "c")).isEqualTo(LocalDate.of(1970, 1, 11));
    assertThat(IcebergValues.convertInternal(Types.TimeType.get(), LocalTime.of(0, 0, 1), "c")).isEqualTo(1_000_000L);
    assertThat(IcebergValues.convert(Types.FixedType.ofLength(2), new byte[] {1, 2}, "c")).isEqualTo(new byte[] {1, 2});
    assertThat(IcebergValues.convertInternal(Types.FixedType.ofLength(2), new byte[] {1, 2}, "c")).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2}));

    Map<String, Object> element = Map.of("x", 1, "at", instant, "day", LocalDate.of(1970, 1, 11));
    Object generic = IcebergValues.convert(NESTED, Map.of("k", List.of(element)), "m");
    Object internal = IcebergValues.convertInternal(NESTED, Map.of("k", List.of(element)), "m");
    Record record = (Record) ((Map<?, List<?>>) generic).get("k").get(0);
    assertThat(record.getField("x")).isEqualTo(1L);
    assertThat(record.getField("at")).isEqualTo(instant.atOffset(ZoneOffset.UTC));
    StructLike row = (StructLike) ((Map<?, List<?>>) internal).get("k").get(0);
    assertThat(row).isNotInstanceOf(Record.class);
    assertThat(row.get(0, Long.class)).isEqualTo(1L);
    assertThat(row.get(1, Long.class)).isEqualTo(micros);
    assertThat(row.get(2, Integer.class)).isEqualTo(10);
  }

  /** Each timestamptz column remembers its own last day: interleaved columns on different days stay exact. */
  @Test
  void oneBuiltConversionServesEveryValueOfItsColumn() {
    Conversion first = IcebergValues.conversion(Types.TimestampType.withZone(), "a");
    Conversion second = IcebergValues.conversion(Types.TimestampType.withZone(), "b");
    long day = 86_400_000L;
    for (long i = -2_000; i < 2_000; i++) {
      long millis = i * 37_000_123L;
      long elsewhere = 1_793_491_200_000L - millis * 3 + day / 2;
      assertThat(first.apply(millis)).isEqualTo(Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC));
      assertThat(second.apply(elsewhere)).isEqualTo(Instant.ofEpochMilli(elsewhere).atOffset(ZoneOffset.UTC));
      assertThat(first.apply(Instant.ofEpochMilli(elsewhere))).isEqualTo(OffsetDateTime.ofInstant(Instant.ofEpochMilli(elsewhere), ZoneOffset.UTC));
    }
  }
}
