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

package org.apache.storm.iceberg.kernel.seal;

import org.apache.storm.iceberg.kernel.seal.TimedSealPolicies;
import org.apache.storm.iceberg.kernel.commit.CommitDeadline;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Footgun checks against the configuration a task runs with, at prepare (the first moment the
 * topology's configuration, component settings included, is known). Each failure says how to fix
 * the problem. A task run outside Storm has no configuration, and nothing to check.
 */
public final class TopologyChecks {
  private static final Logger LOG = LoggerFactory.getLogger(TopologyChecks.class);

  private TopologyChecks() {}

  /** Checks for tasks that write batches: {@code IcebergBolt} and {@code IcebergWriterBolt}. */
  public static void forWriter(SinkSettings settings, TaskEnvironment env) {
    forWriter(settings, env.task(), env.topologyConfig());
  }

  /** {@link #forWriter(SinkSettings, TaskEnvironment)} for a task of {@code task}'s component running with {@code conf}. */
  public static void forWriter(SinkSettings settings, TaskIdentity task, Map<String, Object> conf) {
    if (conf.isEmpty()) {
      return;
    }
    List<TimedSealPolicies.Interval> intervals =
        TimedSealPolicies.of(settings, Thread.currentThread().getContextClassLoader()).intervals();
    for (TimedSealPolicies.Interval interval : intervals) {
      requireBelowMessageTimeout(conf, interval.millis(), interval.name(), interval.setter());
    }
    int tickSecs = ObjectReader.getInt(conf.get(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS), 0);
    if (!intervals.isEmpty() && tickSecs <= 0) {
      TimedSealPolicies.Interval interval = intervals.get(0);
      throw new IllegalStateException(
          interval.threshold() + " (" + interval.name() + " " + interval.millis() + " ms) needs tick tuples to seal"
              + " a batch when the stream goes quiet, but neither the bolt nor the topology asks for them"
              + " (topology.tick.tuple.freq.secs); set withTickIntervalSecs, or leave it unset so the bolt"
              + " declares half the threshold");
    }
    requireEnoughPendingTuples(settings, task, conf);
    ProducerBatchCheck.require(task, conf);
  }

  /**
   * What the options alone can be checked for once the topology's configuration is known, before
   * any task starts: their time thresholds and their commit deadline margin against {@code
   * topology.message.timeout.secs}, when {@code conf} sets it. Tick tuples and pending tuples depend
   * on the component too, and are checked with it.
   */
  public static void againstMessageTimeout(SinkSettings settings, Map<String, ?> conf) {
    if (!conf.containsKey(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS)) {
      // The cluster's storm.yaml decides, which build() cannot see: IcebergTopologies.check reads it.
      return;
    }
    for (TimedSealPolicies.Interval interval :
        TimedSealPolicies.of(settings, Thread.currentThread().getContextClassLoader()).intervals()) {
      requireBelowMessageTimeout(conf, interval.millis(), interval.name(), interval.setter());
    }
    CommitDeadline.of(conf, settings.commits().deadlineMarginMillis(), System::currentTimeMillis);
  }

  /** Checks for {@code IcebergCommitterBolt}. */
  public static void forCommitter(SinkSettings settings, TaskEnvironment env) {
    forCommitter(settings, env.topologyConfig());
  }

  /** {@link #forCommitter(SinkSettings, TaskEnvironment)} for a task running with {@code conf}. */
  public static void forCommitter(SinkSettings settings, Map<String, Object> conf) {
    if (conf.isEmpty()) {
      return;
    }
    requireBelowMessageTimeout(conf, settings.splitSink().groupCommitIntervalMillis(), "group commit interval", "withGroupCommitIntervalMillis");
  }

  private static void requireBelowMessageTimeout(Map<String, ?> conf, long millis, String what, String setter) {
    int timeoutSecs = ObjectReader.getInt(conf.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS), 30);
    if (millis >= timeoutSecs * 1000L) {
      throw new IllegalStateException(
          what + " " + millis + " ms is not below topology.message.timeout.secs (" + timeoutSecs + " s): tuples would"
              + " time out and replay before they commit; lower " + setter + " or raise the timeout");
    }
  }

  /**
   * A batch that seals only on its record count needs that many tuples in flight for its own task.
   * Each of the component's tasks holds about its share of the tuples the spouts have pending, so
   * every task's batch fills only if the spouts may have {@code records × tasks} pending; otherwise
   * batches fill only with replays of timed-out tuples, and the topology stalls. With a multi-record
   * mapper a tuple counts as many records as it carries, which only the user knows: then a shortfall
   * is only warned of.
   */
  private static void requireEnoughPendingTuples(SinkSettings settings, TaskIdentity task, Map<String, Object> conf) {
    Object maxPending = conf.get(Config.TOPOLOGY_MAX_SPOUT_PENDING);
    long records = settings.thresholds().records();
    if (maxPending == null || records <= 0) {
      return;
    }
    long perSpoutTask = ObjectReader.getInt(maxPending);
    int spoutTasks = Math.max(1, task.spoutTasks());
    int sinkTasks = Math.max(1, task.componentTasks());
    long inFlight = perSpoutTask * spoutTasks;
    long needed = records * sinkTasks;
    if (inFlight >= needed) {
      return;
    }
    String problem =
        "topology.max.spout.pending (" + perSpoutTask + " per spout task, " + inFlight + " in all) is below the "
            + needed + " tuples component '" + task.component() + "' needs pending to fill its batches: "
            + records + " records a batch (withCommitIntervalRecords) × " + sinkTasks
            + (sinkTasks == 1 ? " task" : " tasks, each holding about its share of the pending tuples");
    String fix =
        "raise topology.max.spout.pending to at least " + ceilDiv(needed, spoutTasks) + " per spout task or lower"
            + " withCommitIntervalRecords to at most " + Math.max(1, inFlight / sinkTasks);
    if (settings.providers().multiRecordMapper() != null) {
      LOG.warn("{}, unless each tuple carries {} records or more (withMultiRecordMapper); with fewer, batches seal only on"
          + " their other thresholds, and without one the topology stalls; {}", problem, ceilDiv(needed, inFlight), fix);
      return;
    }
    if (settings.thresholds().millis() > 0 || !settings.providers().sealPolicies().isEmpty()) {
      LOG.warn("{}, so batches will seal on their other thresholds, never on their record count; {}", problem, fix);
      return;
    }
    throw new IllegalStateException(problem + ", so a batch can never fill and the topology stalls; " + fix);
  }

  private static long ceilDiv(long dividend, long divisor) {
    return (dividend + divisor - 1) / divisor;
  }
}
