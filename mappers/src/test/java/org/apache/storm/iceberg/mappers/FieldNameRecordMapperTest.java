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
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.iceberg.types.Types;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.junit.jupiter.api.Test;

class FieldNameRecordMapperTest {
  static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "count", Types.IntegerType.get()),
          optional(3, "at", Types.TimestampType.withZone()),
          optional(4, "day", Types.DateType.get()),
          optional(5, "price", Types.DecimalType.of(9, 2)),
          optional(6, "blob", Types.BinaryType.get()),
          optional(
              7,
              "address",
              Types.StructType.of(
                  optional(8, "city", Types.StringType.get()),
                  optional(9, "geo", Types.StructType.of(required(10, "lat", Types.DoubleType.get()))))),
          optional(11, "tags", Types.ListType.ofOptional(12, Types.StringType.get())));

  static Tuple tuple(Map<String, Object> values) {
    Fields fields = new Fields(List.copyOf(values.keySet()));
    GeneralTopologyContext context =
        new GeneralTopologyContext(
            new StormTopology(),
            new HashMap<>(),
            Map.of(1, "src"),
            Map.of("src", List.of(1)),
            Map.of("src", Map.of("default", fields)),
            "t-1");
    return new TupleImpl(context, Arrays.asList(values.values().toArray()), "src", 1, "default");
  }

  final FieldNameRecordMapper mapper = new FieldNameRecordMapper();

  @Test
  void mapsColumnsByNameConvertingToIcebergValues() {
    Map<String, Object> values = new java.util.LinkedHashMap<>();
    values.put("id", 7);
    values.put("count", (short) 3);
    values.put("at", 1_700_000_000_123L);
    values.put("day", 19_000);
    values.put("price", "12.5");
    values.put("blob", new byte[] {1, 2});
    values.put("address", Map.of("city", "Oslo", "geo", Map.of("lat", 59.9f)));
    values.put("tags", new String[] {"a", "b"});
    values.put("not-a-column", "ignored");

    Record record = mapper.map(tuple(values), SCHEMA);

    assertThat(record.getField("id")).isEqualTo(7L);
    assertThat(record.getField("count")).isEqualTo(3);
    assertThat(record.getField("at"))
        .isEqualTo(OffsetDateTime.ofInstant(Instant.ofEpochMilli(1_700_000_000_123L), ZoneOffset.UTC));
    assertThat(record.getField("day")).isEqualTo(LocalDate.ofEpochDay(19_000));
    assertThat(record.getField("price")).isEqualTo(new BigDecimal("12.50"));
    assertThat(record.getField("blob")).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2}));
    Record address = (Record) record.getField("address");
    assertThat(address.getField("city")).isEqualTo("Oslo");
    assertThat(((Record) address.getField("geo")).getField("lat")).isEqualTo((double) 59.9f);
    assertThat(record.getField("tags")).isEqualTo(List.of("a", "b"));
  }

  @Test
  void absentOptionalColumnsAreNullAndAbsentRequiredOnesAreAnError() {
    Record record = mapper.map(tuple(Map.of("id", 1L)), SCHEMA);
    assertThat(record.getField("count")).isNull();

    assertThatThrownBy(() -> mapper.map(tuple(Map.of("count", 1)), SCHEMA))
        .isInstanceOf(RecordMappingException.class)
        .hasMessage("required column 'id' (long) has no value");
  }

  @Test
  void errorsNameTheColumnPathTheTypeAndTheValueClass() {
    assertThatThrownBy(() -> mapper.map(tuple(Map.of("id", 1L, "count", 3_000_000_000L)), SCHEMA))
        .hasMessage("column 'count' expects int but got java.lang.Long: value 3000000000 does not fit in an int");
    assertThatThrownBy(() -> mapper.map(tuple(Map.of("id", 1L, "price", new BigDecimal("1.234"))), SCHEMA))
        .hasMessage("column 'price' expects decimal(9, 2) but got java.math.BigDecimal: 1.234 needs scale 3");
    assertThatThrownBy(
            () -> mapper.map(tuple(Map.of("id", 1L, "address", Map.of("geo", Map.of("lat", "north")))), SCHEMA))
        .isInstanceOf(RecordMappingException.class)
        .hasMessage("column 'address.geo.lat' expects double but got java.lang.String")
        .extracting(e -> ((RecordMappingException) e).columnPath())
        .isEqualTo("address.geo.lat");
  }

  @Test
  void caseInsensitiveMatchingIsAnOption() {
    Map<String, Object> values = Map.of("ID", 5L, "Count", 2);
    assertThatThrownBy(() -> mapper.map(tuple(values), SCHEMA))
        .as("exact matching does not see 'ID' as 'id'")
        .hasMessage("required column 'id' (long) has no value");

    Record record = new FieldNameRecordMapper(true, false).map(tuple(values), SCHEMA);
    assertThat(record.getField("id")).isEqualTo(5L);
    assertThat(record.getField("count")).isEqualTo(2);
  }

  @Test
  void strictModeRefusesATupleFieldWithNoColumn() {
    FieldNameRecordMapper strict = new FieldNameRecordMapper(false, true);
    assertThat(strict.map(tuple(Map.of("id", 1L, "count", 2)), SCHEMA).getField("count")).isEqualTo(2);
    assertThatThrownBy(() -> strict.map(tuple(Map.of("id", 1L, "colour", "red")), SCHEMA))
        .isInstanceOf(RecordMappingException.class)
        .hasMessage("tuple field 'colour' matches no column, and the mapper is strict")
        .extracting(e -> ((RecordMappingException) e).columnPath())
        .isEqualTo("colour");
  }

  @Test
  void aNewSchemaIsResolvedAgainSoAnAddedColumnIsFilled() {
    Schema before = new Schema(required(1, "id", Types.LongType.get()));
    Schema after = new Schema(required(1, "id", Types.LongType.get()), optional(2, "note", Types.StringType.get()));
    Tuple tuple = tuple(new java.util.LinkedHashMap<>(Map.of("id", 1L, "note", "hello")));

    assertThat(mapper.map(tuple, before).struct().fields()).hasSize(1);
    assertThat(mapper.map(tuple, after).getField("note")).isEqualTo("hello");
  }

  @Test
  void eachTupleFieldLayoutGetsItsOwnResolution() {
    Map<String, Object> first = new java.util.LinkedHashMap<>();
    first.put("id", 1L);
    first.put("count", 10);
    Map<String, Object> reordered = new java.util.LinkedHashMap<>();
    reordered.put("count", 20);
    reordered.put("id", 2L);
    assertThat(mapper.map(tuple(first), SCHEMA).getField("count")).isEqualTo(10);
    assertThat(mapper.map(tuple(reordered), SCHEMA).getField("count")).isEqualTo(20);
    assertThat(mapper.map(tuple(first), SCHEMA).getField("id")).isEqualTo(1L);
  }

  @Test
  void theFactoryReadsItsOptionsAndRefusesUnknownOnes() {
    FieldNameRecordMapperFactory factory = new FieldNameRecordMapperFactory();
    assertThat(factory.create(Map.of("case-insensitive", "true", "strict", "false"))).isInstanceOf(FieldNameRecordMapper.class);
    assertThatThrownBy(() -> factory.create(Map.of("strict", "yes")))
        .hasMessage("record mapper 'field-name': property 'strict' must be true or false, got 'yes'");
    assertThatThrownBy(() -> factory.create(Map.of("lenient", "true")))
        .hasMessage("record mapper 'field-name' does not know properties [lenient]; it takes [case-insensitive, strict]");
  }

  /** Tuples of one field layout, as one stream's tuples share their Fields in a worker. */
  static final class Stream {
    final Fields fields;
    final GeneralTopologyContext context;

    Stream(String... names) {
      fields = new Fields(names);
      context =
          new GeneralTopologyContext(
              new StormTopology(), new HashMap<>(), Map.of(1, "src"), Map.of("src", List.of(1)),
              Map.of("src", Map.of("default", fields)), "t-1");
    }

    Tuple tuple(Object... values) {
      return new TupleImpl(context, Arrays.asList(values), "src", 1, "default");
    }
  }

  @Test
  void eachTupleGetsARecordAndARowOfItsOwn() {
    Stream stream = new Stream("id", "count", "at");
    Record first = mapper.map(stream.tuple(1L, 5, 1_793_534_400_000L), SCHEMA);
    InternalRow firstRow = mapper.mapInternal(stream.tuple(1L, 5, 1_793_534_400_000L), SCHEMA);

    Record second = mapper.map(stream.tuple(2L, null, null), SCHEMA);
    InternalRow secondRow = mapper.mapInternal(stream.tuple(2L, null, null), SCHEMA);

    assertThat(second).isNotSameAs(first);
    assertThat(second.getField("id")).isEqualTo(2L);
    assertThat(second.getField("count")).isNull();
    assertThat(second.getField("at")).isNull();
    assertThat(first.getField("count")).as("the first record is untouched").isEqualTo(5);
    assertThat(secondRow).isNotSameAs(firstRow);
    assertThat(secondRow.get(1, Integer.class)).isNull();
    assertThat(firstRow.get(1, Integer.class)).as("the first row is untouched").isEqualTo(5);
  }

  @Test
  void epochMillisBecomeTheSameUtcTimestampsAsInstantAtOffsetAcrossDaysAndBefore1970() {
    Stream stream = new Stream("id", "at");
    java.util.Random random = new java.util.Random(42);
    long midnight = 1_793_491_200_000L; // 2026-11-01T00:00:00Z
    long[] edges = {0L, -1L, 1L, 86_399_999L, 86_400_000L, -86_400_000L, -86_400_001L, midnight - 1, midnight, midnight + 1};
    for (int i = 0; i < 20_000; i++) {
      long millis;
      if (i < edges.length) {
        millis = edges[i];
      } else if (i % 2 == 0) {
        millis = midnight + (i - 10_000) * 17_000L; // a stream's timestamps: one day into the next
      } else {
        millis = random.nextLong() % 8_000_000_000_000L; // about 1716 to 2223
      }
      OffsetDateTime expected = Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC);
      assertThat(mapper.map(stream.tuple((long) i, millis), SCHEMA).getField("at")).as("%d ms", millis).isEqualTo(expected);
      assertThat(mapper.map(stream.tuple((long) i, Instant.ofEpochMilli(millis)), SCHEMA).getField("at")).isEqualTo(expected);
    }
  }

  /** Values of these classes are kept as they are, by the general conversions and the resolved ones. */
  @Test
  void unconvertedClassesAreReturnedAsTheyAreByEveryConversion() {
    Map<org.apache.iceberg.types.Type, Object> samples = new java.util.LinkedHashMap<>();
    samples.put(Types.BooleanType.get(), true);
    samples.put(Types.IntegerType.get(), 7);
    samples.put(Types.LongType.get(), 7L);
    samples.put(Types.FloatType.get(), 1.5f);
    samples.put(Types.DoubleType.get(), 1.5d);
    samples.put(Types.StringType.get(), "s");
    samples.put(Types.UUIDType.get(), java.util.UUID.randomUUID());
    samples.forEach((type, value) -> {
      assertThat(IcebergValues.convert(type, value, "c")).as("%s", type).isSameAs(value);
      assertThat(IcebergValues.convertInternal(type, value, "c")).as("%s internal", type).isSameAs(value);
      assertThat(IcebergValues.conversion(type, "c").apply(value)).as("%s resolved", type).isSameAs(value);
      assertThat(IcebergValues.internalConversion(type, "c").apply(value)).as("%s resolved internal", type).isSameAs(value);
    });
    // Values of other classes take the general path through a resolved conversion too.
    assertThat(IcebergValues.internalConversion(Types.LongType.get(), "c").apply(7)).isEqualTo(7L);
    assertThatThrownBy(() -> IcebergValues.internalConversion(Types.IntegerType.get(), "c").apply(3_000_000_000L))
        .hasMessage("column 'c' expects int but got java.lang.Long: value 3000000000 does not fit in an int");
  }
}
