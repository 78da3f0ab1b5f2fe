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

import org.apache.iceberg.Snapshot;

/**
 * The newest transaction a {@link TransactionScope} committed to a table.
 *
 * @param txid its Trident transaction id
 * @param snapshotId the snapshot that holds it
 * @param commitId the commit id that snapshot carries
 */
record LastTransaction(long txid, long snapshotId, String commitId) {

  /**
   * The newest snapshot of {@code scope} in {@code ancestry} (newest first), or null when it has
   * none. It walks only as far as that snapshot: its cost grows with the snapshots committed since
   * (by other partitions and other writers), bounded by the snapshots the table keeps.
   */
  static LastTransaction in(Iterable<Snapshot> ancestry, TransactionScope scope) {
    return read(ancestry, scope).last();
  }

  /** {@link #in}, and where the history was cut when no snapshot of the scope was found: one walk. */
  static Read read(Iterable<Snapshot> ancestry, TransactionScope scope) {
    Snapshot oldest = null;
    for (Snapshot snapshot : ancestry) {
      if (scope.owns(snapshot)) {
        return new Read(new LastTransaction(
            Long.parseLong(snapshot.summary().get(TransactionScope.TXID_KEY)),
            snapshot.snapshotId(),
            snapshot.summary().get(SummaryKeys.COMMIT_ID)), null);
      }
      oldest = snapshot;
    }
    // The whole ancestry walked: it ends at the table's first snapshot, or at one whose parent was expired.
    return new Read(null, oldest != null && oldest.parentId() != null ? oldest.snapshotId() : null);
  }

  /**
   * What a walk found.
   *
   * @param last the scope's newest transaction, or null for none
   * @param historyCutAt when there was none and the ancestry ends at a snapshot whose parent was
   *     expired: that snapshot's id, since the scope's newest transaction may have been expired with
   *     its parent; otherwise null
   */
  record Read(LastTransaction last, Long historyCutAt) {}
}
