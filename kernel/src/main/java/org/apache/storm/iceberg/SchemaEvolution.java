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

package org.apache.storm.iceberg;

import java.util.Locale;

/**
 * What the sink may change in the table's schema to hold a tuple's values ({@link
 * IcebergOptions.Builder#withSchemaEvolution}). Off by default: the schema is changed from outside.
 */
public enum SchemaEvolution {
  /** The schema is never changed by the sink: a field with no column is ignored by the mapper. */
  OFF,
  /**
   * A tuple value with no column adds an optional column (a {@code Map} a struct), a map key with no
   * field in its struct column adds the field, and a value wider than its column widens the column
   * where Iceberg allows it (int to long, float to double, a decimal's precision). Nothing is ever
   * dropped, renamed, narrowed or made optional; any other mismatch stays a mapping error.
   */
  ADD_AND_WIDEN;

  /** The mode named as in Flux: {@code off} or {@code add-and-widen}, case and '-'/'_' ignored. */
  public static SchemaEvolution named(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new IllegalArgumentException("schema-evolution takes off or add-and-widen, got '" + name + "'");
    }
  }
}
