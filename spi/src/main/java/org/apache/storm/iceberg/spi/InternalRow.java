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

package org.apache.storm.iceberg.spi;

import java.util.Arrays;
import org.apache.iceberg.StructLike;

/**
 * A row of a struct type (a table's schema, or a nested struct) with its values in Iceberg's
 * <b>internal</b> representation, position by position in the struct's field order.
 *
 * <p>The internal representation is what Iceberg's Parquet {@code InternalWriter} encodes without
 * converting: {@code Integer} days for date; {@code Long} microseconds for time, timestamp and
 * timestamptz (from midnight, from the epoch in local time, and from the epoch in UTC);
 * {@code ByteBuffer} for binary and fixed; {@code CharSequence} for string; {@code BigDecimal},
 * {@code UUID}, the boxed primitives as in the generic model; another {@code StructLike} for a
 * nested struct; {@code List} and {@code Map} for lists and maps.
 *
 * <p>Not thread-safe. A mapper may overwrite and return one row for every tuple, or return a new
 * one (see {@link RecordMapper}).
 */
public final class InternalRow implements StructLike {
  private final Object[] values;

  /** A row of {@code size} fields, all null. */
  public InternalRow(int size) {
    this.values = new Object[size];
  }

  @Override
  public int size() {
    return values.length;
  }

  @Override
  public <T> T get(int pos, Class<T> javaClass) {
    return javaClass.cast(values[pos]);
  }

  @Override
  public <T> void set(int pos, T value) {
    values[pos] = value;
  }

  @Override
  public String toString() {
    return "InternalRow" + Arrays.toString(values);
  }
}
