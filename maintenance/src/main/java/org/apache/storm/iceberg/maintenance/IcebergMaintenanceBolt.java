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

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.storm.iceberg.spi.CommitEventFields;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;

/**
 * Maintains the tables a sink commits to, inside the topology: fed the sinks' commit events ({@code
 * withCommitEvents}) by a fields grouping on {@link CommitEventFields#TABLE}, so that one task owns
 * each table and no two passes over a table ever overlap within the topology. Passes ({@link
 * MaintenancePass}) run on a thread of the task's own, never on the executor: tuples are acked at
 * once, and a pass never delays or fails one. Ticks drive the time trigger. Trident topologies take
 * {@link IcebergMaintenanceFunction}, which runs the same maintenance.
 *
 * <pre>{@code
 * builder.setBolt("iceberg", new IcebergBolt(options.withCommitEvents("iceberg-commits").build()), 4)...;
 * builder.setBolt("maintenance", new IcebergMaintenanceBolt(maintenance), 1)
 *     .fieldsGrouping("iceberg", "iceberg-commits", new Fields(CommitEventFields.TABLE));
 * }</pre>
 *
 * <p>Metrics: {@code iceberg-maintenance-passes}, {@code iceberg-maintenance-failures}, {@code
 * iceberg-maintenance-token-kept}, {@code iceberg-compaction-files-rewritten}, {@code
 * iceberg-compaction-groups-abandoned}, {@code iceberg-snapshots-expired}, {@code
 * iceberg-manifests-rewritten}, {@code iceberg-orphan-files-deleted}, {@code
 * iceberg-maintenance-lease-busy} (a pass skipped: another maintainer held the table's lease).
 *
 * <p>Across topologies and cron runs, a pass first takes the table's lease, on the topology's
 * ZooKeeper ({@link ZooKeeperLease}) or in the JDBC catalog's database ({@link JdbcLease}), as
 * {@link MaintenanceOptions.Builder#withLease(MaintenanceLease.Kind, Duration)} says; a pass that
 * cannot is skipped, and runs when next due.
 */
public class IcebergMaintenanceBolt extends BaseRichBolt {
  private static final long serialVersionUID = 1L;

  private final MaintenanceOptions options;

  private transient OutputCollector collector;
  private transient TableMaintainer maintainer;

  public IcebergMaintenanceBolt(MaintenanceOptions options) {
    this.options = options;
  }

  @Override
  public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
    this.collector = collector;
    this.maintainer = TableMaintainer.open(options, topoConf, context,
        context.getStormId() + "/" + context.getThisComponentId() + "/" + context.getThisTaskIndex());
  }

  @Override
  public void execute(Tuple tuple) {
    long now = System.currentTimeMillis();
    if (TupleUtils.isTick(tuple)) {
      maintainer.tick(now);
    } else {
      maintainer.committed(tuple.getStringByField(CommitEventFields.TABLE), tuple.getIntegerByField(CommitEventFields.DATA_FILES),
          tuple.getLongByField(CommitEventFields.DATA_BYTES), tuple.getIntegerByField(CommitEventFields.DELETE_FILES), now);
    }
    collector.ack(tuple);
  }

  @Override
  public void cleanup() {
    if (maintainer != null) {
      maintainer.close();
    }
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    // The end of the line.
  }

  /** Ticks often enough for the time trigger and the minimum gap to be read within a tenth of them. */
  @Override
  public Map<String, Object> getComponentConfiguration() {
    return TupleUtils.putTickFrequencyIntoComponentConfig(new HashMap<>(), TableMaintainer.tickSeconds(options));
  }
}
