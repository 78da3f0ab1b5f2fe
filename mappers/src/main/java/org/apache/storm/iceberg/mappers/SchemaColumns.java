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
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.mappers.IcebergValues.Conversion;
import org.apache.storm.iceberg.spi.FormerNamesSchema;

/**
 * A schema's top-level columns with each column's conversion to both representations, built once
 * per schema (with its former names) and shared by every tuple field layout mapped against it.
 */
final class SchemaColumns {
  final Schema schema;
  final Types.NestedField[] columns;
  final Conversion[] toGeneric;
  final Conversion[] toInternal;
  /**
   * Per column, the class of the values both representations keep as they are, or null. Checking it
   * before calling the conversion keeps the common case out of a call site that sees one conversion
   * class per column type.
   */
  final Class<?>[] keptAsIs;
  /**
   * Per column, its write default in each representation, or null: the value a tuple without the
   * column's field gets (a tuple whose field holds null keeps the null).
   */
  final Object[] genericDefaults;
  final Object[] internalDefaults;
  /** Copied for each tuple: cheaper than {@code GenericRecord.create}, which looks its field names up. */
  final Record emptyRecord;

  SchemaColumns(Schema schema) {
    this.schema = schema;
    this.columns = schema.columns().toArray(new Types.NestedField[0]);
    this.toGeneric = new Conversion[columns.length];
    this.toInternal = new Conversion[columns.length];
    this.keptAsIs = new Class<?>[columns.length];
    this.genericDefaults = new Object[columns.length];
    this.internalDefaults = new Object[columns.length];
    Map<Integer, List<String>> formerNames = FormerNamesSchema.formerNamesById(schema);
    for (int pos = 0; pos < columns.length; pos++) {
      toGeneric[pos] = IcebergValues.conversion(columns[pos].type(), columns[pos].name(), formerNames);
      toInternal[pos] = IcebergValues.internalConversion(columns[pos].type(), columns[pos].name(), formerNames);
      keptAsIs[pos] = ScalarConversions.keptAsIs(columns[pos].type());
      // Iceberg keeps a write default in its internal representation.
      internalDefaults[pos] = columns[pos].writeDefault();
      genericDefaults[pos] = internalDefaults[pos] == null ? null
          : org.apache.iceberg.data.GenericDataUtil.internalToGeneric(columns[pos].type(), internalDefaults[pos]);
    }
    this.emptyRecord = GenericRecord.create(schema);
  }

  /**
   * Whether two schemas have the same id, columns and former names, so that what was built for one
   * serves the other: each table refresh that reads new metadata parses a new, equal Schema object.
   */
  static boolean same(Schema schema, Schema other) {
    return schema.schemaId() == other.schemaId()
        && schema.asStruct().equals(other.asStruct())
        && FormerNamesSchema.formerNamesById(schema).equals(FormerNamesSchema.formerNamesById(other));
  }
}
