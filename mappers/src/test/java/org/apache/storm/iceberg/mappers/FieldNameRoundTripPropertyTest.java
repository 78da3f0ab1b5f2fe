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

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.RandomGenericData;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Property: any record of any schema, handed to the mapper as plain tuple values (structs as maps),
 * comes back as the same record. Schemas are random (primitives of every kind, structs, lists and
 * maps nested up to three deep); values come from Iceberg's own random data generator.
 */
class FieldNameRoundTripPropertyTest {
  private static final Type[] PRIMITIVES = {
    Types.BooleanType.get(), Types.IntegerType.get(), Types.LongType.get(), Types.FloatType.get(),
    Types.DoubleType.get(), Types.DecimalType.of(9, 2), Types.DecimalType.of(38, 10), Types.StringType.get(),
    Types.UUIDType.get(), Types.DateType.get(), Types.TimeType.get(), Types.TimestampType.withoutZone(),
    Types.TimestampType.withZone(), Types.BinaryType.get(), Types.FixedType.ofLength(7)
  };
  private static final Type[] MAP_KEYS = {Types.StringType.get(), Types.IntegerType.get(), Types.LongType.get(), Types.DateType.get()};

  @Property(tries = 300)
  void anyRecordRoundTripsThroughTupleValues(@ForAll long schemaSeed, @ForAll long valueSeed) {
    Schema schema = randomSchema(new Random(schemaSeed));
    for (Record expected : RandomGenericData.generate(schema, 3, valueSeed)) {
      Map<String, Object> fields = new LinkedHashMap<>();
      for (Types.NestedField column : schema.columns()) {
        fields.put(column.name(), toTupleValue(column.type(), expected.getField(column.name())));
      }
      Record actual = new FieldNameRecordMapper().map(FieldNameRecordMapperTest.tuple(fields), schema);
      assertThat(comparable(actual)).as("schema %s", schema).isEqualTo(comparable(expected));
    }
  }

  /**
   * Property: the internal row of the same tuple holds the same values, in Iceberg's internal form
   * (what Iceberg's Parquet internal writer encodes), computed here with java.time's own arithmetic
   * rather than the mapper's. The tuple carries each value in one of the forms a topology may use
   * (an {@code Instant}, a zoned or offset time, a {@code java.sql.Timestamp}, epoch days, a
   * narrower integer, a byte array), picked at random.
   */
  @Property(tries = 300)
  void theInternalRowHoldsTheRecordsValuesInInternalForm(@ForAll long schemaSeed, @ForAll long valueSeed) {
    Schema schema = randomSchema(new Random(schemaSeed));
    FieldNameRecordMapper mapper = new FieldNameRecordMapper();
    for (Record expected : RandomGenericData.generate(schema, 3, valueSeed)) {
      Map<String, Object> fields = new LinkedHashMap<>();
      Random forms = new Random(valueSeed);
      for (Types.NestedField column : schema.columns()) {
        fields.put(column.name(), toTupleValue(column.type(), expected.getField(column.name()), forms));
      }
      StructLike actual = mapper.mapInternal(FieldNameRecordMapperTest.tuple(fields), schema);
      assertThat(comparable(actual)).as("schema %s", schema).isEqualTo(internal(schema.asStruct(), expected));
    }
  }

  /** The generic value {@code value} in form number {@code form} (0: as it is). */
  private static Object anotherForm(Type type, Object value, int form) {
    switch (type.typeId()) {
      case TIMESTAMP:
        if (!((Types.TimestampType) type).shouldAdjustToUTC()) {
          return value;
        }
        OffsetDateTime time = (OffsetDateTime) value;
        return switch (form) {
          case 1 -> time.toInstant();
          case 2 -> time.atZoneSameInstant(ZoneId.of("Asia/Kolkata"));
          case 3 -> java.sql.Timestamp.from(time.toInstant());
          default -> time.withOffsetSameInstant(ZoneOffset.ofHours(-7));
        };
      case DATE:
        return form % 2 == 1 ? (Object) (int) ((LocalDate) value).toEpochDay() : value;
      case LONG:
        long longValue = (Long) value;
        return form % 2 == 1 && longValue == (int) longValue ? (Object) (int) longValue : value;
      case INTEGER:
        int intValue = (Integer) value;
        return form % 2 == 1 && intValue == (short) intValue ? (Object) (short) intValue : value;
      case BINARY:
        if (form % 2 == 1) {
          ByteBuffer buffer = ((ByteBuffer) value).duplicate();
          byte[] bytes = new byte[buffer.remaining()];
          buffer.get(bytes);
          return bytes;
        }
        return value;
      default:
        return value;
    }
  }

  /** Iceberg's internal form of a generic value, with structs as lists, made comparable. */
  private static Object internal(Type type, Object value) {
    if (value == null) {
      return null;
    }
    switch (type.typeId()) {
      case DATE:
        return (int) ((LocalDate) value).toEpochDay();
      case TIME:
        return ((LocalTime) value).toNanoOfDay() / 1000L;
      case TIMESTAMP:
        return ((Types.TimestampType) type).shouldAdjustToUTC()
            ? ChronoUnit.MICROS.between(Instant.EPOCH, ((OffsetDateTime) value).toInstant())
            : ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), (LocalDateTime) value);
      case STRUCT:
        List<Object> struct = new ArrayList<>();
        for (Types.NestedField field : type.asStructType().fields()) {
          struct.add(internal(field.type(), ((Record) value).getField(field.name())));
        }
        return struct;
      case LIST:
        List<Object> list = new ArrayList<>();
        ((List<?>) value).forEach(element -> list.add(internal(type.asListType().elementType(), element)));
        return list;
      case MAP:
        Map<Object, Object> map = new LinkedHashMap<>();
        ((Map<?, ?>) value)
            .forEach((k, v) -> map.put(internal(type.asMapType().keyType(), k), internal(type.asMapType().valueType(), v)));
        return map;
      default:
        return comparable(value);
    }
  }

  static Schema randomSchema(Random random) {
    AtomicInteger ids = new AtomicInteger(1);
    int columns = 1 + random.nextInt(8);
    List<Types.NestedField> fields = new ArrayList<>();
    for (int i = 0; i < columns; i++) {
      fields.add(field(random, ids, "c" + i, 0));
    }
    return new Schema(fields);
  }

  private static Types.NestedField field(Random random, AtomicInteger ids, String name, int depth) {
    int id = ids.getAndIncrement();
    Type type = type(random, ids, depth);
    return random.nextBoolean() ? Types.NestedField.optional(id, name, type) : Types.NestedField.required(id, name, type);
  }

  private static Type type(Random random, AtomicInteger ids, int depth) {
    int kind = depth >= 3 ? 0 : random.nextInt(6);
    switch (kind) {
      case 3:
        List<Types.NestedField> fields = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
          fields.add(field(random, ids, "f" + i, depth + 1));
        }
        return Types.StructType.of(fields);
      case 4:
        return random.nextBoolean()
            ? Types.ListType.ofOptional(ids.getAndIncrement(), type(random, ids, depth + 1))
            : Types.ListType.ofRequired(ids.getAndIncrement(), type(random, ids, depth + 1));
      case 5:
        int keyId = ids.getAndIncrement();
        int valueId = ids.getAndIncrement();
        Type key = MAP_KEYS[random.nextInt(MAP_KEYS.length)];
        return random.nextBoolean()
            ? Types.MapType.ofOptional(keyId, valueId, key, type(random, ids, depth + 1))
            : Types.MapType.ofRequired(keyId, valueId, key, type(random, ids, depth + 1));
      default:
        return PRIMITIVES[random.nextInt(PRIMITIVES.length)];
    }
  }

  /** The value a topology would put in a tuple: Iceberg's generic form, with structs as plain maps. */
  private static Object toTupleValue(Type type, Object value) {
    return toTupleValue(type, value, null);
  }

  /**
   * As {@link #toTupleValue(Type, Object)}, each primitive in a form {@code forms} picks among those
   * the mapper accepts for it (none: the generic form).
   */
  private static Object toTupleValue(Type type, Object value, Random forms) {
    if (value == null) {
      return null;
    }
    if (forms != null && type.isPrimitiveType()) {
      return anotherForm(type, value, forms.nextInt(4));
    }
    switch (type.typeId()) {
      case STRUCT:
        Map<String, Object> struct = new LinkedHashMap<>();
        for (Types.NestedField field : type.asStructType().fields()) {
          struct.put(field.name(), toTupleValue(field.type(), ((Record) value).getField(field.name()), forms));
        }
        return struct;
      case LIST:
        List<Object> list = new ArrayList<>();
        ((List<?>) value).forEach(element -> list.add(toTupleValue(type.asListType().elementType(), element, forms)));
        return list;
      case MAP:
        Map<Object, Object> map = new LinkedHashMap<>();
        ((Map<?, ?>) value).forEach((k, v) -> map.put(k, toTupleValue(type.asMapType().valueType(), v, forms)));
        return map;
      default:
        return value;
    }
  }

  /**
   * A deep copy with byte arrays and buffers as lists, records as maps and other structs as lists, so
   * equals compares content.
   */
  private static Object comparable(Object value) {
    if (value instanceof Record) {
      Record record = (Record) value;
      Map<String, Object> fields = new LinkedHashMap<>();
      for (Types.NestedField field : record.struct().fields()) {
        fields.put(field.name(), comparable(record.getField(field.name())));
      }
      return fields;
    } else if (value instanceof StructLike) {
      StructLike struct = (StructLike) value;
      List<Object> fields = new ArrayList<>();
      for (int pos = 0; pos < struct.size(); pos++) {
        fields.add(comparable(struct.get(pos, Object.class)));
      }
      return fields;
    } else if (value instanceof List) {
      List<Object> list = new ArrayList<>();
      ((List<?>) value).forEach(element -> list.add(comparable(element)));
      return list;
    } else if (value instanceof Map) {
      Map<Object, Object> map = new LinkedHashMap<>();
      ((Map<?, ?>) value).forEach((k, v) -> map.put(comparable(k), comparable(v)));
      return map;
    } else if (value instanceof byte[]) {
      return comparable(ByteBuffer.wrap((byte[]) value));
    } else if (value instanceof ByteBuffer) {
      ByteBuffer buffer = ((ByteBuffer) value).duplicate();
      List<Byte> bytes = new ArrayList<>();
      while (buffer.hasRemaining()) {
        bytes.add(buffer.get());
      }
      return bytes;
    }
    return value;
  }
}
