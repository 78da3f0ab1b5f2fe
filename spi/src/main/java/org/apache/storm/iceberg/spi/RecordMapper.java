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

import java.io.Serializable;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.storm.tuple.ITuple;

/**
 * Turns one Storm tuple into one Iceberg record of the table's current schema.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>The returned record's struct is {@code schema.asStruct()}, with values in Iceberg's generic
 *       representation (for example {@code OffsetDateTime} for timestamptz, {@code LocalDate} for
 *       date).
 *   <li>A tuple that cannot be converted throws {@link RecordMappingException} naming the column;
 *       it is never dropped silently. The kernel adds the table and the tuple's origin.
 *   <li>{@code schema} may change between calls (a column added from outside); mappers must not
 *       assume it is fixed.
 *   <li>The kernel passes a {@link FormerNamesSchema}: the names each column had before it was
 *       renamed are in {@link FormerNamesSchema#formerNames} (and the most recent one in Iceberg's
 *       {@code schema.aliasToId}). A mapper that finds values by name should take a value found
 *       under a former name for the renamed column, after the current names: otherwise a rename
 *       made from outside silently turns that column's values into nulls.
 *   <li>The kernel writes the record before it maps the next tuple and keeps no reference to it,
 *       so a mapper may return the same record object on every call, overwriting every field, or a
 *       new one. Whoever else calls a mapper and keeps its records must copy them.
 *   <li>Instances travel inside the topology, so they are {@link Serializable}; one instance is used
 *       by one task's thread at a time.
 * </ul>
 *
 * <p>{@link ITuple} rather than {@code Tuple} lets one mapper serve bolts and Trident.
 */
public interface RecordMapper extends Serializable {
  Record map(ITuple tuple, Schema schema);

  /**
   * Whether every {@link #map} call (and, for an {@link InternalRowMapper}, every {@code mapInternal}
   * call) returns a new record that the mapper never changes afterwards.
   * Callers that keep records (row-level writes hold each key's row until the batch seals) copy each
   * one unless this says so. False by default; a mapper that may return the same record twice must
   * leave it false.
   */
  default boolean returnsNewRecords() {
    return false;
  }
}
