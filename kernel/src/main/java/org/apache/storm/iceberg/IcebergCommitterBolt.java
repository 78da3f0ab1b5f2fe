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
import org.apache.storm.iceberg.kernel.options.RoutingChecks;
import org.apache.storm.iceberg.kernel.task.CommitterTask;
import org.apache.storm.iceberg.kernel.task.ShutdownGuard;
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
 */
public class IcebergCommitterBolt extends BaseRichBolt {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(IcebergCommitterBolt.class);

  private final IcebergOptions options;
  private transient CommitterTask committer;
  private transient ShutdownGuard guard;

  public IcebergCommitterBolt(IcebergOptions options) {
    RoutingChecks.refuseRouting(options.settings(), "IcebergCommitterBolt",
        "route with the split sink by giving each table its own IcebergWriterBolt and IcebergCommitterBolt pair, or use IcebergBolt, which routes");
    this.options = options;
  }

  @Override
  public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
    guard = new ShutdownGuard();
    TaskEnvironment env = TaskEnvironment.of(topoConf, context, guard.guard(collector));
    TaskIdentity task = env.task();
    if (task.componentTasks() > 1) {
      LOG.warn(
          "IcebergCommitterBolt component '{}' has {} tasks; run it at parallelism 1 behind globalGrouping:"
              + " one committer per table keeps commits from conflicting, and globalGrouping sends every"
              + " descriptor to one task, so the others sit idle",
          task.component(),
          task.componentTasks());
    }
    committer = CommitterTask.open(options.settings(), env);
  }

  @Override
  public void execute(Tuple tuple) {
    if (!guard.enter()) {
      return;
    }
    try {
      committer.execute(tuple);
    } catch (RuntimeException e) {
      guard.failed(e);
    } finally {
      guard.exit();
    }
  }

  /** Lets a commit in flight end first (see {@link ShutdownGuard}); pending descriptors time out and replay. */
  @Override
  public void cleanup() {
    if (committer != null) {
      // The committer holds nothing but the catalog to close: abandoning is closing.
      guard.close(committer::close, committer::close);
    }
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    // The end of the line: nothing downstream.
  }

  @Override
  public Map<String, Object> getComponentConfiguration() {
    return SinkTaskBolt.tickConfiguration(TickIntervals.forCommitter(options.settings()));
  }
}
