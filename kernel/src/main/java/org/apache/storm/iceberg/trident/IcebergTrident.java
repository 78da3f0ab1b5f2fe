/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *   http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing,
 * software distributed under the License is distributed on an
 * "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
 * KIND, either express or implied.  See the License for the
 * specific language governing permissions and limitations
 * under the License.
 */

package org.apache.storm.iceberg.trident;

import java.util.Objects;
import org.apache.storm.iceberg.kernel.options.OptionsAccess;
import org.apache.storm.iceberg.kernel.options.RoutingChecks;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.kernel.trident.TridentChecks;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.spi.CommitEventFields;
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
 *
 * <p>The row-level write modes (upsert, changelog) take {@link #persist(Stream, Fields,
 * IcebergOptions, int)}, which partitions the stream by key before it is written.
 *
 * <p>With {@code withCommitEvents} in the options (its stream name is not used: Trident streams are
 * built, not named), the returned state's {@code newValuesStream()} is the commit events, one per
 * transaction whose commit landed, with the fields {@link CommitEventFields#fields()}: what drives
 * table maintenance. An event goes out with the batch of the transaction after the one it describes;
 * a transaction that a replay finds committed already, or an opaque replay's second commit of one,
 * makes none. Events not yet sent when the topology stops are lost: that only delays maintenance,
 * which the events after them go on driving:
 *
 * <pre>{@code
 * TridentState state = IcebergTrident.persist(stream, fields, options.withCommitEvents("iceberg-commits").build());
 * Stream commits = state.newValuesStream();
 * }</pre>
 */
public final class IcebergTrident {
  /** The field of the descriptors the writing partitions send the committing state. */
  static final String DESCRIPTOR_FIELD = "iceberg_data_files";
  /** The field a row-level stream is partitioned by: its key's hash. */
  static final String KEY_HASH_FIELD = "iceberg_key_hash";

  private IcebergTrident() {}

  /**
   * Persists {@code fields} of {@code stream} into the options' table, in append mode: each partition
   * of {@code stream} writes its own tuples.
   *
   * @return the committing state, as {@code partitionPersist} returns it; its {@code newValuesStream()}
   *     is the commit events, when the options ask for them
   * @throws IllegalArgumentException when the options name a dead-letter stream, which Trident states
   *     do not have, or a row-level write mode, which needs {@link #persist(Stream, Fields, IcebergOptions, int)}
   */
  public static TridentState persist(Stream stream, Fields fields, IcebergOptions options) {
    Objects.requireNonNull(options, "options");
    SinkSettings settings = OptionsAccess.settings(options);
    if (settings.rowLevel().byKey()) {
      throw new IllegalArgumentException("IcebergTrident.persist in write mode "
          + settings.rowLevel().mode().name().toLowerCase(java.util.Locale.ROOT) + " partitions the stream by key into"
          + " writing partitions of their own: say how many, with IcebergTrident.persist(stream, fields, options, writers)");
    }
    check(settings);
    return commit(stream.partitionAggregate(fields, new FilesAggregator(options), new Fields(DESCRIPTOR_FIELD)), options);
  }

  /**
   * Persists {@code fields} of {@code stream} into the options' table, written by {@code writers}
   * partitions. In the row-level write modes (upsert, changelog) the stream is partitioned by a hash
   * of each change's key ({@link KeyHashFunction}) first: every change of a key reaches one writing
   * partition, whose batch collapses them, so the transaction's one row delta holds at most one row
   * per key. In append mode the stream is shuffled to the writers.
   *
   * @param writers the writing partitions' parallelism
   * @return the committing state, as {@code partitionPersist} returns it; its {@code newValuesStream()}
   *     is the commit events, when the options ask for them
   * @throws IllegalArgumentException when the options name a dead-letter stream, or {@code writers} is not positive
   */
  public static TridentState persist(Stream stream, Fields fields, IcebergOptions options, int writers) {
    Objects.requireNonNull(options, "options");
    if (writers < 1) {
      throw new IllegalArgumentException("IcebergTrident.persist needs at least one writing partition, got " + writers);
    }
    SinkSettings settings = OptionsAccess.settings(options);
    check(settings);
    Stream partitioned = settings.rowLevel().byKey()
        // One row delta commits every partition's changes, where two rows of one key would both survive.
        ? stream.each(fields, new KeyHashFunction(options), new Fields(KEY_HASH_FIELD)).partitionBy(new Fields(KEY_HASH_FIELD))
        : stream.shuffle();
    return commit(
        partitioned.partitionAggregate(fields, new FilesAggregator(options), new Fields(DESCRIPTOR_FIELD)).parallelismHint(writers),
        options);
  }

  private static void check(SinkSettings settings) {
    TridentChecks.requireNoSchemaEvolution(settings);
    RoutingChecks.refuseRouting(settings, "IcebergTrident.persist",
        "a Trident transaction is one commit to one table; route upstream with one state per table, or write with IcebergBolt,"
            + " which routes");
    TridentChecks.requireNoDeadLetterStream(settings, "IcebergTrident.persist");
  }

  /** The one committing state, fed every writing partition's descriptors. */
  private static TridentState commit(Stream descriptors, IcebergOptions options) {
    Fields descriptor = new Fields(DESCRIPTOR_FIELD);
    return descriptors.global()
        .partitionPersist(new WholeStreamStateFactory(options), descriptor, new WholeStreamUpdater(), CommitEventFields.fields());
  }
}
