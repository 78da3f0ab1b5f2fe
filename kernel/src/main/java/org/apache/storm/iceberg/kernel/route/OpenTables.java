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

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.kernel.task.TableTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-table tasks a routing task holds (a {@code SinkTask} writing each table, or a {@code
 * CommitterTask} committing it), at most {@code max} at any moment, least recently used first:
 * opening one more first hands off what the least recently used holds ({@link TableTask#sealNow}),
 * waits for the commits that started ({@link TableTask#settleHandedOff}) and closes it, so its
 * tuples are settled (acked when the commit lands) before it goes. An eviction that fails (its seal
 * or its catalog's close throws) is logged and reported on its own; the table is gone either way, and
 * the table being opened is not blamed for it. A table that failed to open is not tried again for a
 * while ({@link FailedOpens}). Not thread-safe: one executor thread owns it.
 */
final class OpenTables<T extends TableTask> {
  private static final Logger LOG = LoggerFactory.getLogger(OpenTables.class);

  private final int max;
  private final Function<String, T> opener;
  private final TaskEnvironment env;
  private final FailedOpens failedOpens;
  private final Consumer<T> onClose;
  /** Access-ordered: the least recently used table first. */
  private final LinkedHashMap<String, T> tasks = new LinkedHashMap<>(16, 0.75f, true);
  private long evictions;
  /** The open tasks as of the last open or eviction, for {@link #abandonAll} on another thread. */
  private volatile List<T> published = List.of();

  /**
   * @param retryMillis how long a table that failed to open fails again at once, without a catalog call
   * @param onClose told of each task just before it closes (evicted or not)
   */
  OpenTables(int max, Function<String, T> opener, TaskEnvironment env, long retryMillis, Consumer<T> onClose) {
    this.max = max;
    this.opener = opener;
    this.env = env;
    this.failedOpens = new FailedOpens(retryMillis);
    this.onClose = onClose;
  }

  /** The task writing {@code table} when it is open (it becomes the most recently used), else null. */
  T getIfOpen(String table) {
    return table == null ? null : tasks.get(table);
  }

  /**
   * The task of {@code table}, opening it if it is not open; when {@code max} are open, the least
   * recently used one is closed first, so the bound holds even while the new one opens. A table that
   * failed to open less than {@code retryMillis} ago fails with the same error, opening nothing.
   *
   * @param freshFailure told of an error this call's own open failed with (not of a remembered one)
   * @throws RuntimeException when the table cannot be opened (a table may have been evicted for it)
   */
  T get(String table, long nowMillis, Consumer<RuntimeException> freshFailure) {
    T task = tasks.get(table);
    if (task != null) {
      return task;
    }
    RuntimeException recent = failedOpens.recent(table, nowMillis);
    if (recent != null) {
      throw recent;
    }
    if (tasks.size() >= max) {
      evictEldest(table);
    }
    try {
      task = opener.apply(table);
    } catch (RuntimeException e) {
      failedOpens.remember(table, e, nowMillis);
      freshFailure.accept(e);
      throw e;
    }
    tasks.put(table, task);
    published = List.copyOf(tasks.values());
    return task;
  }

  private void evictEldest(String incoming) {
    Iterator<Map.Entry<String, T>> eldest = tasks.entrySet().iterator();
    Map.Entry<String, T> entry = eldest.next();
    eldest.remove();
    published = List.copyOf(tasks.values());
    evictions++;
    env.metrics().tableEvicted();
    T task = entry.getValue();
    // Closing abandons a commit still running and drops one not started: let them end first, even
    // when the seal failed (an earlier batch's commit may still run).
    RuntimeException failure = attempt(task::sealNow, null);
    failure = attempt(task::settleHandedOff, failure);
    onClose.accept(task);
    failure = attempt(task::close, failure);
    if (failure != null) {
      LOG.warn("Table {} was evicted to make room for {}, but its seal or close failed; tuples its batch still"
          + " held time out and replay", entry.getKey(), incoming, Redaction.of(failure));
      env.collector().reportError(failure);
    }
  }

  /** Runs {@code step}, returning {@code failure} with what it threw added (the first failure, others suppressed). */
  private static RuntimeException attempt(Runnable step, RuntimeException failure) {
    try {
      step.run();
      return failure;
    } catch (RuntimeException e) {
      if (failure == null) {
        return e;
      }
      failure.addSuppressed(e);
      return failure;
    }
  }

  /** The open tasks, least recently used first; a copy, so the caller may seal while it iterates. */
  List<T> all() {
    return new ArrayList<>(tasks.values());
  }

  /** Runs {@code action} on every open task, least recently used first; {@code action} must not open or close one. */
  void forEach(Consumer<T> action) {
    tasks.values().forEach(action);
  }

  /** The open tables' names, least recently used first. */
  List<String> names() {
    return new ArrayList<>(tasks.keySet());
  }

  /** How many tables were closed to make room since the task started. */
  long evictions() {
    return evictions;
  }

  /** From another thread, while a call may still run: closes every task's catalog, leaving its batch alone. */
  void abandonAll() {
    each(published, TableTask::abandon);
  }

  /** Closes every task, abandoning their open batches. */
  void closeAll() {
    List<T> open = all();
    tasks.clear();
    published = List.of();
    each(open, task -> {
      onClose.accept(task);
      task.close();
    });
  }

  private static <T extends TableTask> void each(List<T> open, Consumer<T> close) {
    RuntimeException first = null;
    for (T task : open) {
      first = attempt(() -> close.accept(task), first);
    }
    if (first != null) {
      throw first;
    }
  }
}
