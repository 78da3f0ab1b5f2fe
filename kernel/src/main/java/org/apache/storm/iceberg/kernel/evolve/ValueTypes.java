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

package org.apache.storm.iceberg.kernel.evolve;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntSupplier;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.spi.RecordMappingException;

/**
 * The Iceberg type of a Java value, for a column schema evolution adds (docs/MAPPING.md, "Schema
 * evolution", has the table): Boolean, Integer/Short/Byte, Long, Float, Double, BigDecimal (its
 * precision and scale), BigInteger (a decimal of scale 0), CharSequence, UUID, byte[]/ByteBuffer,
 * LocalDate, LocalTime, LocalDateTime, and Instant/OffsetDateTime/ZonedDateTime (timestamptz); a
 * {@code Map} with string keys is a struct of its non-null entries, a {@code List} or an array a list
 * of its elements' type. Every field is optional. Anything else is a {@link RecordMappingException}.
 */
final class ValueTypes {
  private static final int MAX_PRECISION = 38;

  private ValueTypes() {}

  /**
   * The type of {@code value}, its nested fields numbered by {@code ids}; null when the value says
   * nothing of its type (an empty map or list, or one holding only nulls).
   *
   * @throws RecordMappingException naming {@code path}, for a value no Iceberg type holds
   */
  static Type of(Object value, String path, IntSupplier ids) {
    Type primitive = primitive(value, path);
    if (primitive != null) {
      return primitive;
    }
    if (value instanceof Map<?, ?> map) {
      return struct(map, path, ids);
    }
    List<?> elements = value instanceof List<?> list ? list : value instanceof Object[] array ? Arrays.asList(array) : null;
    if (elements != null) {
      Type element = null;
      for (Object member : elements) {
        element = member == null ? element : wider(element, of(member, path + ".element", ids), path);
      }
      return element == null ? null : Types.ListType.ofOptional(ids.getAsInt(), element);
    }
    throw new RecordMappingException(path, "field '" + path + "' has no column, and no Iceberg type is inferred from a "
        + value.getClass().getName() + " (docs/MAPPING.md, \"Schema evolution\", lists the Java types that are): add the column"
        + " from outside, or send a value of a listed type");
  }

  private static Type primitive(Object value, String path) {
    if (value instanceof Boolean) {
      return Types.BooleanType.get();
    } else if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return Types.IntegerType.get();
    } else if (value instanceof Long) {
      return Types.LongType.get();
    } else if (value instanceof Float) {
      return Types.FloatType.get();
    } else if (value instanceof Double) {
      return Types.DoubleType.get();
    } else if (value instanceof BigDecimal decimal) {
      return decimal(Math.max(decimal.precision(), decimal.scale()), Math.max(decimal.scale(), 0), path);
    } else if (value instanceof BigInteger integer) {
      return decimal(new BigDecimal(integer).precision(), 0, path);
    } else if (value instanceof CharSequence) {
      return Types.StringType.get();
    } else if (value instanceof UUID) {
      return Types.UUIDType.get();
    } else if (value instanceof byte[] || value instanceof ByteBuffer) {
      return Types.BinaryType.get();
    } else if (value instanceof LocalDate) {
      return Types.DateType.get();
    } else if (value instanceof LocalTime) {
      return Types.TimeType.get();
    } else if (value instanceof LocalDateTime) {
      return Types.TimestampType.withoutZone();
    } else if (value instanceof Instant || value instanceof OffsetDateTime || value instanceof ZonedDateTime) {
      return Types.TimestampType.withZone();
    }
    return null;
  }

  private static Type decimal(int precision, int scale, String path) {
    if (precision > MAX_PRECISION) {
      throw new RecordMappingException(path, "field '" + path + "' holds a decimal of precision " + precision
          + ", above Iceberg's " + MAX_PRECISION + ": no column can hold it");
    }
    return Types.DecimalType.of(precision, scale);
  }

  private static Type struct(Map<?, ?> map, String path, IntSupplier ids) {
    List<Types.NestedField> fields = new ArrayList<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (!(entry.getKey() instanceof String name)) {
        throw new RecordMappingException(path, "field '" + path + "' is a map with a key of "
            + (entry.getKey() == null ? "null" : entry.getKey().getClass().getName())
            + ": only a map with string keys becomes a struct; add a map column from outside");
      }
      Type type = entry.getValue() == null ? null : of(entry.getValue(), path + "." + name, ids);
      if (type != null) {
        fields.add(Types.NestedField.optional(ids.getAsInt(), name, type));
      }
    }
    return fields.isEmpty() ? null : Types.StructType.of(fields);
  }

  /** The type that holds both of a list's element types (one may be null), or an error. */
  private static Type wider(Type one, Type other, String path) {
    if (one == null || other == null || one.equals(other)) {
      return one == null ? other : one;
    }
    if (one.isPrimitiveType() && other.isPrimitiveType()) {
      if (TypeUtil.isPromotionAllowed(one, other.asPrimitiveType())) {
        return other;
      } else if (TypeUtil.isPromotionAllowed(other, one.asPrimitiveType())) {
        return one;
      }
    }
    throw new RecordMappingException(path, "list '" + path + "' holds elements of " + one + " and of " + other
        + ": one list column cannot hold both");
  }
}
