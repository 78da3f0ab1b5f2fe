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

import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.relocated.com.google.common.util.concurrent.MoreExecutors;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The branch a sink commits to, and the one ancestry every lookup of the commit stage walks: the
 * commit-id lookup, the same-id retry's validators (Iceberg hands them the target branch's
 * ancestry), the stale-WAL check, the source-positions ledger and a Trident scope's last
 * transaction. Looking anywhere else would miss commits that landed on the branch, or find ones that
 * did not.
 *
 * <p>A branch that does not exist yet is created by the first commit, from {@code main}'s current
 * snapshot, as Iceberg's {@code toBranch} does (or empty, on a table without snapshots); until then
 * its ancestry is {@code main}'s, which is the ancestry it will be created with. A tag of that name
 * is refused: commits cannot land on a tag.
 *
 * @param name the branch, {@link SnapshotRef#MAIN_BRANCH} for the table's main line
 */
public record CommitBranch(String name) {
  private static final Logger LOG = LoggerFactory.getLogger(CommitBranch.class);
  /**
   * Where a commit's manifest work runs. Iceberg's shared worker pool waits for its tasks by
   * polling every 10 ms, so a sink's small append, which writes one manifest and reads few, spent
   * much of its commit idle; on the committing thread it is done when the work is (a median
   * commit 0.53× as long: docs/BENCHMARKS.md, CommitLatency).
   */
  private static final ExecutorService ON_THE_CALLING_THREAD = MoreExecutors.newDirectExecutorService();
  public static final CommitBranch MAIN = new CommitBranch(SnapshotRef.MAIN_BRANCH);

  /** The branch's newest snapshot, {@code main}'s while the branch does not exist, or null for none. */
  public Snapshot head(Table table) {
    if (SnapshotRef.MAIN_BRANCH.equals(name)) {
      return table.currentSnapshot();
    }
    SnapshotRef ref = table.refs().get(name);
    return ref == null ? table.currentSnapshot() : table.snapshot(ref.snapshotId());
  }

  /** The branch's snapshots, newest first, in the caller's (refreshed) metadata. */
  public Iterable<Snapshot> ancestry(Table table) {
    Snapshot head = head(table);
    return head == null ? List.of() : SnapshotUtil.ancestorsOf(head.snapshotId(), table::snapshot);
  }

  /** An append that commits to the branch, its manifest work done on the calling thread. */
  public AppendFiles newAppend(Table table) {
    return table.newAppend().toBranch(name).scanManifestsWith(ON_THE_CALLING_THREAD);
  }

  /** An overwrite that commits to the branch, its manifest work done on the calling thread. */
  public org.apache.iceberg.RowDelta newRowDelta(Table table) {
    return table.newRowDelta().toBranch(name).scanManifestsWith(ON_THE_CALLING_THREAD);
  }

  public OverwriteFiles newOverwrite(Table table) {
    return table.newOverwrite().toBranch(name).scanManifestsWith(ON_THE_CALLING_THREAD);
  }

  /**
   * Refuses a name that is a tag of {@code table}, saying what to do, and logs that a missing branch
   * will be created; called when a committing task starts.
   */
  public CommitBranch requireCommittable(Table table) {
    SnapshotRef ref = table.refs().get(name);
    if (ref == null) {
      LOG.info("Branch {} of {} does not exist yet: the sink's first commit creates it from main's current snapshot",
          name, table.name());
    } else if (!ref.isBranch()) {
      throw new IllegalStateException(
          "withBranch(\"" + name + "\") names a tag of " + table.name() + ", and commits cannot land on a tag;"
              + " name a branch (a missing one is created from main's current snapshot at the first commit)");
    }
    return this;
  }
}
