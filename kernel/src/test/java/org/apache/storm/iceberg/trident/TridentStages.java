package org.apache.storm.iceberg.trident;

import java.util.List;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.trident.operation.Aggregator;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.state.State;
import org.apache.storm.trident.state.StateFactory;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.tuple.Fields;

/**
 * Lets kernel tests drive the stages {@link IcebergTrident#persist} wires, as Trident would: the
 * writing partitions' aggregator, the committing state's factory and its updater.
 */
public final class TridentStages {
  private TridentStages() {}

  /** The aggregator of one writing partition; its batch object is opaque to the caller. */
  @SuppressWarnings("unchecked")
  public static Aggregator<Object> filesAggregator(IcebergOptions options) {
    return (Aggregator<Object>) (Aggregator<?>) new FilesAggregator(options);
  }

  /** The fields of the descriptors the writing partitions emit. */
  public static Fields descriptorFields() {
    return new Fields(IcebergTrident.DESCRIPTOR_FIELD);
  }

  public static StateFactory wholeStreamStateFactory(IcebergOptions options) {
    return new WholeStreamStateFactory(options);
  }

  /** What {@code partitionPersist} does with the committing state's buffered descriptors. */
  public static void updateWholeStream(State state, List<TridentTuple> descriptors, TridentCollector collector) {
    new WholeStreamUpdater().updateState((WholeStreamState) state, descriptors, collector);
  }
}
