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

package org.apache.storm.iceberg;

import java.util.List;
import java.util.Objects;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.grouping.CustomStreamGrouping;
import org.apache.storm.iceberg.kernel.grouping.GroupingChecks;
import org.apache.storm.iceberg.kernel.grouping.PartitionRouter;
import org.apache.storm.iceberg.kernel.options.OptionsAccess;
import org.apache.storm.iceberg.kernel.options.OptionsChecks;
import org.apache.storm.iceberg.kernel.options.RoutingChecks;
import org.apache.storm.task.WorkerTopologyContext;

/**
 * Sends each tuple to the sink task of its Iceberg partition, as Flink's {@code
 * DistributionMode.HASH} does, so that each partition's rows reach one task and each commit holds
 * one file per partition instead of one per partition and task:
 *
 * <pre>{@code
 * builder.setBolt("iceberg", new IcebergBolt(options), 8)
 *     .customGrouping("events", new IcebergPartitionGrouping(options));
 * }</pre>
 *
 * <p>Give it the sink's own options. In each upstream task it loads the table, maps each tuple with
 * the sink's record mapper, computes the row's partition key under the table's current spec, and
 * hashes the key to one of the sink's tasks. It refreshes the table every {@code
 * refreshIntervalMillis} (default {@value #DEFAULT_REFRESH_INTERVAL_MILLIS}) off the emitting
 * thread, so a spec changed from outside is followed within about that interval. A tuple the mapper
 * refuses goes to the sink's first task, which fails it or sends it to its dead-letter stream; while
 * the table is unpartitioned or cannot be loaded, tuples are spread in turn.
 *
 * <p>With {@code tasksPerPartition} k above 1, each partition is spread over k consecutive tasks in
 * turn, for a partition too hot for one task: k files per partition per commit, and each task takes
 * about 1/k of it.
 *
 * <p>It cannot serve source positions ({@code withSourcePositions}, Kafka exactly-once), which need
 * each Kafka partition on one task: options with them are refused here, and the sink refuses the
 * grouping at prepare.
 */
public final class IcebergPartitionGrouping implements CustomStreamGrouping {
  private static final long serialVersionUID = 1L;
  public static final long DEFAULT_REFRESH_INTERVAL_MILLIS = 10_000;

  private final IcebergOptions options;
  private final int tasksPerPartition;
  private final long refreshIntervalMillis;
  private transient PartitionRouter router;

  /** Each partition to one task. */
  public IcebergPartitionGrouping(IcebergOptions options) {
    this(options, 1);
  }

  /** Each partition spread over {@code tasksPerPartition} tasks (at most the sink's tasks). */
  public IcebergPartitionGrouping(IcebergOptions options, int tasksPerPartition) {
    this(options, tasksPerPartition, DEFAULT_REFRESH_INTERVAL_MILLIS);
  }

  /**
   * As above, refreshing the table every {@code refreshIntervalMillis}.
   *
   * @throws IllegalArgumentException when the options write with source positions, or a number is not positive
   */
  public IcebergPartitionGrouping(IcebergOptions options, int tasksPerPartition, long refreshIntervalMillis) {
    this.options = Objects.requireNonNull(options, "options");
    GroupingChecks.requirePositive(tasksPerPartition, refreshIntervalMillis);
    RoutingChecks.refuseRouting(OptionsAccess.settings(options), "IcebergPartitionGrouping",
        "it groups by one table's partitions; use a fieldsGrouping on the routing field instead");
    GroupingChecks.refuseSourcePositions(OptionsAccess.settings(options), Thread.currentThread().getContextClassLoader());
    OptionsChecks.requireOneRecordPerTuple(OptionsAccess.settings(options).providers().multiRecordMapper() == null,
        "IcebergPartitionGrouping", "it sends each tuple to the task of its record's Iceberg partition, and the records"
            + " of one tuple may fall in many partitions; use shuffleGrouping (or a fieldsGrouping on the source's key)");
    this.tasksPerPartition = tasksPerPartition;
    this.refreshIntervalMillis = refreshIntervalMillis;
  }

  @Override
  public void prepare(WorkerTopologyContext context, GlobalStreamId stream, List<Integer> targetTasks) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    GroupingChecks.refuseSourcePositions(OptionsAccess.settings(options), loader);
    router = new PartitionRouter(OptionsAccess.settings(options),
        context.getComponentOutputFields(stream.get_componentId(), stream.get_streamId()), targetTasks, tasksPerPartition,
        refreshIntervalMillis, loader);
  }

  @Override
  public List<Integer> chooseTasks(int taskId, List<Object> values) {
    return router.route(values);
  }

  @Override
  public String toString() {
    return "IcebergPartitionGrouping(" + options.table() + ", tasksPerPartition=" + tasksPerPartition + ")";
  }
}
