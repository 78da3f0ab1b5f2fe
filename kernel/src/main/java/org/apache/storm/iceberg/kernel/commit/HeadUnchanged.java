package org.apache.storm.iceberg.kernel.commit;

import java.util.Objects;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;

/**
 * Refuses a transaction's commit when the newest snapshot of its scope is no longer the one its plan
 * was made against: another commit of the same partition (an earlier attempt that landed late, or
 * a second incarnation of the task) got there first, so the plan must be made again.
 */
final class HeadUnchanged implements SnapshotAncestryValidator {
  private final TransactionScope scope;
  private final String expectedCommitId;
  private volatile boolean refused;

  /** @param expectedCommitId the commit id of the scope's newest snapshot, or null for none */
  HeadUnchanged(TransactionScope scope, String expectedCommitId) {
    this.scope = scope;
    this.expectedCommitId = expectedCommitId;
  }

  @Override
  public boolean validate(Iterable<Snapshot> baseSnapshots) {
    LastTransaction head = LastTransaction.in(baseSnapshots, scope);
    refused = !Objects.equals(expectedCommitId, head == null ? null : head.commitId());
    return !refused;
  }

  boolean refused() {
    return refused;
  }

  @Override
  public String errorMessage() {
    return "Trident state " + scope.state() + " partition " + scope.partition()
        + " committed another transaction since this one was planned";
  }
}
