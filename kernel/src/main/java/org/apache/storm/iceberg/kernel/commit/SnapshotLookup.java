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
