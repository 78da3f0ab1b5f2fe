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
    for (Snapshot snapshot : ancestry) {
      if (scope.owns(snapshot)) {
        return new LastTransaction(
            Long.parseLong(snapshot.summary().get(TransactionScope.TXID_KEY)),
            snapshot.snapshotId(),
            snapshot.summary().get(SummaryKeys.COMMIT_ID));
      }
    }
    return null;
  }
}
