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

package org.apache.storm.iceberg.bench.flink;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.bench.rows.BenchRows;

/**
 * The Storm benchmarks' rows ({@link BenchRows}) for Flink: their Iceberg schema and each row in
 * Flink's internal row format, so the peers write exactly the same values.
 */
final class FlinkRows {
  private FlinkRows() {}

  /** Columns {@code c0..}, optional, typed as {@code bench}'s {@code BenchData} types them. */
  static Schema schema(int columns) {
    List<Types.NestedField> fields = new ArrayList<>();
    for (int i = 0; i < columns; i++) {
      fields.add(Types.NestedField.optional(i + 1, "c" + i, type(i)));
    }
    return new Schema(fields);
  }

  /**
   * The schema of the row-level benchmarks' table: {@code c0} required and, when {@code identified},
   * the table's identifier field, as {@code RowLevelCost} makes it.
   */
  static Schema keyed(int columns, boolean identified) {
    List<Types.NestedField> fields = new ArrayList<>(schema(columns).columns());
    Types.NestedField key = fields.get(0);
    fields.set(0, Types.NestedField.required(key.fieldId(), key.name(), key.type()));
    return identified ? new Schema(fields, Set.of(key.fieldId())) : new Schema(fields);
  }

  private static Type type(int column) {
    switch (BenchRows.kind(column)) {
      case LONG:
        return Types.LongType.get();
      case STRING:
        return Types.StringType.get();
      case DOUBLE:
        return Types.DoubleType.get();
      case TIMESTAMP_MILLIS:
        return Types.TimestampType.withZone();
      default:
        return Types.IntegerType.get();
    }
  }

  /** Row {@code row}'s first {@code columns} values in Flink's internal row format. */
  static RowData row(long row, int columns) {
    GenericRowData data = new GenericRowData(columns);
    for (int i = 0; i < columns; i++) {
      Object value = BenchRows.value(row, i);
      switch (BenchRows.kind(i)) {
        case STRING:
          value = StringData.fromString((String) value);
          break;
        case TIMESTAMP_MILLIS:
          value = TimestampData.fromEpochMillis((Long) value);
          break;
        default:
          break;
      }
      data.setField(i, value);
    }
    return data;
  }
}
