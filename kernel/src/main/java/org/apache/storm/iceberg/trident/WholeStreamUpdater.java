package org.apache.storm.iceberg.trident;

import java.util.List;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.state.BaseStateUpdater;
import org.apache.storm.trident.tuple.TridentTuple;

/** Hands the descriptors of a transaction to the {@link WholeStreamState}. */
final class WholeStreamUpdater extends BaseStateUpdater<WholeStreamState> {
  private static final long serialVersionUID = 1L;

  @Override
  public void updateState(WholeStreamState state, List<TridentTuple> descriptors, TridentCollector collector) {
    state.add(descriptors);
  }
}
