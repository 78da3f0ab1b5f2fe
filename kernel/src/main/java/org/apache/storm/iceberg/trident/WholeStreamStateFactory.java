package org.apache.storm.iceberg.trident;

import java.util.Map;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.commit.TransactionScope;
import org.apache.storm.iceberg.kernel.options.OptionsAccess;
import org.apache.storm.iceberg.kernel.trident.TridentTask;
import org.apache.storm.task.IMetricsContext;
import org.apache.storm.trident.state.State;
import org.apache.storm.trident.state.StateFactory;

/** Makes the one committing state of {@link IcebergTrident#persist}. */
final class WholeStreamStateFactory implements StateFactory {
  private static final long serialVersionUID = 1L;

  private final IcebergOptions options;

  WholeStreamStateFactory(IcebergOptions options) {
    this.options = options;
  }

  @Override
  public State makeState(Map<String, Object> conf, IMetricsContext metrics, int partitionIndex, int numPartitions) {
    TridentTask task = TridentTask.openState(
        OptionsAccess.settings(options), conf, metrics, partitionIndex, numPartitions, TransactionScope.WHOLE_STREAM);
    return new WholeStreamState(task);
  }
}
