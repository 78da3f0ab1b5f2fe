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

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Where {@code IcebergBolt}'s commits run ({@link CommitPipeline}): one at a time, in the order
 * given. The executor thread hands commits over and waits on them only through this, so a test can
 * stand in a thread it steps itself.
 */
public interface CommitThread {
  /** Runs {@code commit} after every commit given before it. */
  void run(Runnable commit);

  /**
   * Waits up to {@code timeoutMillis} for {@code done}, a commit given to {@link #run}, to end.
   *
   * @return whether it ended
   */
  boolean await(Future<?> done, long timeoutMillis) throws InterruptedException;

  /**
   * Takes no more commits, and interrupts the one running, as Storm interrupts a stopping executor
   * thread: a commit waiting to retry gives up ({@code UNKNOWN}), exactly as it did on that thread.
   */
  void stop();

  /** Runs each commit at once, on the caller's thread: the task commits as it seals, as before #21. */
  static CommitThread inline() {
    return new CommitThread() {
      @Override
      public void run(Runnable commit) {
        commit.run();
      }

      @Override
      public boolean await(Future<?> done, long timeoutMillis) {
        return done.isDone();
      }

      @Override
      public void stop() {}
    };
  }

  /** A daemon thread of its own, named {@code name}. */
  static CommitThread dedicated(String name) {
    return dedicated(name, 1);
  }

  /**
   * {@code threads} daemon threads of its own, named {@code name-1}, {@code name-2}... ({@code
   * name} alone for one), running commits given in that order but several at once: for callers
   * that keep their own order (a routing task keeps each table's).
   */
  static CommitThread dedicated(String name, int threads) {
    java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();
    ExecutorService thread = Executors.newFixedThreadPool(threads, runnable -> {
      Thread t = new Thread(runnable, threads == 1 ? name : name + "-" + made.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    return new CommitThread() {
      @Override
      public void run(Runnable commit) {
        thread.execute(commit);
      }

      @Override
      public boolean await(Future<?> done, long timeoutMillis) throws InterruptedException {
        try {
          done.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
          // Ended: the caller reads the failure from the future itself.
        } catch (TimeoutException e) {
          return false;
        }
        return true;
      }

      @Override
      public void stop() {
        thread.shutdownNow();
      }
    };
  }
}
