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

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.iceberg.kernel.task.ComponentChecks;
import org.apache.storm.iceberg.spi.CommitEventFields;
import org.apache.storm.iceberg.kernel.task.ShutdownGuard;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.WritingTask;
import org.apache.storm.iceberg.kernel.task.SourceOwnership;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.seal.TickIntervals;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link IcebergBolt} and {@link IcebergWriterBolt} share: one {@link SinkTask} per task that
 * maps, writes and seals batches, and the tick interval the options ask for. They differ only in what
 * the task does with a sealed batch, which {@link #open} decides. A {@link ShutdownGuard} lets
 * {@code cleanup}, which Storm may run on another thread mid-commit, close the task safely.
 */
abstract class SinkTaskBolt extends BaseRichBolt {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(SinkTaskBolt.class);

  protected final IcebergOptions options;
  private transient WritingTask sink;
  private transient ShutdownGuard guard;

  SinkTaskBolt(IcebergOptions options) {
    this.options = options;
  }

  /** Opens this bolt's kind of task. */
  abstract WritingTask open(TaskEnvironment env);

  /** What this bolt does with its batches, which decides what it checks. */
  abstract ComponentChecks.Role role();

  @Override
  public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
    String deadLetterStream = options.deadLetterStream();
    if (deadLetterStream != null && context.getThisTargets().getOrDefault(deadLetterStream, Map.of()).isEmpty()) {
      LOG.error("'{}' has no subscriber on its dead-letter stream '{}'; tuples it cannot write will be failed, and"
          + " replayed, until a bolt subscribes to it", context.getThisComponentId(), deadLetterStream);
    }
    ComponentChecks.requireRowLevelSupported(role(), options.settings());
    SourceOwnership.require(options.settings(), context, Thread.currentThread().getContextClassLoader());
    guard = new ShutdownGuard();
    sink = open(TaskEnvironment.of(topoConf, context, guard.guard(collector)));
  }

  @Override
  public void execute(Tuple tuple) {
    guard.execute(sink, tuple);
  }

  @Override
  public void cleanup() {
    if (sink != null) {
      guard.close(sink);
    }
  }

  @Override
  public Map<String, Object> getComponentConfiguration() {
    return tickConfiguration(TickIntervals.forWriter(options.settings()));
  }

  /** Declares the dead-letter stream when the options name one. */
  final void declareDeadLetterStream(OutputFieldsDeclarer declarer) {
    if (options.deadLetterStream() != null) {
      declarer.declareStream(options.deadLetterStream(), DeadLetterFields.fields());
    }
  }

  /** Declares the commit-event stream when the options name one. */
  static void declareCommitEventStream(IcebergOptions options, OutputFieldsDeclarer declarer) {
    if (options.commitEventsStream() != null) {
      declarer.declareStream(options.commitEventsStream(), CommitEventFields.fields());
    }
  }

  /** The component configuration that asks for a tick every {@code seconds}, or null for none. */
  static Map<String, Object> tickConfiguration(int seconds) {
    return seconds > 0 ? TupleUtils.putTickFrequencyIntoComponentConfig(new HashMap<>(), seconds) : null;
  }
}
