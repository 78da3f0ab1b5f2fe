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

import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.RESTException;

/**
 * The commits of {@link Faults.CommitFault#ERROR_APPLIED_LATE}: each was answered with a generic
 * error at once, and its very request (the same base and new metadata) reaches the real table
 * operations later, as at a server that answers late. Then the catalog's compare-and-swap decides:
 * the late commit lands if nothing committed since its base, and is refused otherwise.
 *
 * <p>Later means one of two things. By default, on another thread after {@link #delayMillis}, as in
 * production. With {@link #afterCalls} set, at the start of that many catalog calls (refresh or
 * commit) after the error, on the calling thread: deterministic, for seeded schedules.
 */
public final class LateCommits {
  private static final ScheduledExecutorService TIMER =
      Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "late-commits");
        thread.setDaemon(true);
        return thread;
      });

  /** The error a late commit is answered with at once. */
  public enum Answer {
    /** A read timeout: {@code UncheckedIOException(SocketTimeoutException)}. */
    READ_TIMEOUT,
    /** A gateway's 524, which the REST client maps to a plain {@code RESTException}. */
    GATEWAY_524,
    /** Each in turn. */
    ALTERNATE
  }

  public volatile Answer answer = Answer.ALTERNATE;
  /** How long after its error a late commit is applied, on another thread. */
  public volatile long delayMillis = 100;
  /** When positive: apply each late commit at the start of this many later catalog calls instead. */
  public volatile int afterCalls;
  public final AtomicInteger scheduled = new AtomicInteger();
  /** Late commits that landed. */
  public final AtomicInteger applied = new AtomicInteger();
  /** Late commits the catalog's compare-and-swap refused. */
  public final AtomicInteger refused = new AtomicInteger();
  /** Late commits that met any other error (neither landed nor refused by the catalog). */
  public final List<Throwable> failed = new CopyOnWriteArrayList<>();
  private final AtomicInteger realCommits;
  private final List<Waiting> waiting = new ArrayList<>();

  private record Waiting(Runnable apply, int[] callsLeft) {}

  LateCommits(AtomicInteger realCommits) {
    this.realCommits = realCommits;
  }

  /** The error the {@code n}th late commit is answered with. */
  RuntimeException error(int n) {
    Answer given = answer == Answer.ALTERNATE ? Answer.values()[n % 2] : answer;
    return given == Answer.READ_TIMEOUT
        ? new UncheckedIOException(new SocketTimeoutException("injected: read timed out; the commit is applied later"))
        : new RESTException("injected: gateway answered 524; the commit is applied later");
  }

  /**
   * Schedules {@code base → metadata} to reach {@code ops} later, taking {@code lock} as every
   * catalog call does; returns the error to answer with now.
   */
  RuntimeException schedule(Lock lock, TableOperations ops, TableMetadata base, TableMetadata metadata) {
    int n = scheduled.getAndIncrement();
    Runnable apply = () -> apply(lock, ops, base, metadata);
    int calls = afterCalls;
    if (calls > 0) {
      synchronized (waiting) {
        waiting.add(new Waiting(apply, new int[] {calls}));
      }
    } else {
      TIMER.schedule(apply, delayMillis, TimeUnit.MILLISECONDS);
    }
    return error(n);
  }

  /** A catalog call starts: applies the late commits it is the due call of. */
  void onCatalogCall() {
    List<Runnable> due = new ArrayList<>();
    synchronized (waiting) {
      for (Iterator<Waiting> it = waiting.iterator(); it.hasNext(); ) {
        Waiting late = it.next();
        if (--late.callsLeft()[0] <= 0) {
          it.remove();
          due.add(late.apply());
        }
      }
    }
    due.forEach(Runnable::run);
  }

  /** Applies every late commit still waiting for its call, now (a schedule's end). */
  public void applyWaitingNow() {
    List<Runnable> due = new ArrayList<>();
    synchronized (waiting) {
      waiting.forEach(late -> due.add(late.apply()));
      waiting.clear();
    }
    due.forEach(Runnable::run);
  }

  /** Whether every late commit has reached the catalog (landed, refused, or failed). */
  public boolean settled() {
    return applied.get() + refused.get() + failed.size() == scheduled.get();
  }

  /** Waits until every late commit has reached the catalog. */
  public void await(Duration timeout) throws InterruptedException {
    Deadline.await(timeout, this::settled,
        () -> "late commits settled: " + scheduled.get() + " scheduled, " + applied.get() + " applied, "
            + refused.get() + " refused, " + failed.size() + " failed");
  }

  private void apply(Lock lock, TableOperations ops, TableMetadata base, TableMetadata metadata) {
    lock.lock();
    try {
      ops.commit(base, metadata);
      applied.incrementAndGet();
      realCommits.incrementAndGet();
    } catch (CommitFailedException e) {
      refused.incrementAndGet();
    } catch (RuntimeException e) {
      failed.add(e);
    } finally {
      lock.unlock();
    }
  }
}
