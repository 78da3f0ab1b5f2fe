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

package org.apache.storm.iceberg.maintenance;

import java.util.Map;
import java.util.Objects;
import org.apache.storm.Config;
import org.apache.storm.iceberg.spi.CommitEventFields;
import org.apache.storm.trident.Stream;
import org.apache.storm.trident.operation.BaseFunction;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.operation.TridentOperationContext;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.tuple.Fields;

/**
 * Maintains the tables a Trident state commits to, inside the topology, as {@link
 * IcebergMaintenanceBolt} does for the bolts: fed the state's commit events (the state's {@code
 * newValuesStream()} with {@code withCommitEvents} in the sink's options), partitioned by {@link
 * CommitEventFields#TABLE} so that one partition owns each table. {@link #maintain} wires it:
 *
 * <pre>{@code
 * TridentState state = IcebergTrident.persist(stream, fields, sink);   // sink: withCommitEvents("iceberg-commits")
 * IcebergMaintenanceFunction.maintain(state.newValuesStream(), maintenance);
 * }</pre>
 *
 * <p>Passes run on a thread of the partition's own, never on the executor: an event is taken at once,
 * and a pass never delays or fails a batch. It emits nothing. Trident has no tick tuples, so that
 * thread also reads the time trigger and the minimum gap, as often as the bolt's ticks would. Events
 * are hints: one lost (a batch that fails after it, or one still queued in a state when the topology
 * stops) only delays a pass, which the events after it still count toward. Across topologies and
 * cron runs a pass takes the table's lease, as the bolt's do.
 */
public class IcebergMaintenanceFunction extends BaseFunction {
  private static final long serialVersionUID = 1L;

  private final MaintenanceOptions options;

  private transient TableMaintainer maintainer;

  public IcebergMaintenanceFunction(MaintenanceOptions options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  /**
   * Maintains the tables of {@code commitEvents}, a stream with the fields {@link
   * CommitEventFields#fields()}: partitions it by table, and runs this function on each partition.
   *
   * @return the stream after the function, which carries no tuples; set its parallelism with {@code
   *     parallelismHint}, one partition owning each table whatever it is
   */
  public static Stream maintain(Stream commitEvents, MaintenanceOptions options) {
    return commitEvents.partitionBy(new Fields(CommitEventFields.TABLE))
        .each(CommitEventFields.fields(), new IcebergMaintenanceFunction(options), new Fields());
  }

  @Override
  public void prepare(Map<String, Object> conf, TridentOperationContext context) {
    // Trident hides the component's name; the topology's id and the partition name the task.
    Object topology = conf.getOrDefault(Config.STORM_ID, conf.get(Config.TOPOLOGY_NAME));
    maintainer = TableMaintainer.open(options, conf, context, topology + "/trident-maintenance/" + context.getPartitionIndex());
    maintainer.tickOnItsOwn();
  }

  @Override
  public void execute(TridentTuple event, TridentCollector collector) {
    maintainer.committed(event.getStringByField(CommitEventFields.TABLE), event.getIntegerByField(CommitEventFields.DATA_FILES),
        event.getLongByField(CommitEventFields.DATA_BYTES), event.getIntegerByField(CommitEventFields.DELETE_FILES),
        System.currentTimeMillis());
  }

  @Override
  public void cleanup() {
    if (maintainer != null) {
      maintainer.close();
    }
  }
}
