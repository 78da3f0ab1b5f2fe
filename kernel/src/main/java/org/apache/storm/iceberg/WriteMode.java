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

/**
 * What each tuple does to the table ({@link IcebergOptions.Builder#withWriteMode}).
 *
 * <ul>
 *   <li>{@link #APPEND}: each tuple is a new row (the default).
 *   <li>{@link #UPSERT}: each tuple is the new full row of its key, inserted or replacing the row the
 *       table holds; with an operation field, a delete removes the key.
 *   <li>{@link #CHANGELOG}: each tuple carries an operation (insert, update-before, update-after,
 *       delete) and a sequence number; the table ends as the source's final state per key.
 * </ul>
 *
 * <p>Row-level modes ({@code UPSERT}, {@code CHANGELOG}) need key columns and a deterministic source
 * identity (Kafka source positions, or a transactional or opaque Trident state), and commit each batch
 * as one Iceberg row delta.
 */
public enum WriteMode {
  APPEND,
  UPSERT,
  CHANGELOG;

  /** The mode named {@code name}, case-insensitively ({@code append}, {@code upsert}, {@code changelog}). */
  public static WriteMode named(String name) {
    for (WriteMode mode : values()) {
      if (mode.name().equalsIgnoreCase(name == null ? "" : name.trim())) {
        return mode;
      }
    }
    throw new IllegalArgumentException("write-mode must be one of append, upsert, changelog; got '" + name + "'");
  }
}
