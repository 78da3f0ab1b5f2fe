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

import org.apache.storm.iceberg.kernel.task.ComponentChecks;
import org.apache.storm.iceberg.kernel.task.DescriptorEmitter;
import java.util.Map;
import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.kernel.task.WritingTask;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.tuple.Fields;
import org.apache.storm.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writing half of the split sink. Writes tuples into data files and seals batches exactly like
 * {@link IcebergBolt}, but instead of committing it emits, per sealed batch, one descriptor tuple
 * (field {@value #DESCRIPTOR_FIELD}: versioned JSON of the batch's data files) anchored to every
 * tuple of the batch, then acks those tuples; the descriptor's second field, {@value #TABLE_FIELD},
 * names the batch's table. Feed its stream to one {@link IcebergCommitterBolt} with {@code
 * globalGrouping}. Writes no WAL. A tuple it cannot write goes to its dead-letter stream, when the
 * options name one, as in {@link IcebergBolt}.
 *
 * <p>With {@code withTableRouter} it routes as {@link IcebergBolt} does: each table has its own open
 * batch, a seal covers every table, each table's sealed batch is a descriptor of its own, at most
 * {@code withMaxOpenTables} tables are open, and a bad route is a mapping error.
 */
public class IcebergWriterBolt extends SinkTaskBolt {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(IcebergWriterBolt.class);
  /** The field of the descriptor tuples this bolt emits. */
  public static final String DESCRIPTOR_FIELD = DescriptorEmitter.DESCRIPTOR_FIELD;
  /** The field of the descriptor tuples naming the table their files belong to ({@code db.events}). */
  public static final String TABLE_FIELD = DescriptorEmitter.TABLE_FIELD;

  /**
   * @throws IllegalArgumentException when the options' dead-letter stream is the default stream, which
   *     descriptors use
   */
  public IcebergWriterBolt(IcebergOptions options) {
    super(options);
    if (Utils.DEFAULT_STREAM_ID.equals(options.deadLetterStream())) {
      throw new IllegalArgumentException("IcebergWriterBolt emits its descriptors on the default stream:"
          + " give withDeadLetterStream another stream id, such as \"dead-letters\"");
    }
  }

  @Override
  public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
    if (context.getThisTargets().getOrDefault(Utils.DEFAULT_STREAM_ID, Map.of()).isEmpty()) {
      LOG.error(
          "IcebergWriterBolt '{}' has no subscriber on its default stream; every batch will be failed"
              + " until an IcebergCommitterBolt is connected to it with globalGrouping",
          context.getThisComponentId());
    }
    super.prepare(topoConf, context, collector);
  }

  @Override
  ComponentChecks.Role role() {
    return ComponentChecks.Role.WRITER;
  }

  @Override
  WritingTask open(TaskEnvironment env) {
    return options.settings().routing() != null
        ? RoutedSinkTask.open(options.settings(), env, (settings, tableEnv, commits, handoffs) -> SinkTasks.openRoutedWriter(settings, tableEnv, handoffs))
        : SinkTasks.openWriter(options.settings(), env);
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    declarer.declare(new Fields(DESCRIPTOR_FIELD, TABLE_FIELD));
    declareDeadLetterStream(declarer);
  }
}
