package org.apache.storm.iceberg.mappers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.spi.RecordMappingException;

/**
 * {@link IcebergValues}' conversions of structs, lists and maps, converting each member by its type.
 * A struct field takes the map value under its name or, when there is none and the field was
 * renamed, under its most recent former name that the map holds ({@code formerNames}, by field id;
 * the map is looked into again only for a field whose value is missing).
 */
final class NestedValues {
  private NestedValues() {}

  static Object toStruct(
      Types.StructType type, Map<?, ?> value, String path, StructLike struct, boolean internal,
      Map<Integer, List<String>> formerNames) {
    List<Types.NestedField> fields = type.fields();
    for (int pos = 0; pos < fields.size(); pos++) {
      Types.NestedField field = fields.get(pos);
      String fieldPath = path + "." + field.name();
      Object fieldValue = value.get(field.name());
      if (fieldValue == null && !formerNames.isEmpty()) {
        fieldValue = underFormerName(value, formerNames.get(field.fieldId()));
      }
      if (fieldValue == null && field.isRequired()) {
        throw new RecordMappingException(
            fieldPath, "required field '" + fieldPath + "' (" + field.type() + ") has no value");
      }
      struct.set(pos, IcebergValues.convert(field.type(), fieldValue, fieldPath, internal, formerNames));
    }
    return struct;
  }

  private static Object underFormerName(Map<?, ?> value, List<String> names) {
    if (names != null) {
      for (String name : names) {
        Object found = value.get(name);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  static Object toList(
      Types.ListType type, Object value, String path, boolean internal, Map<Integer, List<String>> formerNames) {
    List<?> elements;
    if (value instanceof List) {
      elements = (List<?>) value;
    } else if (value instanceof Object[]) {
      elements = Arrays.asList((Object[]) value);
    } else if (value.getClass().isArray()) {
      // A primitive array: int[], long[], double[], ...
      int length = java.lang.reflect.Array.getLength(value);
      List<Object> boxed = new ArrayList<>(length);
      for (int i = 0; i < length; i++) {
        boxed.add(java.lang.reflect.Array.get(value, i));
      }
      elements = boxed;
    } else {
      throw IcebergValues.mismatch(path, type, value, null);
    }
    List<Object> converted = new ArrayList<>(elements.size());
    String elementPath = path + ".element";
    for (Object element : elements) {
      if (element == null && type.isElementRequired()) {
        throw new RecordMappingException(elementPath, "list '" + path + "' holds a null element");
      }
      converted.add(IcebergValues.convert(type.elementType(), element, elementPath, internal, formerNames));
    }
    return converted;
  }

  static Object toMap(
      Types.MapType type, Map<?, ?> value, String path, boolean internal, Map<Integer, List<String>> formerNames) {
    Map<Object, Object> converted = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : value.entrySet()) {
      if (entry.getValue() == null && type.isValueRequired()) {
        throw new RecordMappingException(path + ".value", "map '" + path + "' holds a null value");
      }
      converted.put(
          IcebergValues.convert(type.keyType(), entry.getKey(), path + ".key", internal, formerNames),
          IcebergValues.convert(type.valueType(), entry.getValue(), path + ".value", internal, formerNames));
    }
    return converted;
  }
}
