package org.apache.storm.iceberg.trident;

import java.util.List;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.state.BaseStateUpdater;
import org.apache.storm.trident.tuple.TridentTuple;

/**
 * Hands a partition's batch to its {@link IcebergState}. Trident calls it once per batch, at the
 * end of the batch, between the state's {@code beginCommit} and {@code commit}; it emits nothing.
 */
public final class IcebergStateUpdater extends BaseStateUpdater<IcebergState> {
  private static final long serialVersionUID = 1L;

  @Override
  public void updateState(IcebergState state, List<TridentTuple> tuples, TridentCollector collector) {
    state.write(tuples);
  }
}
