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

import java.util.Map;
import org.apache.storm.generated.Grouping;
import org.apache.storm.iceberg.kernel.route.RoutedCommitterTask;
import org.apache.storm.iceberg.kernel.task.ComponentChecks;
import org.apache.storm.iceberg.kernel.task.CommitterTask;
import org.apache.storm.iceberg.kernel.task.ShutdownGuard;
import org.apache.storm.iceberg.kernel.task.WritingTask;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.seal.TickIntervals;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The committing half of the split sink: accumulates the descriptors {@link IcebergWriterBolt}s
 * emit and commits their files in one append when {@code withGroupCommitIntervalMillis} or {@code
 * withGroupCommitMaxDataFiles} is crossed, through the same WAL and commit-id protocol as {@link
 * IcebergBolt}; then acks every descriptor, or fails them all. Run it at parallelism 1 behind
 * {@code globalGrouping}; it asks for tick tuples so a lull never leaves descriptors uncommitted.
 *
 * <p>In a row-level write mode (upsert, changelog; Kafka source positions required) it never
 * merges two writer batches: each commits alone, as one row delta, in the order it arrived, and a
 * source partition's later batches are failed unattempted while an earlier one of that partition
 * has not landed (see README's "Change streams").
 *
 * <p>With {@code withTableRouter} it groups the descriptors by the table each names ({@link
 * IcebergWriterBolt#TABLE_FIELD}) and commits each table's group in its own append, on the same
 * thresholds, failing only the descriptors of a table whose commit did not land. At most {@code
 * withMaxOpenTables} tables are open: one more commits and closes the least recently used first.
 * It may then run several tasks behind {@code fieldsGrouping} on {@link IcebergWriterBolt#TABLE_FIELD},
 * so each table has one committer task.
 */
public class IcebergCommitterBolt extends BaseRichBolt {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(IcebergCommitterBolt.class);

  private final IcebergOptions options;
  private transient WritingTask committer;
  private transient ShutdownGuard guard;

  public IcebergCommitterBolt(IcebergOptions options) {
    this.options = options;
  }

  /** The options this bolt was built with. */
  IcebergOptions options() {
    return options;
  }

  @Override
  public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
    ComponentChecks.requireRowLevelSupported(ComponentChecks.Role.COMMITTER, options.settings());
    guard = new ShutdownGuard();
    TaskEnvironment env = TaskEnvironment.of(topoConf, context, guard.guard(collector));
    TaskIdentity task = env.task();
    if (task.componentTasks() > 1 && !eachTableHasOneTask(context)) {
      LOG.warn(
          "IcebergCommitterBolt component '{}' has {} tasks; run it at parallelism 1 behind globalGrouping:"
              + " one committer per table keeps commits from conflicting, and globalGrouping sends every"
              + " descriptor to one task, so the others sit idle (a routing committer may run several behind"
              + " fieldsGrouping on '" + IcebergWriterBolt.TABLE_FIELD + "', one task per table)",
          task.component(),
          task.componentTasks());
    }
    committer = options.settings().routing() != null
        ? RoutedCommitterTask.open(options.settings(), env, CommitterTask::open)
        : CommitterTask.open(options.settings(), env);
  }

  /** Whether a routing committer's inputs are all grouped by table, so each table's descriptors reach one task. */
  private boolean eachTableHasOneTask(TopologyContext context) {
    return options.settings().routing() != null && context.getThisSources().values().stream()
        .allMatch(grouping -> grouping.getSetField() == Grouping._Fields.FIELDS
            && grouping.get_fields().equals(java.util.List.of(IcebergWriterBolt.TABLE_FIELD)));
  }

  @Override
  public void execute(Tuple tuple) {
    guard.execute(committer, tuple);
  }

  /** Lets a commit in flight end first (see {@link ShutdownGuard}); pending descriptors time out and replay. */
  @Override
  public void cleanup() {
    if (committer != null) {
      guard.close(committer);
    }
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    // The end of the line for tuples; only commit events, when asked for, go on.
    SinkTaskBolt.declareCommitEventStream(options, declarer);
  }

  @Override
  public Map<String, Object> getComponentConfiguration() {
    return SinkTaskBolt.tickConfiguration(TickIntervals.forCommitter(options.settings()));
  }
}
