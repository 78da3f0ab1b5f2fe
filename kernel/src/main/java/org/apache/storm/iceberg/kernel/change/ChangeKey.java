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

package org.apache.storm.iceberg.kernel.change;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.kernel.options.SinkSettings.RowLevel;
import org.apache.storm.iceberg.spi.FormerNamesSchema;

/**
 * The key a row-level sink changes a table by: the options' key columns, or the table's identifier
 * fields. Checked against the table when a task opens it, each refusal naming the column and the
 * fix.
 *
 * @param fieldIds the key's field ids, in the order named
 * @param schema the key's columns alone, as the table typed them when the task opened it
 */
public record ChangeKey(int[] fieldIds, Schema schema) {

  /**
   * The key of {@code table} for {@code rowLevel}.
   *
   * @throws IllegalStateException when the table cannot take row-level changes by that key
   */
  public static ChangeKey of(Table table, RowLevel rowLevel) {
    String mode = rowLevel.mode().name().toLowerCase(Locale.ROOT);
    int version = TableUtil.formatVersion(table);
    if (version < 2) {
      throw new IllegalStateException("Table " + table.name() + " has format version " + version + "; write mode " + mode
          + " writes delete files, which need format version 2 or later: upgrade it with"
          + " table.updateProperties().set(\"format-version\", \"2\").commit()");
    }
    Schema schema = table.schema();
    List<String> names = rowLevel.keyColumns().isEmpty() ? new ArrayList<>(schema.identifierFieldNames()) : rowLevel.keyColumns();
    if (names.isEmpty()) {
      throw new IllegalStateException("Table " + table.name() + " has no identifier fields and the options name no key:"
          + " write mode " + mode + " changes rows by key; set withKeyColumns(...) (Flux key-columns), or the table's"
          + " identifier fields (table.updateSchema().setIdentifierFields(...))");
    }
    Set<Integer> ids = new LinkedHashSet<>();
    for (String name : names) {
      Types.NestedField field = schema.findField(name);
      if (field == null) {
        throw new IllegalStateException("Key column " + name + " is not a column of table " + table.name() + "; columns: "
            + schema.columns().stream().map(Types.NestedField::name).toList());
      }
      if (schema.columns().stream().noneMatch(column -> column.fieldId() == field.fieldId())) {
        throw new IllegalStateException("Key column " + name + " of table " + table.name() + " is nested: key columns must"
            + " be top-level columns");
      }
      if (field.isOptional()) {
        throw new IllegalStateException("Key column " + name + " of table " + table.name() + " is optional: a key column"
            + " must be required (a null key names no row)");
      }
      Type type = field.type();
      if (!type.isPrimitiveType() || type.typeId() == Type.TypeID.FLOAT || type.typeId() == Type.TypeID.DOUBLE) {
        throw new IllegalStateException("Key column " + name + " of table " + table.name() + " is " + type
            + ": a key column must be a primitive other than float and double");
      }
      ids.add(field.fieldId());
    }
    if (table.specs().size() > 1) {
      throw new IllegalStateException("Table " + table.name() + " has had " + table.specs().size() + " partition specs:"
          + " an equality delete reaches only rows of its own spec and partition, so rows written under an earlier spec"
          + " could never be deleted. Write mode " + mode + " needs a table whose partition spec never changed (rewrite"
          + " it into a new table, or compact it under one spec and create a new table from it)");
    }
    for (PartitionField partition : table.spec().fields()) {
      if (!ids.contains(partition.sourceId())) {
        throw new IllegalStateException("Table " + table.name() + " is partitioned by " + schema.findColumnName(partition.sourceId())
            + ", which is not a key column: a row whose partition changed could never be deleted from its old"
            + " partition; in write mode " + mode + " partition by key columns only, or add it to withKeyColumns");
      }
    }
    int[] fieldIds = ids.stream().mapToInt(Integer::intValue).toArray();
    return new ChangeKey(fieldIds, TypeUtil.select(schema, ids));
  }

  /**
   * The key's columns as {@code batchSchema} types them: what a batch written against it deletes by.
   * A key column widened since the task opened the table (schema evolution) is read at its new type.
   */
  public Schema schemaIn(Schema batchSchema) {
    Set<Integer> ids = new LinkedHashSet<>();
    for (int id : fieldIds) {
      ids.add(id);
    }
    return TypeUtil.select(batchSchema, ids);
  }

  /**
   * The key columns of {@code mapperSchema} with their former names in {@code history}: what a
   * mapper maps a removing change against, since a delete may still carry a renamed key column
   * under its old name.
   */
  public FormerNamesSchema mapperSchema(Schema mapperSchema, Iterable<Schema> history) {
    Set<Integer> ids = new LinkedHashSet<>();
    for (int id : fieldIds) {
      ids.add(id);
    }
    return FormerNamesSchema.of(TypeUtil.select(mapperSchema, ids), history);
  }
}
