package org.apache.storm.iceberg.trident;

import java.util.List;
import org.apache.storm.iceberg.kernel.trident.TridentDescriptors;
import org.apache.storm.iceberg.kernel.trident.TridentTask;
import org.apache.storm.iceberg.kernel.trident.TridentTransactions;
import org.apache.storm.trident.state.State;
import org.apache.storm.trident.tuple.TridentTuple;

/**
 * The committing state of {@link IcebergTrident#persist}: gathers the descriptors every partition
 * sent for a transaction and commits all their files in one snapshot, as {@link IcebergState} does
 * for one partition.
 */
final class WholeStreamState implements State {
  private final TridentTask task;

  WholeStreamState(TridentTask task) {
    this.task = task;
  }

  @Override
  public void beginCommit(Long txid) {
    task.transactions().begin(txid);
  }

  void add(List<TridentTuple> descriptors) {
    if (!task.transactions().wantsFiles()) {
      return;
    }
    try {
      for (TridentTuple descriptor : descriptors) {
        task.transactions().add(TridentDescriptors.decode(task.table(), descriptor.getString(0)));
      }
    } catch (RuntimeException e) {
      throw TridentTransactions.failed("Cannot read a Trident batch's descriptors", e);
    }
  }

  @Override
  public void commit(Long txid) {
    task.transactions().commit(txid);
  }
}
