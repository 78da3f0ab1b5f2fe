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
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.spi.WalEntry;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WAL entries of one committing task, in its {@link WalScope}: the commit protocol puts an
 * entry before it first attempts a commit and deletes it once the commit is settled (landed, or
 * proved not applied); an entry whose commit's fate stays unknown is left in place. Entries a previous
 * incarnation of the task left are dropped when it starts, after logging what each commit became.
 *
 * <p>Assumes the scope's entries are this task's alone. Never deletes a data file (it may be live),
 * and never throws for a failed delete: a leftover entry costs only a log line at the next start.
 */
final class WalEntries {
  private static final Logger LOG = LoggerFactory.getLogger(WalEntries.class);

  private final WalStore wal;
  private final WalScope scope;
  private final Table table;
  private final CommitBranch branch;

  WalEntries(WalStore wal, WalScope scope, Table table, CommitBranch branch) {
    this.wal = wal;
    this.scope = scope;
    this.table = table;
    this.branch = branch;
  }

  /** Records that commit {@code commitId} of {@code files} is about to be attempted; throws if it cannot. */
  void put(String commitId, List<DataFile> files, long attemptMillis, long oldestTupleMillis) {
    byte[] entry =
        DataFilesCodec.encode(
            new DataFilesCodec.Entry(
                commitId, table.name(), scope.component(), scope.taskIndex(), attemptMillis, files, oldestTupleMillis),
            table.specs());
    wal.put(scope, commitId, entry);
  }

  /** Deletes the entry of a settled commit, or logs why it cannot. */
  void delete(String commitId) {
    try {
      wal.delete(scope, commitId);
    } catch (RuntimeException e) {
      // The commit is settled; the next incarnation of this task drops the stale entry.
      LOG.warn("Cannot delete WAL entry of settled commit {} in {}", commitId, scope, Redaction.of(e));
    }
  }

  /**
   * Drops every entry a previous incarnation of this task left, logging what each entry's commit
   * became. Its data files are never deleted (they may be live); its tuples were never acked, so the
   * source replays them.
   *
   * @return the number of entries dropped; one that cannot be deleted now is left for the next start
   */
  int clearStale() {
    List<WalEntry> entries = wal.list(scope);
    if (entries.isEmpty()) {
      return 0;
    }
    table.refresh();
    int dropped = 0;
    for (WalEntry entry : entries) {
      LOG.warn("Dropping stale WAL entry {}: {}", entry.location(), describe(entry));
      try {
        wal.delete(scope, entry.commitId());
        dropped++;
      } catch (RuntimeException e) {
        // The entry only records what a dead incarnation attempted; its tuples replay either way.
        // Starting matters more: the next start tries again.
        LOG.warn("Cannot drop stale WAL entry {} now; the next start will", entry.location(), Redaction.of(e));
      }
    }
    return dropped;
  }

  private String describe(WalEntry entry) {
    try {
      DataFilesCodec.Entry decoded = DataFilesCodec.decode(entry.payload(), entry.location(), table.specs());
      // The entry records when it was written, not the head it was written on: the walk is bounded by time.
      Long snapshotId = SnapshotLookup.find(table, branch, decoded.id(), new SnapshotLookup.Window(null, decoded.createdAtMillis()));
      return snapshotId != null
          ? "commit " + decoded.id() + " landed in snapshot " + snapshotId
          : "commit "
              + decoded.id()
              + " did not land; its "
              + decoded.files().size()
              + " data files are left in place (never deleted: they may be live) and its tuples replay";
    } catch (RuntimeException e) {
      return e.getMessage();
    }
  }
}
