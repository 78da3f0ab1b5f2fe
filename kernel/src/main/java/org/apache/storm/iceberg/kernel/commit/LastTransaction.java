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
