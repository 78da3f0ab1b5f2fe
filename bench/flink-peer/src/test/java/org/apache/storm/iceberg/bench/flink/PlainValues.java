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
import org.apache.flink.table.data.RowData;
import org.apache.storm.iceberg.bench.rows.BenchRows;

/** A Flink row read back into the plain values a Storm spout emits, so that both peers' rows hash alike. */
final class PlainValues {
  private PlainValues() {}

  /** The row's values as a Storm spout of the benchmarks emits them. */
  static List<Object> of(RowData row, int columns) {
    List<Object> values = new ArrayList<>(columns);
    for (int i = 0; i < columns; i++) {
      switch (BenchRows.kind(i)) {
        case LONG:
          values.add(row.getLong(i));
          break;
        case STRING:
          values.add(row.getString(i).toString());
          break;
        case DOUBLE:
          values.add(row.getDouble(i));
          break;
        case TIMESTAMP_MILLIS:
          values.add(row.getTimestamp(i, 6).getMillisecond());
          break;
        default:
          values.add(row.getInt(i));
      }
    }
    return values;
  }
}
