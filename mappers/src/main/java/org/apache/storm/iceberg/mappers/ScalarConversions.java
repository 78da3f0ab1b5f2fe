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

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.UUID;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.mappers.IcebergValues.Conversion;

/**
 * The conversions both representations share: booleans, numbers, decimals, strings, UUIDs and
 * binary have one Java form in each. A value already of the column's Java class is returned as it
 * is, before any other check.
 */
final class ScalarConversions {
  private ScalarConversions() {}

  /** The shared conversion of {@code type} at {@code path}, or null when the representations differ. */
  static Conversion of(Type.PrimitiveType type, String path) {
    switch (type.typeId()) {
      case BOOLEAN:
        return value -> {
          if (value instanceof Boolean) {
            return value;
          }
          throw mismatch(path, type, value, null);
        };
      case INTEGER:
        return value -> toInt(type, value, path);
      case LONG:
        return value -> {
          if (value instanceof Long) {
            return value;
          }
          if (isIntegral(value)) {
            return ((Number) value).longValue();
          }
          throw mismatch(path, type, value, null);
        };
      case FLOAT:
        return value -> toFloat(type, value, path);
      case DOUBLE:
        return value -> {
          if (value instanceof Double) {
            return value;
          }
          if (value instanceof Float || isIntegral(value)) {
            return ((Number) value).doubleValue();
          }
          throw mismatch(path, type, value, null);
        };
      case DECIMAL:
        return value -> toDecimal((Types.DecimalType) type, value, path);
      case STRING:
        return value -> {
          if (value instanceof String) {
            return value;
          }
          if (value instanceof CharSequence) {
            return value.toString();
          }
          throw mismatch(path, type, value, null);
        };
      case UUID:
        return value -> toUuid(type, value, path);
      case BINARY:
        return value -> {
          if (value instanceof ByteBuffer) {
            return value;
          }
          if (value instanceof byte[]) {
            return ByteBuffer.wrap((byte[]) value);
          }
          throw mismatch(path, type, value, null);
        };
      default:
        return null;
    }
  }

  /**
   * The Java class whose values both representations keep as they are for {@code type} (a {@code
   * Long} for a long column), or null: a caller may skip the conversion for a value of that class.
   */
  static Class<?> keptAsIs(Type type) {
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
        return UUID.class;
      default:
        return null;
    }
  }

  /** For a type neither representation converts to (a variant, a nanosecond timestamp, ...): every value is refused. */
  static Conversion refusing(Type type, String path) {
    return value -> {
      throw mismatch(path, type, value, null);
    };
  }

  static boolean isIntegral(Object value) {
    return value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte;
  }

  private static Object toInt(Type type, Object value, String path) {
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
    throw mismatch(path, type, value, null);
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
}
