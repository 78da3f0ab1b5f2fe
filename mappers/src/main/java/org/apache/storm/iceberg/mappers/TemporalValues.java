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
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import org.apache.iceberg.types.Type;

/**
 * The checks both representations make on dates and timestamps before they take their own form:
 * which Java values stand for a date or an instant, and which fit in Iceberg's int of days and long
 * of microseconds. A value beyond them is refused here, where a file writer would fail part-way
 * through a row or, for some formats, write it wrong.
 */
final class TemporalValues {
  private TemporalValues() {}

  /** The date a date value stands for, or null for any other value. */
  static LocalDate toDate(Object value) {
    if (value instanceof LocalDate date) {
      return date;
    }
    if (value instanceof java.sql.Date sqlDate) {
      return sqlDate.toLocalDate();
    }
    return null;
  }

  /** The date's epoch day, when an int holds it (Iceberg stores an int; a writer would wrap it around silently). */
  static int epochDay(LocalDate date, Type type, Object value, String path) {
    long epochDay = date.toEpochDay();
    if (epochDay != (int) epochDay) {
      throw mismatch(path, type, value, date + " is beyond the days an int holds");
    }
    return (int) epochDay;
  }

  /** The instant a zoned value stands for, or null for any other value. */
  static Instant toInstant(Object value) {
    if (value instanceof Instant instant) {
      return instant;
    }
    if (value instanceof OffsetDateTime offset) {
      return offset.toInstant();
    }
    if (value instanceof ZonedDateTime zoned) {
      return zoned.toInstant();
    }
    if (value instanceof java.sql.Date sqlDate) {
      // java.sql.Date refuses toInstant(); it is a day at local midnight, in epoch milliseconds.
      return Instant.ofEpochMilli(sqlDate.getTime());
    }
    if (value instanceof java.util.Date date) {
      // toInstant() keeps a java.sql.Timestamp's nanoseconds.
      return date.toInstant();
    }
    return null;
  }

  /** Refuses an instant whose microseconds from the epoch do not fit in a long (some 292,000 years from 1970). */
  static void inMicrosRange(Type type, Instant instant, Object value, String path) {
    if (instant.getEpochSecond() > MAX_EPOCH_SECONDS || instant.getEpochSecond() < -MAX_EPOCH_SECONDS) {
      throw mismatch(path, type, value, instant + " is beyond the microseconds a long holds");
    }
  }

  private static final long MAX_EPOCH_SECONDS = Long.MAX_VALUE / 1_000_000L - 1;

  /** Epoch milliseconds whose microseconds fit in a long, as Iceberg stores them. */
  static long epochMillisInRange(Type type, long epochMillis, Object value, String path) {
    if (epochMillis > MAX_EPOCH_MILLIS || epochMillis < -MAX_EPOCH_MILLIS) {
      throw mismatch(path, type, value, epochMillis + " ms from the epoch is beyond the microseconds a long holds");
    }
    return epochMillis;
  }

  private static final long MAX_EPOCH_MILLIS = Long.MAX_VALUE / 1000L;

  /** The instant's nanoseconds from the epoch, when a long holds them (1677 to 2262), as Iceberg stores them. */
  static long epochNanos(Type type, Instant instant, Object value, String path) {
    try {
      return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
    } catch (ArithmeticException beyond) {
      throw mismatch(path, type, value, instant + " is beyond the nanoseconds a long holds (1677 to 2262)");
    }
  }

  /** The instant {@code epochNanos} nanoseconds from the epoch. */
  static Instant ofEpochNanos(long epochNanos) {
    return Instant.ofEpochSecond(Math.floorDiv(epochNanos, 1_000_000_000L), Math.floorMod(epochNanos, 1_000_000_000L));
  }
}
