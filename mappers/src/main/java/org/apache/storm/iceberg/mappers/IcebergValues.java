package org.apache.storm.iceberg.mappers;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.storm.iceberg.spi.RecordMappingException;

/**
 * Converts a Java value to Iceberg's generic or internal representation of a column type,
 * recursively for structs, lists and maps. Conversions never lose information: a value that does
 * not fit the type exactly is an error naming the column path, the expected type and the value's
 * class. (Digits below a microsecond are Iceberg's exception: its time and timestamp types hold
 * microseconds, and its writers drop the rest.) Timestamps with a zone accept epoch
 * <b>milliseconds</b> as a {@code Long}; that is the one numeric timestamp unit (dates accept
 * epoch days).
 *
 * <p>The two representations accept and refuse the same values with the same messages; they differ
 * only in the Java form of dates, times, timestamps, fixed values and structs (see {@link
 * InternalRow}).
 */
public final class IcebergValues {
  private IcebergValues() {}

  /** Iceberg's generic representation: what its generic writers and readers use ({@code Record}s). */
  public static Object convert(Type type, Object value, String path) {
    return convert(type, value, path, false, Map.of());
  }

  /** Iceberg's internal representation ({@link InternalRow}): what its internal writers encode as is. */
  public static Object convertInternal(Type type, Object value, String path) {
    return convert(type, value, path, true, Map.of());
  }

  /** One column's conversion, resolved once for its type and path (see {@link #conversion}). */
  @FunctionalInterface
  public interface Conversion {
    /** As {@link #convert} or {@link #convertInternal} of a non-null value. */
    Object apply(Object value);
  }

  /** {@link #convert} for one column, resolved once: see {@link #internalConversion}. */
  public static Conversion conversion(Type type, String path) {
    return conversion(type, path, false, Map.of());
  }

  /**
   * {@link #convertInternal} for one column, resolved once so that a value already of the column's
   * Java class (a {@code Long} for a long column, a {@code String} for a string column) is kept
   * without the general dispatch. Every other value takes the general path, with the same results
   * and errors.
   */
  public static Conversion internalConversion(Type type, String path) {
    return conversion(type, path, true, Map.of());
  }

  /**
   * {@link #conversion} or {@link #internalConversion} whose nested structs also take a field's
   * value from a map key that carries one of its former names ({@code formerNames}, by field id, as
   * {@link org.apache.storm.iceberg.spi.FormerNamesSchema} gives them), when no key carries its
   * current name.
   */
  public static Conversion conversion(Type type, String path, boolean internal, Map<Integer, List<String>> formerNames) {
    Class<?> unconverted = unconvertedClass(type);
    if (unconverted != null) {
      return value -> value.getClass() == unconverted ? value : convert(type, value, path, internal, formerNames);
    }
    return value -> convert(type, value, path, internal, formerNames);
  }

  /** The Java class whose values both representations keep as they are, or null. */
  private static Class<?> unconvertedClass(Type type) {
    switch (type.typeId()) {
      case BOOLEAN:
        return Boolean.class;
      case INTEGER:
        return Integer.class;
      case LONG:
        return Long.class;
      case FLOAT:
        return Float.class;
      case DOUBLE:
        return Double.class;
      case STRING:
        return String.class;
      case UUID:
        return java.util.UUID.class;
      default:
        return null;
    }
  }

  static Object convert(Type type, Object value, String path, boolean internal, Map<Integer, List<String>> formerNames) {
    if (value == null) {
      return null;
    }
    switch (type.typeId()) {
      case BOOLEAN:
        if (value instanceof Boolean) {
          return value;
        }
        break;
      case INTEGER:
        if (value instanceof Integer) {
          return value;
        }
        if (value instanceof Short || value instanceof Byte) {
          return ((Number) value).intValue();
        }
        if (value instanceof Long) {
          long longValue = (Long) value;
          if (longValue != (int) longValue) {
            throw mismatch(path, type, value, "value " + longValue + " does not fit in an int");
          }
          return (int) longValue;
        }
        break;
      case LONG:
        if (value instanceof Long) {
          return value;
        }
        if (isIntegral(value)) {
          return ((Number) value).longValue();
        }
        break;
      case FLOAT:
        return toFloat(type, value, path);
      case DOUBLE:
        if (value instanceof Double) {
          return value;
        }
        if (value instanceof Float || isIntegral(value)) {
          return ((Number) value).doubleValue();
        }
        break;
      case DECIMAL:
        return toDecimal((Types.DecimalType) type, value, path);
      case STRING:
        if (value instanceof String) {
          return value;
        }
        if (value instanceof CharSequence) {
          return value.toString();
        }
        break;
      case UUID:
        return toUuid(type, value, path);
      case DATE:
        LocalDate date = toDate(value);
        if (date != null) {
          long epochDay = date.toEpochDay();
          if (epochDay != (int) epochDay) {
            // Iceberg stores a date as an int of days; a writer would wrap it around silently.
            throw mismatch(path, type, value, date + " is beyond the days an int holds");
          }
          return internal ? (Object) (int) epochDay : date;
        }
        if (value instanceof Integer) {
          return internal ? value : LocalDate.ofEpochDay((Integer) value);
        }
        break;
      case TIME:
        if (value instanceof LocalTime) {
          return internal ? (Object) DateTimeUtil.microsFromTime((LocalTime) value) : value;
        }
        break;
      case TIMESTAMP:
        return toTimestamp((Types.TimestampType) type, value, path, internal);
      case BINARY:
        if (value instanceof byte[]) {
          return ByteBuffer.wrap((byte[]) value);
        }
        if (value instanceof ByteBuffer) {
          return value;
        }
        break;
      case FIXED:
        int length = ((Types.FixedType) type).length();
        if (value instanceof byte[]) {
          if (((byte[]) value).length != length) {
            throw mismatch(
                path, type, value, "length " + ((byte[]) value).length + " is not " + length);
          }
          return internal ? ByteBuffer.wrap((byte[]) value) : value;
        }
        break;
      case STRUCT:
        if (value instanceof Map) {
          StructLike struct = internal ? new InternalRow(type.asStructType().fields().size()) : GenericRecord.create(type.asStructType());
          return NestedValues.toStruct(type.asStructType(), (Map<?, ?>) value, path, struct, internal, formerNames);
        }
        break;
      case LIST:
        return NestedValues.toList(type.asListType(), value, path, internal, formerNames);
      case MAP:
        if (value instanceof Map) {
          return NestedValues.toMap(type.asMapType(), (Map<?, ?>) value, path, internal, formerNames);
        }
        break;
      default:
        break;
    }
    throw mismatch(path, type, value, null);
  }

  private static LocalDate toDate(Object value) {
    if (value instanceof LocalDate) {
      return (LocalDate) value;
    }
    if (value instanceof java.sql.Date) {
      return ((java.sql.Date) value).toLocalDate();
    }
    return null;
  }

  private static boolean isIntegral(Object value) {
    return value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte;
  }

  private static Object toFloat(Type type, Object value, String path) {
    if (value instanceof Float) {
      return value;
    }
    if (isIntegral(value)) {
      long longValue = ((Number) value).longValue();
      float floatValue = (float) longValue;
      if ((long) floatValue == longValue) {
        return floatValue;
      }
      throw mismatch(path, type, value, "value " + longValue + " is not exactly a float");
    }
    throw mismatch(path, type, value, null);
  }

  private static Object toDecimal(Types.DecimalType type, Object value, String path) {
    BigDecimal decimal;
    if (value instanceof BigDecimal) {
      decimal = (BigDecimal) value;
    } else if (value instanceof BigInteger) {
      decimal = new BigDecimal((BigInteger) value);
    } else if (isIntegral(value)) {
      decimal = BigDecimal.valueOf(((Number) value).longValue());
    } else if (value instanceof CharSequence) {
      try {
        decimal = new BigDecimal(value.toString());
      } catch (NumberFormatException e) {
        throw mismatch(path, type, value, "'" + value + "' is not a decimal number");
      }
    } else {
      throw mismatch(path, type, value, null);
    }
    if (decimal.scale() > type.scale()) {
      BigDecimal stripped = decimal.stripTrailingZeros();
      if (stripped.scale() > type.scale()) {
        throw mismatch(path, type, value, decimal + " needs scale " + stripped.scale());
      }
    }
    BigDecimal scaled = decimal.setScale(type.scale());
    if (scaled.precision() > type.precision()) {
      throw mismatch(path, type, value, decimal + " needs precision " + scaled.precision());
    }
    return scaled;
  }

  private static Object toUuid(Type type, Object value, String path) {
    if (value instanceof UUID) {
      return value;
    }
    if (value instanceof CharSequence) {
      try {
        return UUID.fromString(value.toString());
      } catch (IllegalArgumentException e) {
        throw mismatch(path, type, value, "'" + value + "' is not a UUID");
      }
    }
    if (value instanceof byte[] && ((byte[]) value).length == 16) {
      ByteBuffer buffer = ByteBuffer.wrap((byte[]) value);
      return new UUID(buffer.getLong(), buffer.getLong());
    }
    throw mismatch(path, type, value, null);
  }

  /**
   * A timestamp as an {@code OffsetDateTime} or {@code LocalDateTime} (generic) or as microseconds
   * from the epoch (internal). A value beyond what a long of microseconds holds (some 292,000 years
   * from 1970) is refused here, where the file writer would fail part-way through a row or, for
   * some formats, write it wrong.
   */
  private static Object toTimestamp(Types.TimestampType type, Object value, String path, boolean internal) {
    if (!type.shouldAdjustToUTC()) {
      if (value instanceof LocalDateTime local) {
        inMicrosRange(type, local.toInstant(ZoneOffset.UTC), value, path);
        return internal ? (Object) DateTimeUtil.microsFromTimestamp(local) : local;
      }
      throw mismatch(path, type, value, null);
    }
    if (value instanceof Long millis) {
      long checked = epochMillisInRange(type, millis, value, path);
      return internal ? (Object) (checked * 1000L) : atUtc(Instant.ofEpochMilli(checked));
    }
    Instant instant = toInstant(value);
    if (instant == null) {
      throw mismatch(path, type, value, null);
    }
    inMicrosRange(type, instant, value, path);
    if (internal) {
      return DateTimeUtil.microsFromInstant(instant);
    }
    if (value instanceof OffsetDateTime) {
      return value;
    }
    return value instanceof ZonedDateTime zoned ? zoned.toOffsetDateTime() : atUtc(instant);
  }

  /** The instant a zoned value stands for, or null for any other value. */
  private static Instant toInstant(Object value) {
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

  private static void inMicrosRange(Type type, Instant instant, Object value, String path) {
    if (instant.getEpochSecond() > MAX_EPOCH_SECONDS || instant.getEpochSecond() < -MAX_EPOCH_SECONDS) {
      throw mismatch(path, type, value, instant + " is beyond the microseconds a long holds");
    }
  }

  private static final long MAX_EPOCH_SECONDS = Long.MAX_VALUE / 1_000_000L - 1;

  /**
   * Epoch milliseconds whose microseconds fit in a long, as Iceberg stores them; beyond that (some
   * 292,000 years from 1970) the file writer itself would fail, part-way through a row.
   */
  private static long epochMillisInRange(Type type, long epochMillis, Object value, String path) {
    if (epochMillis > MAX_EPOCH_MILLIS || epochMillis < -MAX_EPOCH_MILLIS) {
      throw mismatch(path, type, value, epochMillis + " ms from the epoch is beyond the microseconds a long holds");
    }
    return epochMillis;
  }

  private static final long MAX_EPOCH_MILLIS = Long.MAX_VALUE / 1000L;

  /**
   * {@code instant.atOffset(UTC)} without its costs: on Java 17 that builds a new ZoneRules every
   * call, and it derives the date from the epoch day every time, though a stream's timestamps mostly
   * fall on the day of the one before.
   */
  private static OffsetDateTime atUtc(Instant instant) {
    long epochSecond = instant.getEpochSecond();
    long epochDay = Math.floorDiv(epochSecond, SECONDS_PER_DAY);
    UtcDay day = lastDay;
    if (day.epochDay != epochDay) {
      day = new UtcDay(epochDay, LocalDate.ofEpochDay(epochDay));
      lastDay = day;
    }
    long nanoOfDay = Math.floorMod(epochSecond, SECONDS_PER_DAY) * 1_000_000_000L + instant.getNano();
    return OffsetDateTime.of(LocalDateTime.of(day.date, LocalTime.ofNanoOfDay(nanoOfDay)), ZoneOffset.UTC);
  }

  private static final long SECONDS_PER_DAY = 86_400L;

  /** The date of the last timestamp converted; shared by threads, replaced whole, never mutated. */
  private static volatile UtcDay lastDay = new UtcDay(0, LocalDate.EPOCH);

  private record UtcDay(long epochDay, LocalDate date) {}

  static RecordMappingException mismatch(
      String path, Type type, Object value, String detail) {
    return new RecordMappingException(
        path,
        "column '"
            + path
            + "' expects "
            + type
            + " but got "
            + value.getClass().getName()
            + (detail == null ? "" : ": " + detail));
  }
}
