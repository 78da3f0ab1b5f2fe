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

package org.apache.storm.iceberg.testing;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Future;
import org.apache.storm.iceberg.kernel.task.CommitThread;

/**
 * A commit thread the test steps itself, on its own thread: commits handed over wait until the test
 * runs them ({@link #runNext}, {@link #runAll}), or until the executor waits on one (then every
 * commit before it, and it, run: the executor cannot go on without them). Deterministic, so one
 * seed of a random schedule is one schedule.
 */
public final class SteppedCommitThread implements CommitThread {
  private final Deque<Runnable> queued = new ArrayDeque<>();
  /** Told the index of each commit (in the order handed over, from 0) just before and after it runs. */
  private final Observer observer;
  private int handedOver;
  private int ran;
  /** How many times the executor waited on a commit that had not run: the bound (or a settle-all) held it. */
  public int executorWaits;
  public boolean stopped;

  /** What a test sees of each commit run: its index, in the order handed over, from 0. */
  public interface Observer {
    void before(int commit);

    void after(int commit);
  }

  public SteppedCommitThread() {
    this(new Observer() {
      @Override
      public void before(int commit) {}

      @Override
      public void after(int commit) {}
    });
  }

  public SteppedCommitThread(Observer observer) {
    this.observer = observer;
  }

  @Override
  public void run(Runnable commit) {
    if (stopped) {
      throw new IllegalStateException("the commit thread was stopped");
    }
    handedOver++;
    queued.addLast(commit);
  }

  /** How many commits were handed over: the index the batch open now will have. */
  public int handedOver() {
    return handedOver;
  }

  @Override
  public boolean await(Future<?> done, long timeoutMillis) {
    if (!done.isDone() && !queued.isEmpty()) {
      executorWaits++;
    }
    while (!done.isDone() && !queued.isEmpty()) {
      runNext();
    }
    return done.isDone();
  }

  @Override
  public void stop() {
    stopped = true;
    ran += queued.size();
    queued.clear();
  }

  /** How many commits wait to run. */
  public int queued() {
    return queued.size();
  }

  /** Runs the oldest commit waiting; whether there was one. */
  public boolean runNext() {
    Runnable next = queued.pollFirst();
    if (next != null) {
      int commit = ran++;
      observer.before(commit);
      try {
        next.run();
      } finally {
        observer.after(commit);
      }
    }
    return next != null;
  }

  public void runAll() {
    while (runNext()) {
      // next
    }
  }
}
