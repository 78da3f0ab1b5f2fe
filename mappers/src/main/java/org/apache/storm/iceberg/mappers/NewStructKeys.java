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

import java.util.List;
import java.util.Map;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Finds, in a {@code Map} value for a struct column, a key with a non-null value that names no field
 * of the struct (under its current or a former name), at any depth of structs within structs: a
 * field the schema would have to gain. Structs inside lists and maps are not looked into.
 */
final class NewStructKeys {
  private NewStructKeys() {}

  /**
   * @param formerNames the former names of renamed fields, by field id ({@link
   *     org.apache.storm.iceberg.spi.FormerNamesSchema#formerNamesById})
   */
  static boolean in(Types.StructType struct, Map<?, ?> value, Map<Integer, List<String>> formerNames) {
    int known = 0;
    for (Types.NestedField field : struct.fields()) {
      Object member = value.get(field.name());
      String foundUnder = member != null || value.containsKey(field.name()) ? field.name() : null;
      if (foundUnder == null) {
        for (String former : formerNames.getOrDefault(field.fieldId(), List.of())) {
          if (value.containsKey(former)) {
            member = value.get(former);
            foundUnder = former;
            break;
          }
        }
      }
      if (foundUnder != null) {
        known++;
        if (member instanceof Map<?, ?> nested && field.type().isStructType()
            && in(field.type().asStructType(), nested, formerNames)) {
          return true;
        }
      }
    }
    return known < value.size() && hasNonNullUnknown(struct, value, formerNames);
  }

  /** Slow path, for a map with more keys than it has fields: is one of the others non-null? */
  private static boolean hasNonNullUnknown(Types.StructType struct, Map<?, ?> value, Map<Integer, List<String>> formerNames) {
    for (Map.Entry<?, ?> entry : value.entrySet()) {
      if (entry.getValue() != null && !names(struct, String.valueOf(entry.getKey()), formerNames)) {
        return true;
      }
    }
    return false;
  }

  private static boolean names(Types.StructType struct, String key, Map<Integer, List<String>> formerNames) {
    for (Types.NestedField field : struct.fields()) {
      if (field.name().equals(key) || formerNames.getOrDefault(field.fieldId(), List.of()).contains(key)) {
        return true;
      }
    }
    return false;
  }

  /** Whether values of {@code type} are looked into: only structs are. */
  static boolean looksInto(Type type) {
    return type.isStructType();
  }
}
