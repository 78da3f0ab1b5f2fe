package org.apache.storm.iceberg.kernel.commit;

/**
 * What one Trident transaction needs, decided before its files are written.
 *
 * @param txid the transaction id, or null for a batch without one (at-least-once)
 * @param action what its commit does
 * @param head the scope's newest transaction in the table when the plan was made, or null
 */
public record TransactionPlan(Long txid, Action action, LastTransaction head) {

  /** What a transaction's commit does. */
  public enum Action {
    /** The table already holds this transaction: write nothing, commit nothing. */
    SKIP,
    /** Append the files in one snapshot. */
    APPEND,
    /** An opaque replay of the newest transaction: replace the files its snapshot added, in one overwrite. */
    REPLACE
  }

  /** Whether the transaction's tuples need writing. */
  public boolean writes() {
    return action != Action.SKIP;
  }
}
