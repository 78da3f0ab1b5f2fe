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
import org.apache.iceberg.Table;

/** Finds the snapshot that carries a commit id in its summary, walking back from the branch's newest one. */
final class SnapshotLookup {
  /** How far before the commit attempt the walk goes, to allow for clocks that disagree. */
  static final long CLOCK_SKEW_ALLOWANCE_MS = 10 * 60 * 1000L;

  private SnapshotLookup() {}

  /**
   * The id of the snapshot carrying {@code commitId} in {@code branch}'s ancestry, among those
   * committed after {@code attemptMillis} (less the skew allowance), or null. The caller refreshes
   * the table.
   */
  static Long find(Table table, CommitBranch branch, String commitId, long attemptMillis) {
    long oldestWorthLooking = attemptMillis - CLOCK_SKEW_ALLOWANCE_MS;
    for (Snapshot snapshot : branch.ancestry(table)) {
      if (commitId.equals(snapshot.summary().get(SummaryKeys.COMMIT_ID))) {
        return snapshot.snapshotId();
      }
      if (snapshot.timestampMillis() < oldestWorthLooking) {
        return null;
      }
    }
    return null;
  }
}
