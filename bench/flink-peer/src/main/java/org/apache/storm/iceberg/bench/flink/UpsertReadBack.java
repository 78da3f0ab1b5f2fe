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

import java.io.IOException;
import java.util.BitSet;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.storm.iceberg.bench.rows.BenchRows;

/** Reads a table of the peers' rows back with Iceberg's generic reader, deletes applied, and checks it against the model. */
final class UpsertReadBack {
  private UpsertReadBack() {}

  /**
   * Throws unless the table holds {@code rows} rows with the keys 0 to {@code rows - 1}, each once,
   * each row {@code BenchRows.values(key)} (the keys {@code UpsertKeys} numbers as they appear).
   */
  static void check(Table table, int columns, long rows) throws IOException {
    BitSet seen = new BitSet();
    long read = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        long key = (Long) record.get(0);
        if (key < 0 || key >= rows || seen.get((int) key)) {
          throw new IllegalStateException(table.name() + ": key " + key + " is unexpected or read twice");
        }
        seen.set((int) key);
        read++;
        List<Object> expected = BenchRows.values(key, columns);
        for (int i = 1; i < columns; i++) {
          Object value = record.get(i);
          if (BenchRows.kind(i) == BenchRows.Kind.TIMESTAMP_MILLIS) {
            value = ((java.time.OffsetDateTime) value).toInstant().toEpochMilli();
          }
          if (!expected.get(i).equals(value)) {
            throw new IllegalStateException(table.name() + ": key " + key + " column c" + i + " is " + value + ", not " + expected.get(i));
          }
        }
      }
    }
    if (read != rows) {
      throw new IllegalStateException(table.name() + ": read " + read + " rows, expected " + rows);
    }
  }
}
