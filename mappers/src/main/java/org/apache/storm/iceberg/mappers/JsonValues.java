package org.apache.storm.iceberg.mappers;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.spi.RecordMappingException;

/**
 * Reads JSON values as Iceberg values, driven by the column type: JSON text and numbers are turned
 * into the Java values {@link IcebergValues} accepts, which then applies the same checks and
 * messages as for tuple values. A value JSON cannot carry as such is read from text: ISO-8601 for
 * date, time, timestamp and timestamptz (with an offset), base64 for binary and fixed, canonical
 * form for uuid, any JSON number or numeric text for decimal. A field renamed from outside takes,
 * when the object has no member under its name, the member under its most recent former name there
 * ({@code formerNames}, by field id, from {@link org.apache.storm.iceberg.spi.FormerNamesSchema}).
 */
final class JsonValues {
  private JsonValues() {}

  static GenericRecord record(Types.StructType struct, JsonNode object, String parentPath, Map<Integer, List<String>> formerNames) {
    GenericRecord record = GenericRecord.create(struct);
    List<Types.NestedField> fields = struct.fields();
    for (int pos = 0; pos < fields.size(); pos++) {
      Types.NestedField field = fields.get(pos);
      String path = parentPath == null ? field.name() : parentPath + "." + field.name();
      JsonNode node = object.get(field.name());
      if ((node == null || node.isNull()) && !formerNames.isEmpty()) {
        node = underFormerName(object, formerNames.get(field.fieldId()));
      }
      if (node == null || node.isNull()) {
        if (field.isRequired()) {
          throw new RecordMappingException(path, "required column '" + path + "' (" + field.type() + ") has no value");
        }
        continue;
      }
      record.set(pos, value(field.type(), node, path, formerNames));
    }
    return record;
  }

  /** The member under the first of {@code names} (a renamed field's former names) that holds one, or null. */
  private static JsonNode underFormerName(JsonNode object, List<String> names) {
    if (names != null) {
      for (String name : names) {
        JsonNode node = object.get(name);
        if (node != null && !node.isNull()) {
          return node;
        }
      }
    }
    return null;
  }

  static Object value(Type type, JsonNode node, String path, Map<Integer, List<String>> formerNames) {
    switch (type.typeId()) {
      case STRUCT:
        requireType(node.isObject(), type, node, path);
        return record(type.asStructType(), node, path, formerNames);
      case LIST:
        requireType(node.isArray(), type, node, path);
        return list(type.asListType(), node, path, formerNames);
      case MAP:
        requireType(node.isObject(), type, node, path);
        return map(type.asMapType(), node, path, formerNames);
      default:
        return IcebergValues.convert(type, primitive(type, node, path), path);
    }
  }

  /** The Java value {@link IcebergValues} expects for a JSON scalar, or a mismatch error. */
  private static Object primitive(Type type, JsonNode node, String path) {
    switch (type.typeId()) {
      case BOOLEAN:
        requireType(node.isBoolean(), type, node, path);
        return node.booleanValue();
      case INTEGER:
      case LONG:
        requireType(node.isIntegralNumber() && node.canConvertToLong(), type, node, path);
        return node.longValue();
      case FLOAT:
        requireType(node.isNumber(), type, node, path);
        return node.floatValue();
      case DOUBLE:
        requireType(node.isNumber(), type, node, path);
        return node.doubleValue();
      case DECIMAL:
        requireType(node.isNumber() || node.isTextual(), type, node, path);
        return node.isNumber() ? node.decimalValue() : node.textValue();
      case STRING:
      case UUID:
        requireType(node.isTextual(), type, node, path);
        return node.textValue();
      case DATE:
        if (node.isIntegralNumber() && node.canConvertToInt()) {
          return node.intValue();
        }
        return parseText(type, node, path, LocalDate::parse);
      case TIME:
        return parseText(type, node, path, LocalTime::parse);
      case TIMESTAMP:
        if (((Types.TimestampType) type).shouldAdjustToUTC()) {
          if (node.isIntegralNumber() && node.canConvertToLong()) {
            return node.longValue();
          }
          return parseText(type, node, path, OffsetDateTime::parse);
        }
        return parseText(type, node, path, LocalDateTime::parse);
      case BINARY:
      case FIXED:
        requireType(node.isTextual(), type, node, path);
        try {
          return node.binaryValue();
        } catch (IOException | IllegalArgumentException e) {
          throw new RecordMappingException(path, "column '" + path + "' expects " + type + " as base64 text: " + e.getMessage(), e);
        }
      default:
        throw mismatch(type, node, path, null);
    }
  }

  private interface TextParser {
    Object parse(String text);
  }

  private static Object parseText(Type type, JsonNode node, String path, TextParser parser) {
    requireType(node.isTextual(), type, node, path);
    try {
      return parser.parse(node.textValue());
    } catch (DateTimeParseException e) {
      throw mismatch(type, node, path, "'" + node.textValue() + "' is not ISO-8601 " + expectedText(type));
    }
  }

  private static String expectedText(Type type) {
    if (type.typeId() == Type.TypeID.TIMESTAMP) {
      return ((Types.TimestampType) type).shouldAdjustToUTC() ? "date-time with an offset" : "local date-time";
    }
    return type.typeId() == Type.TypeID.DATE ? "date" : "time";
  }

  private static List<Object> list(Types.ListType type, JsonNode array, String path, Map<Integer, List<String>> formerNames) {
    List<Object> values = new ArrayList<>(array.size());
    String elementPath = path + ".element";
    for (JsonNode element : array) {
      if (element.isNull()) {
        if (type.isElementRequired()) {
          throw new RecordMappingException(elementPath, "list '" + path + "' holds a null element");
        }
        values.add(null);
      } else {
        values.add(value(type.elementType(), element, elementPath, formerNames));
      }
    }
    return values;
  }

  private static Map<Object, Object> map(Types.MapType type, JsonNode object, String path, Map<Integer, List<String>> formerNames) {
    Map<Object, Object> values = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> entries = object.fields();
    while (entries.hasNext()) {
      Map.Entry<String, JsonNode> entry = entries.next();
      // JSON keys are text; a non-string key type is read from that text.
      Object key = IcebergValues.convert(type.keyType(), keyValue(type.keyType(), entry.getKey(), path), path + ".key");
      JsonNode valueNode = entry.getValue();
      if (valueNode.isNull()) {
        if (type.isValueRequired()) {
          throw new RecordMappingException(path + ".value", "map '" + path + "' holds a null value");
        }
        values.put(key, null);
      } else {
        values.put(key, value(type.valueType(), valueNode, path + ".value", formerNames));
      }
    }
    return values;
  }

  private static Object keyValue(Type keyType, String text, String path) {
    return keyType.typeId() == Type.TypeID.STRING
        ? text
        : primitive(keyType, com.fasterxml.jackson.databind.node.TextNode.valueOf(text), path + ".key");
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
