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

import java.util.List;
import org.apache.storm.tuple.Fields;

/**
 * The fields of the tuples the sinks emit on their commit-event stream ({@code
 * IcebergOptions.Builder#withCommitEvents}), one per commit that landed, unanchored: table
 * maintenance is driven by them, and a lost event only delays it. Read them by name.
 */
public final class CommitEventFields {
  /** The table, as the catalog names it ({@code db.events}). */
  public static final String TABLE = "table";
  /** The snapshot the commit made. */
  public static final String SNAPSHOT_ID = "snapshot_id";
  /** That snapshot's sequence number. */
  public static final String SEQUENCE_NUMBER = "sequence_number";
  /** Data files the commit added. */
  public static final String DATA_FILES = "data_files";
  /** Bytes of those data files. */
  public static final String DATA_BYTES = "data_bytes";
  /** Delete files (equality deletes) the commit added. */
  public static final String DELETE_FILES = "delete_files";
  /** How long the commit took, in milliseconds, retries included. */
  public static final String DURATION_MILLIS = "duration_ms";

  private static final List<String> ALL = List.of(TABLE, SNAPSHOT_ID, SEQUENCE_NUMBER, DATA_FILES, DATA_BYTES, DELETE_FILES, DURATION_MILLIS);

  private CommitEventFields() {}

  /** All of them, in the order of the tuple's values. */
  public static Fields fields() {
    return new Fields(ALL);
  }
}
