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

import static org.apache.storm.iceberg.mappers.IcebergValues.mismatch;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;
import org.apache.storm.iceberg.mappers.IcebergValues.Conversion;
import org.apache.storm.iceberg.spi.InternalRow;

/**
 * Conversions to Iceberg's internal representation, what its internal writers encode as is: {@code
 * Integer} days for date, {@code Long} microseconds for time, timestamp and timestamptz, {@code
 * ByteBuffer} for fixed, {@link InternalRow} for structs. They accept and refuse the values {@link
 * GenericConversions} do, with the same messages.
 */
final class InternalConversions extends ConversionVisitor {
  InternalConversions(String rootPath, Map<Integer, List<String>> formerNames) {
    super(rootPath, formerNames);
  }

  @Override
  Supplier<StructLike> newStruct(Types.StructType type) {
    int size = type.fields().size();
    return () -> new InternalRow(size);
  }

  @Override
  Conversion date(Type.PrimitiveType type, String path) {
    return value -> {
      if (value instanceof Integer) {
        return value;
      }
      LocalDate date = TemporalValues.toDate(value);
      if (date != null) {
        return TemporalValues.epochDay(date, type, value, path);
      }
      throw mismatch(path, type, value, null);
    };
  }

  @Override
  Conversion time(Type.PrimitiveType type, String path) {
    return value -> {
      if (value instanceof LocalTime time) {
        return DateTimeUtil.microsFromTime(time);
      }
      throw mismatch(path, type, value, null);
    };
  }

  @Override
  Conversion timestamp(Types.TimestampType type, String path) {
    if (!type.shouldAdjustToUTC()) {
      return value -> {
        if (value instanceof LocalDateTime local) {
          TemporalValues.inMicrosRange(type, local.toInstant(ZoneOffset.UTC), value, path);
          return DateTimeUtil.microsFromTimestamp(local);
        }
        throw mismatch(path, type, value, null);
      };
    }
    return value -> {
      if (value instanceof Long millis) {
        return TemporalValues.epochMillisInRange(type, millis, value, path) * 1000L;
      }
      Instant instant = TemporalValues.toInstant(value);
      if (instant == null) {
        throw mismatch(path, type, value, null);
      }
      TemporalValues.inMicrosRange(type, instant, value, path);
      return DateTimeUtil.microsFromInstant(instant);
    };
  }

  @Override
  Conversion timestampNano(Types.TimestampNanoType type, String path) {
    if (!type.shouldAdjustToUTC()) {
      return value -> {
        if (value instanceof LocalDateTime local) {
          return TemporalValues.epochNanos(type, local.toInstant(ZoneOffset.UTC), value, path);
        }
        if (value instanceof Long) {
          return value;
        }
        throw mismatch(path, type, value, null);
      };
    }
    return value -> {
      if (value instanceof Long) {
        return value;
      }
      Instant instant = TemporalValues.toInstant(value);
      if (instant == null) {
        throw mismatch(path, type, value, null);
      }
      return TemporalValues.epochNanos(type, instant, value, path);
    };
  }

  @Override
  Conversion fixed(Types.FixedType type, String path) {
    return value -> {
      if (value instanceof byte[] bytes) {
        if (bytes.length != type.length()) {
          throw mismatch(path, type, value, "length " + bytes.length + " is not " + type.length());
        }
        return ByteBuffer.wrap(bytes);
      }
      throw mismatch(path, type, value, null);
    };
  }
}
