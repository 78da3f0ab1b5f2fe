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

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.mappers.IcebergValues.Conversion;

/**
 * Conversions to Iceberg's generic representation, what its generic writers take: {@code
 * LocalDate}, {@code LocalTime}, {@code LocalDateTime} (timestamp) and {@code OffsetDateTime} in UTC
 * or the value's own offset (timestamptz), {@code byte[]} for fixed, {@link Record} for structs.
 */
final class GenericConversions extends ConversionVisitor {
  GenericConversions(String rootPath, Map<Integer, List<String>> formerNames) {
    super(rootPath, formerNames);
  }

  @Override
  Supplier<StructLike> newStruct(Types.StructType type) {
    // A copy of an empty record is cheaper than GenericRecord.create, which looks its field names up.
    Record empty = GenericRecord.create(type);
    return empty::copy;
  }

  @Override
  Conversion date(Type.PrimitiveType type, String path) {
    return value -> {
      LocalDate date = TemporalValues.toDate(value);
      if (date != null) {
        TemporalValues.epochDay(date, type, value, path);
        return date;
      }
      if (value instanceof Integer days) {
        return LocalDate.ofEpochDay(days);
      }
      throw mismatch(path, type, value, null);
    };
  }

  @Override
  Conversion time(Type.PrimitiveType type, String path) {
    return value -> {
      if (value instanceof LocalTime) {
        return value;
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
          return local;
        }
        throw mismatch(path, type, value, null);
      };
    }
    UtcDays days = new UtcDays();
    return value -> {
      if (value instanceof Long millis) {
        long checked = TemporalValues.epochMillisInRange(type, millis, value, path);
        return days.atUtc(Math.floorDiv(checked, 1000L), (int) Math.floorMod(checked, 1000L) * 1_000_000);
      }
      Instant instant = TemporalValues.toInstant(value);
      if (instant == null) {
        throw mismatch(path, type, value, null);
      }
      TemporalValues.inMicrosRange(type, instant, value, path);
      if (value instanceof OffsetDateTime) {
        return value;
      }
      return value instanceof ZonedDateTime zoned
          ? zoned.toOffsetDateTime()
          : days.atUtc(instant.getEpochSecond(), instant.getNano());
    };
  }

  @Override
  Conversion timestampNano(Types.TimestampNanoType type, String path) {
    if (!type.shouldAdjustToUTC()) {
      return value -> {
        if (value instanceof LocalDateTime local) {
          TemporalValues.epochNanos(type, local.toInstant(ZoneOffset.UTC), value, path);
          return local;
        }
        if (value instanceof Long nanos) {
          return LocalDateTime.ofInstant(TemporalValues.ofEpochNanos(nanos), ZoneOffset.UTC);
        }
        throw mismatch(path, type, value, null);
      };
    }
    return value -> {
      if (value instanceof Long nanos) {
        return TemporalValues.ofEpochNanos(nanos).atOffset(ZoneOffset.UTC);
      }
      Instant instant = TemporalValues.toInstant(value);
      if (instant == null) {
        throw mismatch(path, type, value, null);
      }
      TemporalValues.epochNanos(type, instant, value, path);
      if (value instanceof OffsetDateTime) {
        return value;
      }
      return value instanceof ZonedDateTime zoned ? zoned.toOffsetDateTime() : instant.atOffset(ZoneOffset.UTC);
    };
  }

  @Override
  Conversion fixed(Types.FixedType type, String path) {
    return value -> {
      if (value instanceof byte[] bytes) {
        if (bytes.length != type.length()) {
          throw mismatch(path, type, value, "length " + bytes.length + " is not " + type.length());
        }
        return bytes;
      }
      throw mismatch(path, type, value, null);
    };
  }

  /**
   * {@code instant.atOffset(UTC)} without its costs, for one column: on Java 17 that builds a new
   * ZoneRules every call, and it derives the date from the epoch day every time, though a column's
   * timestamps mostly fall on the day of the one before. Holds the last date, replaced whole, so a
   * conversion shared between threads stays correct.
   */
  private static final class UtcDays {
    private static final long SECONDS_PER_DAY = 86_400L;
    private UtcDay last = new UtcDay(0, LocalDate.EPOCH);

    OffsetDateTime atUtc(long epochSecond, int nano) {
      long epochDay = Math.floorDiv(epochSecond, SECONDS_PER_DAY);
      UtcDay day = last;
      if (day.epochDay != epochDay) {
        day = new UtcDay(epochDay, LocalDate.ofEpochDay(epochDay));
        last = day;
      }
      long nanoOfDay = Math.floorMod(epochSecond, SECONDS_PER_DAY) * 1_000_000_000L + nano;
      return OffsetDateTime.of(LocalDateTime.of(day.date, LocalTime.ofNanoOfDay(nanoOfDay)), ZoneOffset.UTC);
    }

    private record UtcDay(long epochDay, LocalDate date) {}
  }
}
