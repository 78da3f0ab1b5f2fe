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

package org.apache.storm.iceberg.kernel.task;

import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.kernel.table.TableLifecycle;
import org.apache.storm.task.OutputCollector;

/**
 * Opens {@link SinkTask}s: picks the handler each kind of task hands its sealed batches to (a commit
 * through the {@link org.apache.storm.iceberg.kernel.commit.CommitProtocol} for {@code IcebergBolt},
 * a {@link DescriptorEmitter} for {@code IcebergWriterBolt}) and the thread commits run on, so that
 * the task itself constructs neither.
 */
public final class SinkTasks {
  private SinkTasks() {}

  /**
   * Opens a committing task that commits each batch as it seals, on the calling thread: opens the
   * table (auto-creating it when configured), checks it and the topology configuration, resolves the
   * providers on this worker's classpath, and drops the WAL entries its previous incarnation left.
   */
  public static SinkTask open(SinkSettings settings, TaskEnvironment env) {
    return open(settings, env, CommitThread.inline());
  }

  /**
   * As {@link #open(SinkSettings, TaskEnvironment)}, but each sealed batch commits on a thread of
   * the task's own while the executor writes the next ({@link CommitPipeline}): {@code IcebergBolt}'s task.
   */
  public static SinkTask openPipelined(SinkSettings settings, TaskEnvironment env) {
    return open(settings, env, CommitThread.dedicated("iceberg-commit-" + env.task().component() + "-" + env.task().taskIndex()));
  }

  /** As {@link #open(SinkSettings, TaskEnvironment)}, committing on {@code commitThread} ({@link CommitPipeline}). */
  public static SinkTask open(SinkSettings settings, TaskEnvironment env, CommitThread commitThread) {
    return create(settings, env, new HandoffTimes(env.clock()), false,
        parts -> TaskCommitProtocol.pipeline(parts, settings, env, commitThread));
  }

  /**
   * One table of a routing task: as above, dating its batches by {@code handoffs}, which the tables
   * share, and sealing on a time threshold only when that would not wait for its own earlier commit.
   */
  public static SinkTask open(SinkSettings settings, TaskEnvironment env, CommitThread commitThread, HandoffTimes handoffs) {
    return create(settings, env, handoffs, true,
        parts -> TaskCommitProtocol.pipeline(parts, settings, env, commitThread));
  }

  /** A committing task outside Storm, with its own metrics and the system clock, committing as it seals. */
  public static SinkTask open(SinkSettings settings, TaskIdentity task, OutputCollector collector) {
    return open(settings, TaskEnvironment.detached(task, collector, System::currentTimeMillis), CommitThread.inline());
  }

  public static SinkTask open(SinkSettings settings, TaskIdentity task, OutputCollector collector, LongSupplier clock) {
    return open(settings, TaskEnvironment.detached(task, collector, clock), CommitThread.inline());
  }

  /** As above, committing on {@code commitThread}. */
  public static SinkTask open(
      SinkSettings settings, TaskIdentity task, OutputCollector collector, LongSupplier clock, CommitThread commitThread) {
    return open(settings, TaskEnvironment.detached(task, collector, clock), commitThread);
  }

  /**
   * Opens a writing task of the split sink ({@code IcebergWriterBolt}): as {@link #open}, but each
   * sealed batch is emitted as a descriptor for the committer, and no WAL is written.
   */
  public static SinkTask openWriter(SinkSettings settings, TaskEnvironment env) {
    return openWriter(settings, env, new HandoffTimes(env.clock()), false);
  }

  /**
   * One table's writer in a routing {@code IcebergWriterBolt}: the checks that need no table ran at
   * prepare, and the executor's handoff clock is the routing task's.
   */
  public static SinkTask openRoutedWriter(SinkSettings settings, TaskEnvironment env, HandoffTimes handoffs) {
    return openWriter(settings, env, handoffs, true);
  }

  private static SinkTask openWriter(SinkSettings settings, TaskEnvironment env, HandoffTimes handoffs, boolean routed) {
    return create(settings, env, handoffs, routed,
        parts -> new DescriptorEmitter(parts.opened().table(), settings.target().table(), env, parts.fence()));
  }

  public static SinkTask openWriter(SinkSettings settings, TaskIdentity task, OutputCollector collector, LongSupplier clock) {
    return openWriter(settings, TaskEnvironment.detached(task, collector, clock));
  }

  private static SinkTask create(
      SinkSettings settings,
      TaskEnvironment env,
      HandoffTimes handoffs,
      boolean routed,
      Function<TaskParts, SealedBatchHandler> handlerFactory) {
    return TaskParts.open(settings, env, routed,
        parts -> new SinkTask(parts, handlerFactory.apply(parts), env, handoffs, routed));
  }
}
