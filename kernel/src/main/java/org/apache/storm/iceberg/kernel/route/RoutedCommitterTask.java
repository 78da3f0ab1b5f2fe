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

package org.apache.storm.iceberg.kernel.route;

import java.util.List;
import java.util.function.BiFunction;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.kernel.seal.TopologyChecks;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.kernel.task.CommitterTask;
import org.apache.storm.iceberg.kernel.task.DescriptorEmitter;
import org.apache.storm.iceberg.kernel.task.WritingTask;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The split sink's committer when it routes: groups the descriptors by the table each names ({@link
 * DescriptorEmitter#TABLE_FIELD}) and hands each to that table's own {@link CommitterTask}, which
 * commits its group in one append of its own (its own commit id, WAL scope and resolution) on the
 * group thresholds, and acks its descriptors, or fails only them when that commit did not land:
 * other tables' groups commit and ack as usual. Ticks reach every open table. With source
 * positions, each table's commits record the offsets its descriptors' writers routed to other
 * tables that its ledger lacks, so its positions stay one range per partition ({@code RoundClaims}).
 *
 * <p>Bounds: at most {@code withMaxOpenTables} tables are open ({@link OpenTables}): a descriptor
 * for one more commits the least recently used table's pending group, acks or fails it, and closes
 * that table's catalog first. A table that cannot be opened fails its descriptor, and is not tried
 * again for {@link RoutedSinkTask#FAILED_OPEN_RETRY_MILLIS}.
 *
 * <p>A descriptor naming no table, an invalid one, or one outside {@code withAllowedNamespaces}
 * (the writers' options differ from the committer's) fails alone, with the error reported: the
 * committer has no dead-letter stream, and its writers checked each route already.
 */
public final class RoutedCommitterTask implements WritingTask {
  private static final Logger LOG = LoggerFactory.getLogger(RoutedCommitterTask.class);

  private final RouteCheck check;
  private final TaskEnvironment env;
  private final OpenTables<CommitterTask> tables;

  private RoutedCommitterTask(
      SinkSettings settings, TaskEnvironment env, BiFunction<SinkSettings, TaskEnvironment, CommitterTask> opener) {
    SinkSettings.Routing routing = settings.routing();
    this.check = new RouteCheck(routing.allowedNamespaces());
    this.env = env;
    this.tables = new OpenTables<>(routing.maxOpenTables(), table -> env.openTable(tableEnv -> opener.apply(settings.forTable(table), tableEnv)),
        env, RoutedSinkTask.FAILED_OPEN_RETRY_MILLIS, task -> env.metrics().tableClosed(task.metrics()));
  }

  /**
   * Opens a routing committer after checking the topology configuration; no table is opened until a
   * descriptor names it.
   *
   * @param opener opens the committer of one table, from settings naming it ({@code CommitterTask::open})
   */
  public static RoutedCommitterTask open(
      SinkSettings settings, TaskEnvironment env, BiFunction<SinkSettings, TaskEnvironment, CommitterTask> opener) {
    TopologyChecks.forCommitter(settings, env);
    return new RoutedCommitterTask(settings, env, opener);
  }

  @Override
  public void execute(Tuple tuple) {
    if (TupleUtils.isTick(tuple)) {
      tables.all().forEach(table -> table.execute(tuple));
      return;
    }
    String route = null;
    try {
      route = tableOf(tuple);
      if (tables.getIfOpen(route) == null) {
        check.check(route);
      }
    } catch (RuntimeException e) {
      IllegalArgumentException error = new IllegalArgumentException("Routing committer cannot use the descriptor from"
          + " component '" + tuple.getSourceComponent() + "' task " + tuple.getSourceTask() + " (table " + route + "): "
          + e.getMessage(), e);
      LOG.error(Redaction.redact(error.getMessage()), Redaction.of(error));
      env.collector().reportError(error);
      env.collector().fail(tuple);
      return;
    }
    CommitterTask table = openOrFail(tuple, route);
    if (table != null) {
      table.execute(tuple);
    }
  }

  private static String tableOf(Tuple descriptor) {
    if (!descriptor.contains(DescriptorEmitter.TABLE_FIELD)) {
      throw new IllegalArgumentException("it has no field '" + DescriptorEmitter.TABLE_FIELD + "': subscribe the"
          + " IcebergCommitterBolt to an IcebergWriterBolt's default stream");
    }
    return descriptor.getStringByField(DescriptorEmitter.TABLE_FIELD);
  }

  /** The table's committer; null, the descriptor failed, when the table cannot be opened. */
  private CommitterTask openOrFail(Tuple descriptor, String route) {
    try {
      return tables.get(route, env.clock().getAsLong(), fresh -> {
        LOG.warn("Cannot open table {} to commit a descriptor; failing it, and the table's descriptors for the next"
            + " {} ms", route, RoutedSinkTask.FAILED_OPEN_RETRY_MILLIS, Redaction.of(fresh));
        env.collector().reportError(fresh);
      });
    } catch (RuntimeException failure) {
      env.collector().fail(descriptor);
      return null;
    }
  }

  /** The open tables, least recently used first. */
  public List<String> openTables() {
    return tables.names();
  }

  /** How many tables were committed and closed to make room for another. */
  public long evictions() {
    return tables.evictions();
  }

  @Override
  public void abandon() {
    tables.abandonAll();
  }

  /** Leaves every table's pending descriptors to time out and replay, and closes the catalogs. */
  @Override
  public void close() {
    tables.closeAll();
  }
}
