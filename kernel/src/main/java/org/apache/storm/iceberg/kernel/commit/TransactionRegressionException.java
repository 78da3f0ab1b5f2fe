package org.apache.storm.iceberg.kernel.commit;

/**
 * A Trident transaction whose txid is older than the newest one its partition committed: the state
 * was reset, or the topology was redeployed with a reset transaction coordinator. Its batch is never
 * skipped silently.
 */
public final class TransactionRegressionException extends IllegalStateException {
  TransactionRegressionException(String table, TransactionScope scope, long txid, long committedTxid) {
    super(
        "Trident transaction " + txid + " of state " + scope.state() + " partition " + scope.partition()
            + " is older than transaction " + committedTxid + ", which table " + table + " already holds: the"
            + " transaction ids went backwards (the coordinator's state was reset, or the topology was"
            + " redeployed with a new one). Nothing is written; to start over on purpose, give the state a new"
            + " name (withTridentStateName)");
  }
}
