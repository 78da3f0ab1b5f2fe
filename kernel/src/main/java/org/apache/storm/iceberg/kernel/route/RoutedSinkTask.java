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

import java.util.function.Supplier;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.kernel.task.CommitThread;
import org.apache.storm.iceberg.kernel.task.HandoffTimes;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.kernel.task.UnroutableTuples;
import org.apache.storm.iceberg.kernel.task.WriterChecks;
import org.apache.storm.iceberg.kernel.task.WritingTask;
import org.apache.storm.iceberg.spi.TableRouter;
import org.apache.storm.iceberg.kernel.position.OffsetClaims;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.apache.storm.iceberg.spi.SourcePositionExtractor;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task of a routing sink: asks the router for each tuple's table, checks the name ({@link
 * RouteCheck}), and hands the tuple to that table's own {@link SinkTask}, which has its own open
 * batch, WAL scope, commit ids and commits, and acks a tuple only when its table's commit landed (a
 * table whose commit fails fails only its own tuples). At most {@code withMaxOpenTables} tables are
 * open ({@link OpenTables}). The split sink's writer routes the same way, with per-table writing
 * tasks whose sealed batches each emit a descriptor naming their table instead of committing.
 *
 * <p>One seal covers every table: when any table's batch seals (a threshold it crossed, or a tick
 * once it is old enough), every other table with records is sealed and committed too, each in its
 * own commit. Ticks reach every open table. A table with {@code withMaxPendingCommits} commits still
 * pending is left out of a seal and of ticks, so the executor never waits for it there: its batch
 * stays open and joins a later seal (its own size thresholds still seal it, and then the executor
 * waits for its oldest commit, as an unrouted task does: that keeps memory bounded).
 *
 * <p>Commits run off the executor thread ({@link RoutedCommits}): each table's in seal order, the
 * tables' side by side on the task's commit threads. Every call first settles (acks or fails, on
 * this thread) every table's commits that ended. The tables share one {@link HandoffTimes}: a wait
 * on any table's commit dates the next batch of every table. A table is evicted only once its
 * commits have ended and settled ({@link OpenTables}).
 *
 * <p>Recovery: a table's WAL scope is the table's own, so a task finds the entries an earlier task
 * left in a table when it opens that table, and drops them as an unrouted sink does at prepare,
 * logging what each commit became (as "of its previous incarnation", even when this task left it
 * before the table was evicted and reopened). Entries in a table it never opens again stay, never
 * settled nor logged. An entry does not mean un-acked tuples: a commit whose outcome stays unknown
 * keeps its entry and fails its tuples, and a settled commit whose entry cannot be deleted acks or
 * fails them all the same. No data is at risk: dropping an entry only logs; it deletes no data file
 * and settles no tuple (docs/ROUTING.md).
 *
 * <p>Configuration checks that need no table run here, at prepare ({@link WriterChecks}); a table
 * that fails to open is not tried again for {@link #FAILED_OPEN_RETRY_MILLIS}; the dead-letter
 * window is one for the task, shared by its tables.
 *
 * <p>With source positions, the task notes each tuple's offset with its route ({@link OffsetClaims})
 * before the table takes it, and each table's batch records in its positions ledger its own offsets
 * plus the ones it may claim of those routed to other tables, so a table's positions stay one range
 * per partition (docs/ROUTING.md). That assumes a deterministic router: a replay must go to the
 * table it went to before. A writer's table cannot know what its ledger will hold when its
 * descriptor lands, so its descriptor carries the offsets routed elsewhere for the committer to claim.
 */
public final class RoutedSinkTask implements WritingTask {
  private static final Logger LOG = LoggerFactory.getLogger(RoutedSinkTask.class);

  /** How long a table that failed to open is not tried again: its tuples meanwhile fail (or are bad routes) at once. */
  public static final long FAILED_OPEN_RETRY_MILLIS = 10_000;

  /** Opens one table's sink task, committing on {@code commitThread} and dating batches by {@code handoffs}. */
  @FunctionalInterface
  public interface TableOpener {
    SinkTask open(SinkSettings settings, TaskEnvironment env, CommitThread commitThread, HandoffTimes handoffs);
  }

  private final TableRouter router;
  private final RouteCheck check;
  private final UnroutableTuples unroutable;
  private final TaskEnvironment env;
  private final OpenTables<SinkTask> tables;
  private final RoutedCommits commits;
  /** Reads each tuple's source position; null without source positions. */
  private final SourcePositionExtractor positions;
  private final OffsetClaims claims;

  private RoutedSinkTask(SinkSettings settings, TaskEnvironment taskEnv, Supplier<CommitThread> threads, TableOpener opener) {
    // One dead-letter window for the task: opening and closing tables must not reset it.
    TaskEnvironment env = UnroutableTuples.sharedEnvironment(settings, taskEnv);
    // Checked once here, at prepare: a table's own open runs them again, but only when a tuple comes.
    WriterChecks.beforeAnyTable(settings, env);
    SinkSettings.Routing routing = settings.routing();
    this.router = routing.router().resolve(Thread.currentThread().getContextClassLoader());
    this.check = new RouteCheck(routing.allowedNamespaces());
    this.unroutable = UnroutableTuples.of(settings, env);
    this.env = env;
    this.commits = new RoutedCommits(threads.get());
    this.positions = settings.sourcePositions() == null ? null
        : settings.sourcePositions().extractor().resolve(Thread.currentThread().getContextClassLoader());
    this.claims = positions == null ? null : new OffsetClaims();
    HandoffTimes handoffs = new HandoffTimes(env.clock());
    this.tables = new OpenTables<>(routing.maxOpenTables(),
        table -> env.openTable(tableEnv -> claiming(opener.open(settings.forTable(table), tableEnv, commits.forTable(), handoffs), table)),
        env, FAILED_OPEN_RETRY_MILLIS, task -> env.metrics().tableClosed(task.metrics()));
  }

  /** The table's task, its batches claiming the offsets {@link #claims} allows, when the sink records source positions. */
  private SinkTask claiming(SinkTask task, String table) {
    if (claims != null) {
      task.claimWith(claims, table);
    }
    return task;
  }

  /**
   * Notes the tuple's source position with its route, before its table sees it. A position that
   * cannot be read is not noted: the table's own intake fails the tuple and reports why, and an
   * offset not noted is never claimed.
   */
  private void noteRoute(Tuple tuple, String route) {
    SourcePosition position;
    try {
      position = positions.position(tuple);
    } catch (RuntimeException e) {
      return;
    }
    if (position != null) {
      claims.routed(position, route);
    }
  }

  /** {@code IcebergBolt}'s routing task: commits on {@link RoutedCommits#THREADS} threads of its own. */
  public static RoutedSinkTask openPipelined(SinkSettings settings, TaskEnvironment env) {
    String name = "iceberg-commit-" + env.task().component() + "-" + env.task().taskIndex();
    return open(settings, env, () -> CommitThread.dedicated(name, RoutedCommits.THREADS), SinkTasks::open);
  }

  /**
   * Opens a routing task that commits each table's batch as it seals, on the calling thread; no
   * table is opened until a tuple routes to it.
   *
   * @param opener opens the sink task of one table, from settings naming it: {@code SinkTasks::open}
   *     for {@code IcebergBolt}, {@code SinkTasks.openRoutedWriter} for {@code IcebergWriterBolt}, whose
   *     tables' batches each emit a descriptor naming their table (and commit nothing)
   */
  public static RoutedSinkTask open(SinkSettings settings, TaskEnvironment env, TableOpener opener) {
    return open(settings, env, CommitThread::inline, opener);
  }

  /** As above, committing on {@code threads}, made once the checks at prepare passed. */
  public static RoutedSinkTask open(SinkSettings settings, TaskEnvironment env, Supplier<CommitThread> threads, TableOpener opener) {
    return new RoutedSinkTask(settings, env, threads, opener);
  }

  @Override
  public void execute(Tuple tuple) {
    // Acks and fails on this thread only: every table's ended commits, whatever this tuple is for.
    tables.forEach(task -> task.commits().settleCompleted());
    if (TupleUtils.isTick(tuple)) {
      boolean sealed = false;
      for (SinkTask task : tables.all()) {
        if (task.commits().atBound()) {
          continue; // its seal would wait for its oldest commit: its batch joins a later seal
        }
        long seals = task.seals();
        task.execute(tuple);
        sealed |= task.seals() != seals;
      }
      if (sealed) {
        sealAll();
      }
      return;
    }
    unroutable.taken();
    String route = null;
    SinkTask task;
    try {
      route = router.route(tuple);
      task = tables.getIfOpen(route);
      if (task == null) {
        check.check(route); // an open table's name passed it when the table opened
      }
    } catch (RuntimeException e) {
      unroutable.reject(tuple, route, e);
      return;
    }
    if (claims != null) {
      // Noted even if its table cannot open: the tuple replays to that table, so no other may claim it.
      noteRoute(tuple, route);
    }
    if (task == null) {
      task = openOrReject(tuple, route);
    }
    if (task != null) {
      long seals = task.seals();
      task.execute(tuple);
      if (task.seals() != seals) {
        sealAll();
      }
    }
  }

  /**
   * The table's task; null, the tuple settled, when the table cannot be opened, or failed to open
   * less than {@link #FAILED_OPEN_RETRY_MILLIS} ago.
   */
  private SinkTask openOrReject(Tuple tuple, String route) {
    try {
      return tables.get(route, env.clock().getAsLong(), fresh -> {
        if (!FailedOpens.permanent(fresh)) {
          LOG.warn("Cannot open table {} for a routed tuple; failing it, and the table's tuples for the next {} ms",
              route, FAILED_OPEN_RETRY_MILLIS, Redaction.of(fresh));
          env.collector().reportError(fresh);
        }
      });
    } catch (RuntimeException failure) {
      if (FailedOpens.permanent(failure)) {
        // The catalog refused the table for good: the route is wrong, as an invalid name is.
        unroutable.reject(tuple, route, failure);
      } else {
        env.collector().fail(tuple);
      }
      return null;
    }
  }

  /** Seals every table with records, each committed on its own, except those at their bound of pending commits. */
  private void sealAll() {
    for (SinkTask task : tables.all()) {
      if (!task.commits().atBound()) {
        task.sealNow();
      }
    }
  }

  /** The open tables, least recently used first. */
  public java.util.List<String> openTables() {
    return tables.names();
  }

  /** How many tables were sealed, committed and closed to make room for another. */
  public long evictions() {
    return tables.evictions();
  }

  @Override
  public void abandon() {
    commits.stop();
    tables.abandonAll();
  }

  /**
   * Stops the commit threads (commits not started never start, running ones are interrupted), then
   * closes every table, which settles what ended (docs/ROUTING.md).
   */
  @Override
  public void close() {
    commits.stop();
    tables.closeAll();
  }
}
