package org.apache.storm.iceberg.trident;

import java.util.Objects;
import org.apache.storm.iceberg.kernel.options.OptionsAccess;
import org.apache.storm.iceberg.kernel.trident.TridentChecks;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.options.OptionsAccess;
import org.apache.storm.iceberg.kernel.trident.TridentChecks;
import org.apache.storm.trident.Stream;
import org.apache.storm.trident.TridentState;
import org.apache.storm.tuple.Fields;

/**
 * Writes a whole Trident stream into Iceberg with one snapshot per transaction, whatever the
 * parallelism, as Flink's committer makes one per checkpoint:
 *
 * <pre>{@code
 * TridentState state = IcebergTrident.persist(stream, new Fields("id", "name"), options);
 * }</pre>
 *
 * <p>Each partition writes its tuples into data files as they arrive and, at the end of the batch,
 * sends a descriptor of them to one committing state ({@code global()}), which commits all of them
 * in one snapshot under a commit id built from the WAL namespace, the topology's name, the state
 * name and the txid. A replay is handled as {@link IcebergState} handles it, for the transaction as
 * a whole, so no partitioning is required in front, and the stream's parallelism may change freely.
 */
public final class IcebergTrident {
  /** The field of the descriptors the writing partitions send the committing state. */
  static final String DESCRIPTOR_FIELD = "iceberg_data_files";

  private IcebergTrident() {}

  /**
   * Persists {@code fields} of {@code stream} into the options' table.
   *
   * @return the committing state, as {@code partitionPersist} returns it
   * @throws IllegalArgumentException when the options name a dead-letter stream, which Trident states do not have
   */
  public static TridentState persist(Stream stream, Fields fields, IcebergOptions options) {
    Objects.requireNonNull(options, "options");
    TridentChecks.requireNoSchemaEvolution(OptionsAccess.settings(options));
    TridentChecks.requireNoDeadLetterStream(OptionsAccess.settings(options), "IcebergTrident.persist");
    Fields descriptor = new Fields(DESCRIPTOR_FIELD);
    return stream
        .partitionAggregate(fields, new FilesAggregator(options), descriptor)
        .global()
        .partitionPersist(new WholeStreamStateFactory(options), descriptor, new WholeStreamUpdater());
  }
}
