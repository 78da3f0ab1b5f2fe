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

import java.util.Map;
import java.util.Objects;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.options.OptionsAccess;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.kernel.options.RoutingChecks;
import org.apache.storm.iceberg.kernel.trident.TridentChecks;
import org.apache.storm.iceberg.kernel.trident.TridentTask;
import org.apache.storm.task.IMetricsContext;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.trident.state.State;
import org.apache.storm.trident.state.StateFactory;

/**
 * Makes one {@link IcebergState} per partition of a {@code partitionPersist}:
 *
 * <pre>{@code
 * stream.partitionBy(new Fields("key"))
 *     .partitionPersist(new IcebergStateFactory(options), fields, new IcebergStateUpdater());
 * }</pre>
 *
 * <p>Each partition commits its part of a transaction in one snapshot of its own. The skip of a
 * replayed transaction is per partition, so it is exactly-once only when a replay brings each
 * partition the same tuples: the stream must be partitioned deterministically ({@code
 * partitionBy}, or no repartitioning after the spout), and a state fed by {@code shuffle()} is
 * refused when it starts. A change of the state's parallelism renumbers the partitions: make it
 * while no transaction is in flight (deactivate the topology first), or use {@link
 * IcebergTrident#persist}, which commits the whole stream at once and has neither requirement.
 *
 * <p>With {@code withCommitEvents} in the options, each partition's transactions whose commit landed
 * yield one commit event each, emitted by {@link IcebergStateUpdater} at the partition's next batch
 * with tuples; declare their fields so that {@code newValuesStream()} carries them:
 *
 * <pre>{@code
 * TridentState state = stream.partitionBy(new Fields("key"))
 *     .partitionPersist(new IcebergStateFactory(options), fields, new IcebergStateUpdater(), CommitEventFields.fields());
 * Stream commits = state.newValuesStream();
 * }</pre>
 *
 * <p>A transaction that a replay finds committed already makes no event; events not yet sent when the
 * topology stops, or waiting for a partition that gets no more tuples, are lost: that only delays
 * maintenance, which the events after them go on driving.
 *
 * <p>Its state type is {@code TRANSACTIONAL} (or {@code NON_TRANSACTIONAL}, at-least-once), never
 * {@code OPAQUE}: a replay by an opaque spout may bring a partition none of the tuples its first
 * attempt brought, and Trident does not call a state that got no tuples, so that partition's first
 * rows would stay beside the same records arriving in later transactions. Opaque spouts take
 * {@link IcebergTrident#persist}, whose committer sees every transaction.
 */
public final class IcebergStateFactory implements StateFactory {
  private static final long serialVersionUID = 1L;

  private final IcebergOptions options;

  /**
   * @throws IllegalArgumentException when the options' Trident state type is {@code OPAQUE}: a
   *     per-partition state cannot be exactly-once with an opaque spout (see the class Javadoc), or
   *     when they turn schema evolution on ({@link TridentChecks#requireNoSchemaEvolution}),
   *     or when they name a dead-letter stream, which Trident states do not have
   */
  public IcebergStateFactory(IcebergOptions options) {
    this.options = Objects.requireNonNull(options, "options");
    RoutingChecks.refuseRouting(OptionsAccess.settings(options), "IcebergStateFactory",
        "a Trident transaction is one append to one table; route upstream with one state per table, or write with IcebergBolt, which routes");
    TridentChecks.requireNotOpaque(OptionsAccess.settings(options).trident().stateType());
    TridentChecks.requireNoSchemaEvolution(OptionsAccess.settings(options));
    TridentChecks.requireNoDeadLetterStream(OptionsAccess.settings(options), "IcebergStateFactory");
  }

  @Override
  public State makeState(Map<String, Object> conf, IMetricsContext metrics, int partitionIndex, int numPartitions) {
    SinkSettings settings = OptionsAccess.settings(options);
    if (metrics instanceof TopologyContext context) {
      TridentChecks.requireDeterministicPartitioning(context, settings.target().table(), settings.trident().stateType());
    }
    TridentChecks.warnIgnoredThresholds(settings, IcebergOptions.DEFAULT_COMMIT_INTERVAL_RECORDS);
    TridentTask task =
        TridentTask.openState(settings, conf, metrics, partitionIndex, numPartitions, Integer.toString(partitionIndex));
    return new IcebergState(task.transactions(), task.files());
  }
}
