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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.variants.Variant;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.junit.jupiter.api.Test;

/**
 * The format-version 3 types from tuples: nanosecond timestamps, variants, unknown columns and
 * write defaults, in both representations and through the JSON mapper.
 */
class V3TypesTest {
  static final Instant NANOS = Instant.parse("2026-11-01T10:15:30.123456789Z");
  static final long EPOCH_NANOS = 1_793_528_130_123_456_789L;

  static String bytes(Variant variant) {
    ByteBuffer buffer = ByteBuffer.allocate(variant.metadata().sizeInBytes() + variant.value().sizeInBytes()).order(ByteOrder.LITTLE_ENDIAN);
    variant.metadata().writeTo(buffer, 0);
    variant.value().writeTo(buffer, variant.metadata().sizeInBytes());
    return java.util.HexFormat.of().formatHex(buffer.array());
  }

  @Test
  void timestamptzNanosKeepsEveryNanosecondFromEachJavaForm() {
    Types.TimestampNanoType type = Types.TimestampNanoType.withZone();
    for (Object value : List.of(NANOS, NANOS.atOffset(ZoneOffset.ofHours(2)), NANOS.atZone(ZoneId.of("Asia/Kolkata")), EPOCH_NANOS)) {
      Object generic = IcebergValues.convert(type, value, "t");
      assertThat(((OffsetDateTime) generic).toInstant()).as("%s", value).isEqualTo(NANOS);
      assertThat(IcebergValues.convertInternal(type, value, "t")).as("%s", value).isEqualTo(EPOCH_NANOS);
    }
    assertThatThrownBy(() -> IcebergValues.convert(type, Instant.parse("2300-01-01T00:00:00Z"), "t"))
        .isInstanceOf(RecordMappingException.class)
        .hasMessage("column 't' expects timestamptz_ns but got java.time.Instant: 2300-01-01T00:00:00Z is beyond the"
            + " nanoseconds a long holds (1677 to 2262)");
    assertThatThrownBy(() -> IcebergValues.convertInternal(type, LocalDateTime.now(), "t"))
        .hasMessage("column 't' expects timestamptz_ns but got java.time.LocalDateTime");
  }

  @Test
  void timestampNanosWithoutZoneTakesLocalDateTimesAndEpochNanos() {
    Types.TimestampNanoType type = Types.TimestampNanoType.withoutZone();
    LocalDateTime local = LocalDateTime.ofInstant(NANOS, ZoneOffset.UTC);
    assertThat(IcebergValues.convert(type, local, "t")).isEqualTo(local);
    assertThat(IcebergValues.convert(type, EPOCH_NANOS, "t")).isEqualTo(local);
    assertThat(IcebergValues.convertInternal(type, local, "t")).isEqualTo(EPOCH_NANOS);
    assertThatThrownBy(() -> IcebergValues.convert(type, NANOS, "t"))
        .hasMessage("column 't' expects timestamp_ns but got java.time.Instant");
  }

  @Test
  void aVariantIsBuiltAlikeFromJsonTextAJacksonNodeAndAMapListTree() throws Exception {
    String json = "{\"zeta\":1,\"alpha\":[1,\"x\",null,true,2.5,{\"zeta\":\"n\",\"b\":false}],\"big\":12345678901}";
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("zeta", "n");
    inner.put("b", false);
    List<Object> alpha = new java.util.ArrayList<>(List.of(1, "x"));
    alpha.add(null);
    alpha.addAll(List.of(true, new java.math.BigDecimal("2.5"), inner));
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("zeta", 1);
    tree.put("alpha", alpha);
    tree.put("big", 12345678901L);

    for (Object value : List.of(json, new ObjectMapper().readTree(json), tree)) {
      Variant generic = (Variant) IcebergValues.convert(Types.VariantType.get(), value, "v");
      Variant internal = (Variant) IcebergValues.convertInternal(Types.VariantType.get(), value, "v");
      assertThat(bytes(generic)).as("%s", value.getClass()).isEqualTo(bytes((Variant) IcebergValues.convert(Types.VariantType.get(), json, "v")));
      assertThat(bytes(internal)).isEqualTo(bytes(generic));
    }
    Variant parsed = (Variant) IcebergValues.convert(Types.VariantType.get(), json, "v");
    assertThat(parsed.value().asObject().get("alpha").asArray().get(5).asObject().get("zeta").asPrimitive().get()).isEqualTo("n");
    assertThat(parsed.value().asObject().get("big").asPrimitive().get()).isEqualTo(12345678901L);

    assertThatThrownBy(() -> IcebergValues.convert(Types.VariantType.get(), "{not json", "v"))
        .isInstanceOf(RecordMappingException.class)
        .hasMessageStartingWith("column 'v' expects variant but got java.lang.String: not JSON (");
    assertThatThrownBy(() -> IcebergValues.convert(Types.VariantType.get(), 42, "v"))
        .hasMessage("column 'v' expects variant but got java.lang.Integer: a variant is given as JSON text, a Jackson node, or a"
            + " Map/List tree");
  }

  @Test
  void anUnknownColumnTakesNoValue() {
    assertThatThrownBy(() -> IcebergValues.convert(Types.UnknownType.get(), "x", "u"))
        .hasMessage("column 'u' expects unknown but got java.lang.String: a column of type unknown holds nulls only");
  }

  static final Schema WITH_DEFAULTS = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.required("region").withId(2).ofType(Types.StringType.get()).withWriteDefault(Literal.of("eu")).build(),
      Types.NestedField.optional("at").withId(3).ofType(Types.TimestampType.withZone())
          .withWriteDefault(Literal.of("2026-11-01T10:15:30.123456+00:00").to(Types.TimestampType.withZone())).build(),
      Types.NestedField.optional(4, "u", Types.UnknownType.get()));

  @Test
  void aTupleWithoutAFieldGetsItsColumnsWriteDefaultAndANullStaysNull() {
    FieldNameRecordMapper mapper = new FieldNameRecordMapper();
    Record lacking = mapper.map(FieldNameRecordMapperTest.tuple(Map.of("id", 1L)), WITH_DEFAULTS);
    assertThat(lacking.getField("region")).isEqualTo("eu");
    assertThat(lacking.getField("at")).isEqualTo(OffsetDateTime.parse("2026-11-01T10:15:30.123456Z"));
    assertThat(lacking.getField("u")).isNull();
    InternalRow internal = mapper.mapInternal(FieldNameRecordMapperTest.tuple(Map.of("id", 1L)), WITH_DEFAULTS);
    assertThat(internal.get(1, Object.class)).isEqualTo("eu");
    assertThat(internal.get(2, Object.class)).isEqualTo(1_793_528_130_123_456L);

    Map<String, Object> withNull = new LinkedHashMap<>();
    withNull.put("id", 2L);
    withNull.put("region", "us");
    withNull.put("at", null);
    Record explicit = mapper.map(FieldNameRecordMapperTest.tuple(withNull), WITH_DEFAULTS);
    assertThat(explicit.getField("region")).isEqualTo("us");
    assertThat(explicit.getField("at")).as("a field the tuple carries as null").isNull();
  }

  @Test
  void theJsonMapperReadsNanosecondTimestampsVariantsAndWriteDefaults() {
    Schema schema = new Schema(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "at", Types.TimestampNanoType.withZone()),
        Types.NestedField.optional(3, "local", Types.TimestampNanoType.withoutZone()),
        Types.NestedField.optional(4, "doc", Types.VariantType.get()),
        Types.NestedField.required("region").withId(5).ofType(Types.StringType.get()).withWriteDefault(Literal.of("eu")).build());
    JsonRecordMapper mapper = new JsonRecordMapper("value");
    Record record = mapper.map(FieldNameRecordMapperTest.tuple(Map.of("value",
        "{\"id\":1,\"at\":\"2026-11-01T12:15:30.123456789+02:00\",\"local\":" + EPOCH_NANOS + ",\"doc\":{\"k\":[1,2]}}")), schema);
    assertThat(((OffsetDateTime) record.getField("at")).toInstant()).isEqualTo(NANOS);
    assertThat(record.getField("local")).isEqualTo(LocalDateTime.ofInstant(NANOS, ZoneOffset.UTC));
    assertThat(((Variant) record.getField("doc")).value().asObject().get("k").asArray().numElements()).isEqualTo(2);
    assertThat(record.getField("region")).isEqualTo("eu");

    Schema withUnknown = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "u", Types.UnknownType.get()));
    assertThat(mapper.map(FieldNameRecordMapperTest.tuple(Map.of("value", "{\"id\":1}")), withUnknown).getField("u")).isNull();
    assertThatThrownBy(() -> mapper.map(FieldNameRecordMapperTest.tuple(Map.of("value", "{\"id\":1,\"u\":3}")), withUnknown))
        .hasMessageContaining("column 'u' expects unknown but got JSON number");
  }
}
