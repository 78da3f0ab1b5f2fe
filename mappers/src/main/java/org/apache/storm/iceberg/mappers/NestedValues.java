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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.mappers.IcebergValues.Conversion;
import org.apache.storm.iceberg.spi.RecordMappingException;

/**
 * The conversions of structs, lists and maps, each converting its members with the members'
 * conversions, built with it ({@link ConversionVisitor}).
 */
final class NestedValues {
  private NestedValues() {}

  /**
   * A struct from a {@code Map} by field name. A field takes the map value under its name or, when
   * there is none and the field was renamed, under its most recent former name that the map holds
   * (the map is looked into again only for a field whose value is missing).
   */
  static final class StructConversion implements Conversion {
    private final Types.StructType type;
    private final String path;
    private final Types.NestedField[] fields;
    private final String[] fieldPaths;
    /** Per field, its former names, most recent first, or null. */
    private final String[][] formerNames;
    private final Conversion[] conversions;
    private final Supplier<StructLike> newStruct;

    StructConversion(
        Types.StructType type, String path, String[] fieldPaths, String[][] formerNames, Conversion[] conversions,
        Supplier<StructLike> newStruct) {
      this.type = type;
      this.path = path;
      this.fields = type.fields().toArray(new Types.NestedField[0]);
      this.fieldPaths = fieldPaths;
      this.formerNames = formerNames;
      this.conversions = conversions;
      this.newStruct = newStruct;
    }

    @Override
    public Object apply(Object value) {
      if (!(value instanceof Map<?, ?> map)) {
        throw IcebergValues.mismatch(path, type, value, null);
      }
      StructLike struct = newStruct.get();
      for (int pos = 0; pos < fields.length; pos++) {
        Object fieldValue = map.get(fields[pos].name());
        if (fieldValue == null && formerNames[pos] != null) {
          fieldValue = underFormerName(map, formerNames[pos]);
        }
        if (fieldValue != null) {
          struct.set(pos, conversions[pos].apply(fieldValue));
        } else if (fields[pos].isRequired()) {
          throw new RecordMappingException(
              fieldPaths[pos], "required field '" + fieldPaths[pos] + "' (" + fields[pos].type() + ") has no value");
        }
      }
      return struct;
    }

    private static Object underFormerName(Map<?, ?> value, String[] names) {
      for (String name : names) {
        Object found = value.get(name);
        if (found != null) {
          return found;
        }
      }
      return null;
    }
  }

  /** A list from a {@code List} or any Java array. */
  static final class ListConversion implements Conversion {
    private final Types.ListType type;
    private final String path;
    private final String elementPath;
    private final Conversion element;

    ListConversion(Types.ListType type, String path, Conversion element) {
      this.type = type;
      this.path = path;
      this.elementPath = path + ".element";
      this.element = element;
    }

    @Override
    public Object apply(Object value) {
      List<?> elements;
      if (value instanceof List<?> list) {
        elements = list;
      } else if (value instanceof Object[] array) {
        elements = Arrays.asList(array);
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
      for (Object member : elements) {
        if (member == null && type.isElementRequired()) {
          throw new RecordMappingException(elementPath, "list '" + path + "' holds a null element");
        }
        converted.add(member == null ? null : element.apply(member));
      }
      return converted;
    }
  }

  /** A map from a {@code Map}, its keys and values converted by their types. */
  static final class MapConversion implements Conversion {
    private final Types.MapType type;
    private final String path;
    private final Conversion key;
    private final Conversion value;

    MapConversion(Types.MapType type, String path, Conversion key, Conversion value) {
      this.type = type;
      this.path = path;
      this.key = key;
      this.value = value;
    }

    @Override
    public Object apply(Object map) {
      if (!(map instanceof Map<?, ?> entries)) {
        throw IcebergValues.mismatch(path, type, map, null);
      }
      Map<Object, Object> converted = new LinkedHashMap<>();
      for (Map.Entry<?, ?> entry : entries.entrySet()) {
        if (entry.getValue() == null && type.isValueRequired()) {
          throw new RecordMappingException(path + ".value", "map '" + path + "' holds a null value");
        }
        converted.put(
            entry.getKey() == null ? null : key.apply(entry.getKey()),
            entry.getValue() == null ? null : value.apply(entry.getValue()));
      }
      return converted;
    }
  }
}
