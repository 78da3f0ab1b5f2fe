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

package org.apache.storm.iceberg.bench.rows;

import java.util.ArrayList;
import java.util.List;

/**
 * The values of the rows every benchmark writes, as plain Java values, so that the Storm harnesses
 * and the Flink peer (which cannot share a classpath) write exactly the same rows. Column {@code c}
 * of row {@code r} is a value of {@link #kind(int) kind(c)}: the columns cycle through long, string,
 * double, timestamp with zone and int. A timestamp is epoch milliseconds, as a spout would emit it;
 * each side converts it to its own representation.
 */
public final class BenchRows {
  /** The type of a column's values. */
  public enum Kind {
    /** A {@code Long}. */
    LONG,
    /** A {@code String}. */
    STRING,
    /** A {@code Double}. */
    DOUBLE,
    /** A {@code Long}: epoch milliseconds of a timestamp with zone. */
    TIMESTAMP_MILLIS,
    /** An {@code Integer}. */
    INT
  }

  private static final Kind[] KINDS = Kind.values();
  private static final long EPOCH_MILLIS = 1_793_534_400_000L; // 2026-11-01T12:00:00Z

  private BenchRows() {}

  /** The kind of column {@code column} (0-based). */
  public static Kind kind(int column) {
    return KINDS[column % KINDS.length];
  }

  /** Column {@code column} of row {@code row}. */
  public static Object value(long row, int column) {
    switch (kind(column)) {
      case LONG:
        return row + column;
      case STRING:
        return "value-" + (row % 1000) + "-" + column;
      case DOUBLE:
        return row * 0.5d + column;
      case TIMESTAMP_MILLIS:
        return EPOCH_MILLIS + row * 10L;
      default:
        return (int) (row % 100_000) + column;
    }
  }

  /** The first {@code columns} values of row {@code row}. */
  public static List<Object> values(long row, int columns) {
    List<Object> values = new ArrayList<>(columns);
    for (int i = 0; i < columns; i++) {
      values.add(value(row, i));
    }
    return values;
  }
}
