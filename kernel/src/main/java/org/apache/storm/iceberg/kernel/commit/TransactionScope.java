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

package org.apache.storm.iceberg.kernel.commit;

import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.storm.iceberg.spi.SinkSnapshotKeys;

/**
 * One partition of one Trident state, as the sink's snapshots name it. A state's name joins the WAL
 * namespace, the topology's name and the state name the options set, so it survives a redeploy; the
 * partition is the state task's index, or {@link #WHOLE_STREAM} for the one committer of a whole
 * stream. Every snapshot of a transaction carries its scope and txid in its summary, and a commit id
 * built from them: the table alone says which transactions of which partition landed.
 *
 * @param state the state's full name
 * @param partition the partition index, or {@link #WHOLE_STREAM}
 */
public record TransactionScope(String state, String partition) {
  /** The partition name of a state that commits a whole stream's transaction at once. */
  public static final String WHOLE_STREAM = "whole-stream";

  static final String STATE_KEY = SinkSnapshotKeys.TRIDENT_STATE;
  static final String PARTITION_KEY = SinkSnapshotKeys.TRIDENT_PARTITION;
  static final String TXID_KEY = SinkSnapshotKeys.TRIDENT_TXID;

  public static TransactionScope of(String walNamespace, String topology, String stateName, String partition) {
    return new TransactionScope(walNamespace + "/" + topology + "/" + stateName, partition);
  }

  /** The commit id of the first commit of {@code txid}: the same on every replay of it. */
  String commitId(long txid) {
    return "trident:" + state + ":" + partition + ":" + txid;
  }

  /** The commit id of a commit that replaces the snapshot {@code replacedSnapshotId} of {@code txid}. */
  String replacementCommitId(long txid, long replacedSnapshotId) {
    return commitId(txid) + ":replaces-" + replacedSnapshotId;
  }

  /** Whether {@code snapshot} was committed by this scope. */
  boolean owns(Snapshot snapshot) {
    Map<String, String> summary = snapshot.summary();
    return summary != null && state.equals(summary.get(STATE_KEY)) && partition.equals(summary.get(PARTITION_KEY));
  }

  /** The summary keys that tie a commit of {@code txid} to this scope. */
  Map<String, String> summaryOf(long txid) {
    return Map.of(STATE_KEY, state, PARTITION_KEY, partition, TXID_KEY, Long.toString(txid));
  }
}
