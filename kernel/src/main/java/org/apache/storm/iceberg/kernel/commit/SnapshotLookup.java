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

/**
 * Finds the snapshot that carries a commit id in its summary, walking back from the branch's newest
 * one, and only over the snapshots that can carry it: those committed after the commit was
 * attempted ({@link Window}). The walk so costs the commits made since the attempt, however long the
 * table's history.
 */
public final class SnapshotLookup {
  /** How far before the commit attempt a walk without a known base goes, to allow for clocks that disagree. */
  static final long CLOCK_SKEW_ALLOWANCE_MS = 10 * 60 * 1000L;

  private SnapshotLookup() {}

  /**
   * Where a commit's snapshot can be. Its attempt read the branch's head ({@code baseSnapshotId})
   * before it reached the catalog, so a snapshot it made descends from that head: the walk stops
   * there. When the head is unknown (a WAL entry read at a restart records only when it was written)
   * or is not in the ancestry any more (the branch was rolled back), the walk stops at the first
   * snapshot committed more than {@link #CLOCK_SKEW_ALLOWANCE_MS} before the attempt.
   *
   * @param baseSnapshotId the branch's head when the commit was attempted, or null for none or unknown
   * @param attemptMillis when the commit was attempted
   */
  public record Window(Long baseSnapshotId, long attemptMillis) {
    /** The window of a commit attempted now, at {@code attemptMillis}, on {@code branch} of {@code table} as it stands. */
    public static Window attemptedOn(Table table, CommitBranch branch, long attemptMillis) {
      Snapshot head = branch.head(table);
      return new Window(head == null ? null : head.snapshotId(), attemptMillis);
    }

    /** Whether {@code snapshot}, and so every snapshot before it, was committed before the attempt. */
    boolean predates(Snapshot snapshot) {
      return (baseSnapshotId != null && snapshot.snapshotId() == baseSnapshotId)
          || snapshot.timestampMillis() < attemptMillis - CLOCK_SKEW_ALLOWANCE_MS;
    }
  }

  /**
   * The id of the snapshot carrying {@code commitId} in {@code branch}'s ancestry, within {@code
   * window}, or null. The caller refreshes the table.
   */
  public static Long find(Table table, CommitBranch branch, String commitId, Window window) {
    return find(branch.ancestry(table), commitId, window);
  }

  /** The id of the snapshot of {@code ancestry} (newest first) carrying {@code commitId} within {@code window}, or null. */
  static Long find(Iterable<Snapshot> ancestry, String commitId, Window window) {
    for (Snapshot snapshot : ancestry) {
      if (commitId.equals(snapshot.summary().get(SummaryKeys.COMMIT_ID))) {
        return snapshot.snapshotId();
      }
      if (window.predates(snapshot)) {
        return null;
      }
    }
    return null;
  }
}
