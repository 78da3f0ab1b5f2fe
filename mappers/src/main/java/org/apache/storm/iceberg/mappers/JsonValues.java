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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.mappers.IcebergValues.Conversion;
import org.apache.storm.iceberg.spi.RecordMappingException;

/**
 * Builds, by visiting a schema's struct once, the readers of JSON values as Iceberg generic values:
 * JSON text and numbers are turned into the Java values {@link IcebergValues} accepts, and then
 * converted by the column's {@link GenericConversions}, with the same checks and messages as tuple
 * values. A value JSON cannot carry as such is read from text: ISO-8601 for date, time, timestamp
 * and timestamptz (with an offset), base64 for binary and fixed, canonical form for uuid, any JSON
 * number or numeric text for decimal. A field renamed from outside takes, when the object has no
 * member under its name, the member under its most recent former name there ({@code formerNames},
 * by field id, from {@link org.apache.storm.iceberg.spi.FormerNamesSchema}).
 */
final class JsonValues extends PathVisitor<JsonValues.Reader> {
  /** Reads one JSON value, neither missing nor JSON null. */
  @FunctionalInterface
  interface Reader {
    Object read(JsonNode node);
  }

  private final Map<Integer, List<String>> formerNames;

  private JsonValues(Map<Integer, List<String>> formerNames) {
    super(null);
    this.formerNames = formerNames;
  }

  /** The reader of a document whose members are the columns of {@code struct}. */
  static Reader documentReader(Types.StructType struct, Map<Integer, List<String>> formerNames) {
    return new JsonValues(formerNames).build(struct);
  }

  @Override
  public Reader struct(Types.StructType type, List<Reader> fieldReaders) {
    String path = path();
    List<Types.NestedField> fields = type.fields();
    String[] paths = new String[fields.size()];
    String[][] former = new String[fields.size()][];
    for (int pos = 0; pos < fields.size(); pos++) {
      paths[pos] = pathOf(fields.get(pos).name());
      List<String> names = formerNames.get(fields.get(pos).fieldId());
      former[pos] = names == null ? null : names.toArray(new String[0]);
    }
    Reader[] readers = fieldReaders.toArray(new Reader[0]);
    // A member the document lacks gets its column's write default (a JSON null stays null).
    Object[] defaults = fields.stream().map(field -> field.writeDefault() == null ? null
        : org.apache.iceberg.data.GenericDataUtil.internalToGeneric(field.type(), field.writeDefault())).toArray();
    Record empty = GenericRecord.create(type);
    return node -> {
      requireType(node.isObject(), type, node, path);
      Record record = empty.copy();
      for (int pos = 0; pos < readers.length; pos++) {
        Types.NestedField field = fields.get(pos);
        JsonNode member = node.get(field.name());
        if ((member == null || member.isNull()) && former[pos] != null) {
          member = underFormerName(node, former[pos]);
        }
        if (member != null && !member.isNull()) {
          record.set(pos, readers[pos].read(member));
        } else if (member == null && defaults[pos] != null) {
          record.set(pos, defaults[pos]);
        } else if (field.isRequired()) {
          throw new RecordMappingException(paths[pos], "required column '" + paths[pos] + "' (" + field.type() + ") has no value");
        }
      }
      return record;
    };
  }

  /** The member under the first of {@code names} (a renamed field's former names) that holds one, or null. */
  private static JsonNode underFormerName(JsonNode object, String[] names) {
    for (String name : names) {
      JsonNode node = object.get(name);
      if (node != null && !node.isNull()) {
        return node;
      }
    }
    return null;
  }

  @Override
  public Reader list(Types.ListType type, Reader element) {
    String path = path();
    String elementPath = path + ".element";
    return node -> {
      requireType(node.isArray(), type, node, path);
      List<Object> values = new ArrayList<>(node.size());
      for (JsonNode member : node) {
        if (!member.isNull()) {
          values.add(element.read(member));
        } else if (type.isElementRequired()) {
          throw new RecordMappingException(elementPath, "list '" + path + "' holds a null element");
        } else {
          values.add(null);
        }
      }
      return values;
    };
  }

  @Override
  public Reader map(Types.MapType type, Reader keyReader, Reader valueReader) {
    String path = path();
    // JSON keys are text; a key of another type is read from that text.
    Function<String, Object> key =
        type.keyType().typeId() == Type.TypeID.STRING ? text -> text : text -> keyReader.read(TextNode.valueOf(text));
    return node -> {
      requireType(node.isObject(), type, node, path);
      Map<Object, Object> values = new LinkedHashMap<>();
      Iterator<Map.Entry<String, JsonNode>> entries = node.fields();
      while (entries.hasNext()) {
        Map.Entry<String, JsonNode> entry = entries.next();
        Object converted = key.apply(entry.getKey());
        if (!entry.getValue().isNull()) {
          values.put(converted, valueReader.read(entry.getValue()));
        } else if (type.isValueRequired()) {
          throw new RecordMappingException(path + ".value", "map '" + path + "' holds a null value");
        } else {
          values.put(converted, null);
        }
      }
      return values;
    };
  }

  @Override
  public Reader variant(Types.VariantType type) {
    Conversion conversion = VariantValues.conversion(type, path());
    return conversion::apply;
  }

  @Override
  public Reader primitive(Type.PrimitiveType type) {
    String path = path();
    Reader scalar = scalar(type, path);
    Conversion conversion = IcebergValues.conversion(type, path);
    return node -> conversion.apply(scalar.read(node));
  }

  /** Reads the Java value {@link IcebergValues} expects for a JSON scalar, or refuses the node. */
  private static Reader scalar(Type type, String path) {
    switch (type.typeId()) {
      case BOOLEAN:
        return node -> {
          requireType(node.isBoolean(), type, node, path);
          return node.booleanValue();
        };
      case INTEGER:
      case LONG:
        return node -> {
          requireType(node.isIntegralNumber() && node.canConvertToLong(), type, node, path);
          return node.longValue();
        };
      case FLOAT:
        return node -> {
          requireType(node.isNumber(), type, node, path);
          return node.floatValue();
        };
      case DOUBLE:
        return node -> {
          requireType(node.isNumber(), type, node, path);
          return node.doubleValue();
        };
      case DECIMAL:
        return node -> {
          requireType(node.isNumber() || node.isTextual(), type, node, path);
          return node.isNumber() ? node.decimalValue() : node.textValue();
        };
      case STRING:
      case UUID:
        return node -> {
          requireType(node.isTextual(), type, node, path);
          return node.textValue();
        };
      case DATE:
        return node -> node.isIntegralNumber() && node.canConvertToInt()
            ? node.intValue()
            : parseText(type, node, path, LocalDate::parse, "date");
      case TIME:
        return node -> parseText(type, node, path, LocalTime::parse, "time");
      case TIMESTAMP:
        if (((Types.TimestampType) type).shouldAdjustToUTC()) {
          return node -> node.isIntegralNumber() && node.canConvertToLong()
              ? node.longValue()
              : parseText(type, node, path, OffsetDateTime::parse, "date-time with an offset");
        }
        return node -> parseText(type, node, path, LocalDateTime::parse, "local date-time");
      case TIMESTAMP_NANO:
        // Epoch nanoseconds, or ISO-8601 text (to the nanosecond).
        if (((Types.TimestampNanoType) type).shouldAdjustToUTC()) {
          return node -> node.isIntegralNumber() && node.canConvertToLong()
              ? node.longValue()
              : parseText(type, node, path, OffsetDateTime::parse, "date-time with an offset");
        }
        return node -> node.isIntegralNumber() && node.canConvertToLong()
            ? node.longValue()
            : parseText(type, node, path, LocalDateTime::parse, "local date-time");
      case BINARY:
      case FIXED:
        return node -> {
          requireType(node.isTextual(), type, node, path);
          try {
            return node.binaryValue();
          } catch (IOException | IllegalArgumentException e) {
            throw new RecordMappingException(path, "column '" + path + "' expects " + type + " as base64 text: " + e.getMessage(), e);
          }
        };
      default:
        return node -> {
          throw mismatch(type, node, path, null);
        };
    }
  }

  private static Object parseText(Type type, JsonNode node, String path, Function<String, Object> parser, String expected) {
    requireType(node.isTextual(), type, node, path);
    try {
      return parser.apply(node.textValue());
    } catch (DateTimeParseException e) {
      throw mismatch(type, node, path, "'" + node.textValue() + "' is not ISO-8601 " + expected);
    }
  }

  private static void requireType(boolean matches, Type type, JsonNode node, String path) {
    if (!matches) {
      throw mismatch(type, node, path, null);
    }
  }

  private static RecordMappingException mismatch(Type type, JsonNode node, String path, String detail) {
    return new RecordMappingException(
        path,
        "column '" + path + "' expects " + type + " but got JSON " + node.getNodeType().name().toLowerCase()
            + " (" + node.getClass().getName() + ")" + (detail == null ? "" : ": " + detail));
  }
}
