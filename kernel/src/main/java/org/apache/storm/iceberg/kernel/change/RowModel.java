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

import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.storm.iceberg.spi.InternalRow;

/**
 * How a batch of changes holds its rows: as Iceberg's generic {@link Record}s, whose values are
 * Java values (an {@code OffsetDateTime} for a timestamp), or as {@link InternalRow}s, whose values
 * are Iceberg's internal ones (microseconds as a {@code long}), which the Parquet writer encodes
 * without converting. The collapse and the delta writer compare keys and read partitions in the
 * internal representation either way.
 *
 * @param <R> the row type
 */
public final class RowModel<R extends StructLike> {
  /** Generic records: what every record mapper builds and every file format writes. */
  public static final RowModel<Record> GENERIC = new RowModel<>(false, schema -> {
    Record empty = GenericRecord.create(schema);
    return empty::copy; // copy() shares the template's field index; create(schema) looks it up per call
  });

  /** Internal rows: what an {@code InternalRowMapper} builds, for a format with an internal-row writer. */
  public static final RowModel<InternalRow> INTERNAL = new RowModel<>(true, schema -> {
    int size = schema.columns().size();
    return () -> new InternalRow(size);
  });

  private final boolean internalValues;
  private final Function<Schema, Supplier<R>> emptyRows;

  private RowModel(boolean internalValues, Function<Schema, Supplier<R>> emptyRows) {
    this.internalValues = internalValues;
    this.emptyRows = emptyRows;
  }

  /** Whether the rows' values are Iceberg's internal ones already. */
  public boolean internalValues() {
    return internalValues;
  }

  /** New rows of {@code schema}'s top-level columns, all null, one a call. */
  public Supplier<R> emptyRows(Schema schema) {
    return emptyRows.apply(schema);
  }

  /**
   * Reads a row of {@code schema} in Iceberg's internal representation, as partition transforms and
   * key comparisons need it. The view it returns is reused by the next call: not thread-safe.
   */
  public UnaryOperator<StructLike> internalView(Schema schema) {
    if (internalValues) {
      return UnaryOperator.identity();
    }
    InternalRecordWrapper wrapper = new InternalRecordWrapper(schema.asStruct());
    return wrapper::wrap;
  }

  /**
   * Sets {@code target}'s values to {@code source}'s first {@code target.size()} values, position by
   * position (a shallow copy), and returns it.
   */
  public static <R extends StructLike> R fill(R target, StructLike source) {
    for (int i = 0; i < target.size(); i++) {
      target.set(i, source.get(i, Object.class));
    }
    return target;
  }

  @Override
  public String toString() {
    return internalValues ? "internal rows" : "generic records";
  }
}
