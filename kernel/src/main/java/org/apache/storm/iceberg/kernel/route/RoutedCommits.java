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

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Future;
import org.apache.storm.iceberg.kernel.task.CommitThread;

/**
 * The commit threads of one routing task, shared by its tables: each table's commits run one at a
 * time, in the order its pipeline hands them over (seal order), and different tables' commits run
 * side by side on up to {@link #THREADS} threads. So a slow or stuck table holds one thread, not
 * the task: the other tables' commits run on the other while it commits. (On one thread, a table
 * whose every commit took D gave each other table one commit per D, as inline commits did.)
 *
 * <p>Stopping is the task's: a table's own {@link CommitThread#stop} (its pipeline closing, as on
 * eviction) stops nothing, since the threads are the other tables' too; {@link #stop} stops them.
 */
final class RoutedCommits {
  /** Threads per routing task: one slow table, and the other tables still commit on time. */
  static final int THREADS = 2;

  private final CommitThread threads;

  /** Over {@code threads}, which may run several commits at once (or one at a time: a test's). */
  RoutedCommits(CommitThread threads) {
    this.threads = threads;
  }

  /** A new table's commit thread: its commits in order, one at a time, on the shared threads. */
  CommitThread forTable() {
    return new TableCommits();
  }

  /** Takes no more commits, drops those not started, interrupts those running. */
  void stop() {
    threads.stop();
  }

  /** One table's commits: handed to the shared threads one at a time, the next when the last ended. */
  private final class TableCommits implements CommitThread {
    private final Deque<Runnable> waiting = new ArrayDeque<>();
    private boolean running;

    @Override
    public void run(Runnable commit) {
      synchronized (this) {
        if (running) {
          waiting.addLast(commit);
          return;
        }
        running = true;
      }
      threads.run(inOrder(commit));
    }

    private Runnable inOrder(Runnable commit) {
      return () -> {
        try {
          commit.run();
        } finally {
          next();
        }
      };
    }

    private void next() {
      Runnable next;
      synchronized (this) {
        next = waiting.pollFirst();
        running = next != null;
      }
      if (next != null) {
        try {
          threads.run(inOrder(next));
        } catch (RuntimeException stopped) {
          // The task stopped the threads: the pipeline drops this commit, which never starts.
        }
      }
    }

    @Override
    public boolean await(Future<?> done, long timeoutMillis) throws InterruptedException {
      return threads.await(done, timeoutMillis);
    }

    @Override
    public void stop() {
      // The threads are the other tables' too: the routing task stops them. The pipeline has already
      // dropped this table's commits that had not started.
    }
  }
}
