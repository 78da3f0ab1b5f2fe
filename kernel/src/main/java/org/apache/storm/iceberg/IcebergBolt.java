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
import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.kernel.task.ComponentChecks;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.kernel.task.WritingTask;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.topology.OutputFieldsDeclarer;

/**
 * Writes tuples into an Iceberg table, one atomic append per batch, acking each tuple only after the
 * append holding it has landed (at-least-once; replays may duplicate rows). See {@link
 * IcebergOptions} for thresholds and providers. With {@code withTableRouter}, each tuple goes to the
 * table its router names, each table committed on its own. Emits nothing, except on its dead-letter stream
 * when the options name one ({@link DeadLetterFields}).
 *
 * <p>Each sealed batch commits on a thread of the task's own while the executor writes the next
 * batch, in seal order; at most {@link IcebergOptions.Builder#withMaxPendingCommits} sealed batches
 * wait, beyond that the executor waits. A failed commit fails only its own batch's tuples. A routing
 * task has two commit threads, shared by its tables; the bound counts each table's batches.
 */
public class IcebergBolt extends SinkTaskBolt {
  private static final long serialVersionUID = 1L;

  public IcebergBolt(IcebergOptions options) {
    super(options);
  }

  @Override
  ComponentChecks.Role role() {
    return ComponentChecks.Role.SINK;
  }

  @Override
  WritingTask open(TaskEnvironment env) {
    return options.settings().routing() != null
        ? RoutedSinkTask.openPipelined(options.settings(), env)
        : SinkTasks.openPipelined(options.settings(), env);
  }

  /**
   * A tick every second, whatever the thresholds: a commit that ended on the commit thread is acked
   * at the executor's next call, and in a lull only a tick makes one.
   */
  @Override
  public Map<String, Object> getComponentConfiguration() {
    return tickConfiguration(1);
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    declareDeadLetterStream(declarer);
    declareCommitEventStream(options, declarer);
  }
}
