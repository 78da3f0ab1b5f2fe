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

/**
 * A {@link RecordMapper} that can tell the kernel which of a tuple's values the schema has no room
 * for, so that the sink's schema evolution ({@code withSchemaEvolution}) can add columns and widen
 * types for them. {@link RecordMapper#map} keeps its signature: the mapper reports such values by
 * throwing {@link UnfitValuesException}.
 *
 * <p>Until {@link #reportUnfitValues()} is called, the mapper behaves as any {@link RecordMapper}: a
 * value with no column is ignored (or refused, if the mapper is strict) and a value its column's type
 * cannot hold is a {@link RecordMappingException}. The kernel calls it once, before the first tuple,
 * and only when schema evolution is on.
 */
public interface SchemaEvolvingMapper extends RecordMapper {
  /**
   * From now on, {@link RecordMapper#map} (and {@code mapInternal}, for an {@link InternalRowMapper})
   * throws {@link UnfitValuesException} for a tuple holding a non-null value that has no column
   * (top-level, or a key of a {@code Map} value that has no field in the struct column it fills), or
   * that its column's type cannot hold. A null value is never reported: it has no type to add.
   */
  void reportUnfitValues();

  /**
   * As {@link #reportUnfitValues()}, except for the tuple fields {@code notColumns} names: fields the
   * sink reads for something else (a row-level change's operation and sequence number), which must
   * never become columns. The default reports them too (then schema evolution adds them as columns);
   * a mapper that matches tuple fields to columns by name should leave them out.
   */
  default void reportUnfitValues(java.util.Set<String> notColumns) {
    reportUnfitValues();
  }
}
