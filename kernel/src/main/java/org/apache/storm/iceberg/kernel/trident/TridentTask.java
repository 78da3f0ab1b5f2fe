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

package org.apache.storm.iceberg.kernel.trident;

import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.iceberg.Table;
import org.apache.storm.Config;
import org.apache.storm.iceberg.kernel.batch.BatchFactory;
import org.apache.storm.iceberg.kernel.batch.FileFormats;
import org.apache.storm.iceberg.kernel.commit.CommitBranch;
import org.apache.storm.iceberg.kernel.commit.CommitSettler;
import org.apache.storm.iceberg.kernel.commit.TransactionCommitter;
import org.apache.storm.iceberg.kernel.change.RowChanges;
import org.apache.storm.iceberg.kernel.commit.TransactionScope;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.kernel.table.TableLifecycle;
import org.apache.storm.task.IMetricsContext;
import org.apache.storm.task.TopologyContext;

/**
 * What one Trident task opens when Trident prepares it: the table, the task's metrics, a writer of
 * data files, and, for a state, its transactions. The wiring of the Trident stage: no stage builds
 * another.
 *
 * @param table the opened table
 * @param files writes batches into data files
 * @param transactions the state's transactions, or null for a task that only writes files
 */
public record TridentTask(Table table, TridentFiles files, TridentTransactions transactions) {

  /**
   * Opens a state task committing as {@code partition} (its index, or {@link
   * TransactionScope#WHOLE_STREAM}).
   *
   * @param context what Trident passed {@code makeState}: the task's {@code TopologyContext}
   */
  public static TridentTask openState(
      SinkSettings settings, Map<String, Object> conf, IMetricsContext context, int partitionIndex, int partitions,
      String partition) {
    TaskIdentity task = identity(conf, context, "trident-state", partitionIndex, partitions);
    return open(settings, conf, context, task, partition);
  }

  /** Opens a task that only writes files, for the whole-stream committer to commit. */
  public static TridentTask openWriter(
      SinkSettings settings, Map<String, Object> conf, IMetricsContext context, int partitionIndex, int partitions) {
    return open(settings, conf, context, identity(conf, context, "trident-writer", partitionIndex, partitions), null);
  }

  private static TridentTask open(
      SinkSettings settings, Map<String, Object> conf, IMetricsContext context, TaskIdentity task, String partition) {
    if (settings.rowLevel().byKey() && settings.trident().stateType() == org.apache.storm.trident.state.StateType.NON_TRANSACTIONAL) {
      throw new IllegalStateException("A non-transactional Trident state cannot take write mode "
          + settings.rowLevel().mode().name().toLowerCase(java.util.Locale.ROOT) + ": a replayed transaction could undo a"
          + " newer change; use a transactional or opaque spout and state type");
    }
    LongSupplier clock = System::currentTimeMillis;
    SinkMetrics metrics = SinkMetrics.register(context, clock);
    return OpenedTable.open(settings.target()).build(opened -> {
      Table table = opened.table();
      TableLifecycle lifecycle = TableLifecycle.of(opened, settings.target(), metrics);
      RecordMapper mapper = settings.providers().recordMapper().resolve(opened.loader());
      BatchFactory batches = new BatchFactory(table, FileFormats.of(settings.providers(), opened.loader()), mapper, task,
          settings.spillPath(), Long.MAX_VALUE, metrics, settings.providers().multiRecordMapper() == null
              ? null : settings.providers().multiRecordMapper().resolve(opened.loader()),
          RowChanges.of(settings.rowLevel(), table, mapper, false));
      TridentFiles files = new TridentFiles(table, batches, lifecycle, metrics, clock);
      TridentTransactions transactions = partition == null ? null : new TridentTransactions(table.name(),
          new TransactionCommitter(table, new CommitBranch(settings.commits().branch()),
              TransactionScope.of(settings.commits().walNamespace(), task.topology(), settings.trident().stateName(), partition),
              settings.trident().stateType(), settings.commits().snapshotProperties(), task.topology(), task.component(),
              task.taskIndex(), new CommitSettler.Retries(settings.commits().retries(), settings.commits().retryBackoffMillis()),
              clock), metrics, TridentCommitEvents.of(settings, table.name()));
      return new TridentTask(table, files, transactions);
    });
  }

  /**
   * Who the task is. The topology's name is required: with the state name it makes the commit ids,
   * which must survive a redeploy, as Storm's generated topology id does not.
   */
  private static TaskIdentity identity(
      Map<String, Object> conf, IMetricsContext context, String role, int partitionIndex, int partitions) {
    Object topology = conf.get(Config.TOPOLOGY_NAME);
    if (topology == null) {
      throw new IllegalStateException(
          "A Trident state of storm-iceberg needs topology.name in the topology configuration: its commit ids"
              + " are built from it, so that a redeployed topology finds the transactions it committed");
    }
    if (context instanceof TopologyContext topologyContext) {
      return new TaskIdentity(topology.toString(), topologyContext.getThisComponentId(), topologyContext.getThisTaskId(),
          partitionIndex, partitions);
    }
    return new TaskIdentity(topology.toString(), role, partitionIndex, partitionIndex, partitions);
  }
}
