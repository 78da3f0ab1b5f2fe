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

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Thrown by a {@link SchemaEvolvingMapper} that was asked to {@linkplain
 * SchemaEvolvingMapper#reportUnfitValues report} them: the tuple holds values the schema has no room
 * for. Each is given whole, by its top-level name: the value of a field with no column, or the whole
 * value of a column that cannot hold it (a {@code Map} for a struct column with a key the struct
 * lacks, a {@code Long} too large for an {@code int} column). The kernel infers the values' types,
 * changes the schema to hold them, and maps the tuple again; a value it cannot make room for becomes
 * a mapping error naming the column.
 */
public class UnfitValuesException extends RecordMappingException {
  private static final long serialVersionUID = 1L;

  /** Not serialized: the values are the tuple's, and the kernel reads them on the thread that caught this. */
  private final transient Map<String, Object> values;

  /**
   * @param values each unfit value by its top-level name (a tuple field or column name), in tuple
   *     order; not empty, no null value
   * @param refusal the error the mapper would have thrown without schema evolution, or null when it
   *     would have ignored the values; the kernel reports it when the schema cannot change for them
   */
  public UnfitValuesException(Map<String, Object> values, RecordMappingException refusal) {
    super(values.keySet().iterator().next(), "tuple fields " + values.keySet()
        + " have no column or do not fit their column's type", refusal);
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** The error the mapper would have thrown without schema evolution, or null. */
  public RecordMappingException refusal() {
    return getCause() instanceof RecordMappingException refusal ? refusal : null;
  }

  /** Each unfit value by its top-level name, in tuple order. */
  public Map<String, Object> values() {
    return values == null ? Map.of() : values;
  }
}
