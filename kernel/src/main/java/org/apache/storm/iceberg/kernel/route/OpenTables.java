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
import java.util.function.Function;
import org.apache.storm.iceberg.kernel.task.SinkTask;

/**
 * The per-table sink tasks a routing task holds, at most {@code max}, least recently used first:
 * opening one more seals, commits and closes the least recently used, so its tuples are settled
 * (acked when the commit lands) before it goes. Not thread-safe: one executor thread owns it.
 */
final class OpenTables {
  private final int max;
  private final Function<String, SinkTask> opener;
  /** Access-ordered: the least recently used table first. */
  private final LinkedHashMap<String, SinkTask> tasks = new LinkedHashMap<>(16, 0.75f, true);
  private long evictions;
  /** The open tasks as of the last open or eviction, for {@link #abandonAll} on another thread. */
  private volatile List<SinkTask> published = List.of();

  OpenTables(int max, Function<String, SinkTask> opener) {
    this.max = max;
    this.opener = opener;
  }

  /**
   * The task writing {@code table}, opening it (and closing the least recently used one first, when
   * {@code max} are open) if it is not open.
   *
   * @throws RuntimeException when the table cannot be opened; nothing was evicted
   */
  SinkTask get(String table) {
    SinkTask task = tasks.get(table);
    if (task != null) {
      return task;
    }
    // Opened before evicting: a table that cannot open costs no other table its batch.
    task = opener.apply(table);
    if (tasks.size() >= max) {
      evictEldest();
    }
    tasks.put(table, task);
    published = List.copyOf(tasks.values());
    return task;
  }

  private void evictEldest() {
    Iterator<Map.Entry<String, SinkTask>> eldest = tasks.entrySet().iterator();
    SinkTask evicted = eldest.next().getValue();
    eldest.remove();
    evictions++;
    try {
      evicted.sealNow();
    } finally {
      evicted.close();
    }
  }

  /** The open tasks, least recently used first; a copy, so the caller may seal while it iterates. */
  List<SinkTask> all() {
    return new ArrayList<>(tasks.values());
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
    each(published, SinkTask::abandon);
  }

  /** Closes every task, abandoning their open batches. */
  void closeAll() {
    List<SinkTask> open = all();
    tasks.clear();
    published = List.of();
    each(open, SinkTask::close);
  }

  private static void each(List<SinkTask> open, java.util.function.Consumer<SinkTask> close) {
    RuntimeException first = null;
    for (SinkTask task : open) {
      try {
        close.accept(task);
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
