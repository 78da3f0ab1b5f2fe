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
 * The snapshot-summary keys by which the sink's commits can be found again: a contract between the
 * sink, which writes them, and whatever must keep those snapshots (table maintenance) or read them
 * (inspection). The sink's newest snapshot of each kind is its token: a restart resumes from it.
 */
public final class SinkSnapshotKeys {
  /** Prefix of every key the sink writes; user snapshot properties may not use it. */
  public static final String RESERVED_PREFIX = "storm.iceberg.";
  /** The commit id of every snapshot the sink commits; a write-ahead-log entry settles by finding it. */
  public static final String COMMIT_ID = RESERVED_PREFIX + "commit-id";
  /** The source positions (Kafka offsets) that a sink's commits hold, all of them in its newest such snapshot. */
  public static final String SOURCE_POSITIONS = RESERVED_PREFIX + "source-positions";
  /** The sink (its WAL namespace) whose positions {@link #SOURCE_POSITIONS} holds. */
  public static final String POSITIONS_SCOPE = RESERVED_PREFIX + "positions-scope";
  /** The Trident state that committed a snapshot. */
  public static final String TRIDENT_STATE = RESERVED_PREFIX + "trident-state";
  /** The partition of {@link #TRIDENT_STATE} that committed a snapshot. */
  public static final String TRIDENT_PARTITION = RESERVED_PREFIX + "trident-partition";
  /** The Trident transaction a snapshot holds; a state's newest one says which transactions landed. */
  public static final String TRIDENT_TXID = RESERVED_PREFIX + "trident-txid";

  private SinkSnapshotKeys() {}
}
