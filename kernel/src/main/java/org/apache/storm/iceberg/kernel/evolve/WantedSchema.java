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

package org.apache.storm.iceberg.kernel.evolve;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.RecordMappingException;

/**
 * The schema a tuple's unfit values need, as the other side of Iceberg's {@code
 * UpdateSchema.unionByNameWith}: each value's type ({@link ValueTypes}), where the table has a field
 * of that name (or former name) the field's name and requiredness, so that the union only adds
 * fields and widens types (int to long, float to double, a decimal's precision) and never makes a
 * required column optional. A value whose column Iceberg cannot change to hold it is refused here,
 * before anything is committed.
 */
final class WantedSchema {
  private final FormerNamesSchema current;
  private final AtomicInteger ids = new AtomicInteger();

  private WantedSchema(FormerNamesSchema current) {
    this.current = current;
  }

  /**
   * @param values unfit values by top-level name
   * @return the schema to union with {@code current}; empty of fields when no value says what type
   *     it needs
   * @throws RecordMappingException naming the column, when a value conflicts with its column's type
   */
  static Schema of(FormerNamesSchema current, Map<String, Object> values) {
    WantedSchema wanted = new WantedSchema(current);
    return new Schema(wanted.fields(current.asStruct(), values, null));
  }

  private List<Types.NestedField> fields(Types.StructType existing, Map<?, ?> values, String parentPath) {
    List<Types.NestedField> fields = new ArrayList<>();
    for (Map.Entry<?, ?> entry : values.entrySet()) {
      String name = String.valueOf(entry.getKey());
      String path = parentPath == null ? name : parentPath + "." + name;
      Types.NestedField column = existing.field(name) != null ? existing.field(name) : underFormerName(existing, name);
      Type type = entry.getValue() == null ? null : fit(column == null ? null : column.type(), entry.getValue(), path);
      if (type != null) {
        String fieldName = column == null ? name : column.name();
        fields.add(column != null && column.isRequired()
            ? Types.NestedField.required(ids.incrementAndGet(), fieldName, type)
            : Types.NestedField.optional(ids.incrementAndGet(), fieldName, type));
      }
    }
    return fields;
  }

  private Types.NestedField underFormerName(Types.StructType existing, String name) {
    for (Types.NestedField field : existing.fields()) {
      if (current.formerNames(field.fieldId()).contains(name)) {
        return field;
      }
    }
    return null;
  }

  /** The type to union for {@code value} in a column of type {@code existing} (null: a new column). */
  private Type fit(Type existing, Object value, String path) {
    if (existing != null && existing.isStructType() && value instanceof Map<?, ?> map) {
      List<Types.NestedField> fields = fields(existing.asStructType(), map, path);
      return fields.isEmpty() ? null : Types.StructType.of(fields);
    }
    Type inferred = ValueTypes.of(value, path, ids::incrementAndGet);
    if (existing == null || inferred == null || existing.equals(inferred)) {
      return inferred;
    }
    if (existing.isPrimitiveType() && inferred.isPrimitiveType()
        && (TypeUtil.isPromotionAllowed(existing, inferred.asPrimitiveType())
            || TypeUtil.isPromotionAllowed(inferred, existing.asPrimitiveType()))) {
      return inferred;
    }
    throw new RecordMappingException(path, "column '" + path + "' is " + existing + " and the value is a "
        + value.getClass().getName() + " (" + inferred + "): Iceberg cannot change " + existing + " to " + inferred
        + ", so schema evolution cannot make room for it; send values of the column's type, or change the column"
        + " from outside");
  }
}
