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

package org.apache.storm.iceberg.kernel.env;

import org.apache.storm.iceberg.kernel.secrets.RedactingCollector;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import com.codahale.metrics.MetricRegistry;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;

/**
 * What a task gets from Storm at prepare, in the form the kernel uses: who it is, where its acks
 * go, its clock, its metrics and the topology configuration it runs with.
 *
 * @param task the task's identity
 * @param collector acks, fails, emits and errors; errors are redacted before Storm sees them
 * @param clock epoch milliseconds; batch ages and group intervals use it
 * @param metrics the task's metrics
 * @param topologyConfig the configuration the task runs with (its component configuration included)
 * @param deadLetterWindow the dead-letter window the task's tables share (a routing task's), or null
 *     for each sink to keep its own
 */
public record TaskEnvironment(
    TaskIdentity task, OutputCollector collector, LongSupplier clock, SinkMetrics metrics, Map<String, Object> topologyConfig,
    DeadLetterWindow deadLetterWindow) {

  public TaskEnvironment(
      TaskIdentity task, OutputCollector collector, LongSupplier clock, SinkMetrics metrics, Map<String, Object> topologyConfig) {
    this(task, collector, clock, metrics, topologyConfig, null);
  }

  /** Every environment reports errors redacted, whoever builds it. */
  public TaskEnvironment {
    collector = RedactingCollector.wrap(collector);
  }

  /** The environment of a bolt task, from its prepare arguments; metrics go to the context's registry. */
  public static TaskEnvironment of(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
    LongSupplier clock = System::currentTimeMillis;
    return new TaskEnvironment(
        TaskIdentity.of(topoConf, context), collector, clock, SinkMetrics.register(context, clock), topoConf);
  }

  /** This environment, with {@code window} shared by every sink opened in it. */
  public TaskEnvironment sharing(DeadLetterWindow window) {
    return new TaskEnvironment(task, collector, clock, metrics, topologyConfig, window);
  }

  /**
   * Opens one table of a routing task in an environment of its own, whose pending batches count in
   * this task's gauges until the table closes ({@link SinkMetrics#tableClosed}); an open that throws
   * leaves nothing counted.
   */
  public <T> T openTable(java.util.function.Function<TaskEnvironment, T> open) {
    TaskEnvironment table = new TaskEnvironment(task, collector, clock, metrics.forTable(), topologyConfig, deadLetterWindow);
    try {
      return open.apply(table);
    } catch (RuntimeException | Error e) {
      metrics.tableClosed(table.metrics());
      throw e;
    }
  }

  /** An environment outside Storm: metrics in a registry of their own, an empty configuration. */
  public static TaskEnvironment detached(TaskIdentity task, OutputCollector collector, LongSupplier clock) {
    return new TaskEnvironment(task, collector, clock, SinkMetrics.detached(new MetricRegistry(), clock), Map.of());
  }
}
