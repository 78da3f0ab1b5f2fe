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

import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.iceberg.kernel.batch.SealedBatch;
import org.apache.storm.iceberg.kernel.commit.CommitOutcome;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.spi.Redaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code IcebergBolt}'s commits, off the executor thread: each sealed batch is committed on the
 * task's {@link CommitThread} while the executor writes the next, and settled (acked or failed) back
 * on the executor thread, since Storm's collector is not thread-safe.
 *
 * <ul>
 *   <li><b>Order.</b> Commits run in seal order, one at a time, and settle in that order. Each batch
 *       is independent: a failed commit fails only its batch's tuples, and a later batch may still land.
 *   <li><b>Bound.</b> At most {@code maxPending} sealed batches are handed over and not yet settled;
 *       the executor thread waits for the oldest before it hands over one more. Nothing else buffers.
 *   <li><b>Settling.</b> The executor thread settles finished commits on every call ({@link
 *       #settleCompleted}), before it hands over a batch, and whenever it must see the table with
 *       every commit landed ({@link #settleAll}).
 *   <li><b>Shutdown.</b> {@link #close} treats a commit in flight as a stopping executor thread
 *       treated one it ran itself: interrupted and waited for; a batch whose commit never started is
 *       dropped (its tuples time out and replay, its files are orphans). Only on the executor
 *       thread does it settle a commit that ended; from another thread ({@code cleanup}'s, in Storm)
 *       it settles nothing: those tuples time out and replay too.
 * </ul>
 *
 * <p>One executor thread calls it; only {@link Pending#run} runs on the commit thread. {@link
 * #close} may be called from another thread once the executor thread is idle, and {@link #abandon}
 * while a call is still running; neither then touches the collector.
 */
final class CommitPipeline implements SealedBatchHandler {
  private static final Logger LOG = LoggerFactory.getLogger(CommitPipeline.class);
  /** How long the executor waits on the oldest commit between checks that it was not interrupted. */
  private static final long WAIT_SLICE_MILLIS = 1_000;

  private final CommitThenAck committer;
  private final CommitThread thread;
  private final int maxPending;
  private final SinkMetrics metrics;
  /** Concurrent only so that {@link #abandon}, from {@code cleanup}'s thread, may walk it while a call is stuck. */
  private final Deque<Pending> pending = new ConcurrentLinkedDeque<>();
  private volatile boolean abandoned;
  /** The thread that settles: the one that hands batches over. Acks from any other would race Storm's. */
  private volatile Thread executorThread;

  CommitPipeline(CommitThenAck committer, CommitThread thread, int maxPending, SinkMetrics metrics) {
    this.committer = committer;
    this.thread = thread;
    this.maxPending = maxPending;
    this.metrics = metrics;
  }

  /** One sealed batch handed to the commit thread. */
  private final class Pending implements Runnable {
    private static final int QUEUED = 0;
    private static final int RUNNING = 1;
    private static final int DROPPED = 2;

    final SealedBatch batch;
    final CompletableFuture<CommitOutcome> outcome = new CompletableFuture<>();
    private final AtomicInteger state = new AtomicInteger(QUEUED);

    Pending(SealedBatch batch) {
      this.batch = batch;
    }

    @Override
    public void run() {
      if (!state.compareAndSet(QUEUED, RUNNING)) {
        return;
      }
      try {
        CommitOutcome settled = committer.commitOnly(batch);
        if (abandoned) {
          LOG.info("A commit abandoned while the task stopped ended {}; its {} tuples are not acked",
              settled.status(), batch.tuples().size(), Redaction.of(settled.error()));
        }
        outcome.complete(settled);
      } catch (Throwable t) {
        outcome.completeExceptionally(t);
      }
    }

    /** Keeps a commit that has not started from ever starting; whether it had not. */
    boolean drop() {
      boolean dropped = state.compareAndSet(QUEUED, DROPPED);
      if (dropped) {
        outcome.complete(null);
      }
      return dropped;
    }
  }

  @Override
  public void handle(SealedBatch batch) {
    executorThread = Thread.currentThread();
    settleCompleted();
    while (pending.size() >= maxPending) {
      if (!settleOldest()) {
        // Interrupted: Storm is stopping this executor. The batch is not committed; its tuples time out.
        LOG.info("Not committing a sealed batch of {} tuples: the task is stopping", batch.tuples().size());
        batch.tuples().release();
        return;
      }
    }
    Pending handed = new Pending(batch);
    pending.addLast(handed);
    publishPending();
    metrics.nothingPending(); // the batch being written is gone; the one handed over counts as committing
    thread.run(handed);
    settleCompleted();
  }

  @Override
  public void settleCompleted() {
    while (!pending.isEmpty() && pending.peekFirst().outcome.isDone()) {
      settle(pending.pollFirst());
    }
  }

  @Override
  public boolean atBound() {
    settleCompleted();
    return pending.size() >= maxPending;
  }

  @Override
  public void settleAll() {
    while (!pending.isEmpty()) {
      if (!settleOldest()) {
        return;
      }
    }
  }

  /** Waits for the oldest commit and settles it; false when interrupted first (the interrupt is kept). */
  private boolean settleOldest() {
    Pending oldest = pending.peekFirst();
    try {
      while (!thread.await(oldest.outcome, WAIT_SLICE_MILLIS)) {
        // keep waiting: a commit ends, at the latest, at its batch's commit deadline plus one catalog call
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    settle(pending.pollFirst());
    return true;
  }

  private void settle(Pending done) {
    try {
      CommitOutcome outcome;
      try {
        outcome = done.outcome.join();
      } catch (CompletionException e) {
        // What the commit threw, as an inline commit would have thrown it on the executor thread.
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        if (e.getCause() instanceof Error fatal) {
          throw fatal;
        }
        throw e;
      }
      if (outcome != null && !abandoned) {
        committer.settle(outcome, done.batch.tuples());
      }
    } finally {
      done.batch.tuples().release();
      publishPending();
    }
  }

  private void publishPending() {
    int files = 0;
    for (Pending p : pending) {
      files += p.batch.dataFiles().size();
    }
    metrics.committing(files, pending.isEmpty() ? -1 : pending.peekFirst().batch.oldestTupleMillis());
  }

  /**
   * Stops the commit thread: commits not started never start, the one running is interrupted and
   * given up to {@code waitMillis} to end. On the executor thread, one that ended is settled; from
   * any other thread its outcome is only logged, and its tuples are left un-acked, as an abandoned
   * call's are.
   */
  @Override
  public void close(long waitMillis) {
    pending.forEach(Pending::drop);
    thread.stop();
    committer.close();
    boolean settles = executorThread == null || executorThread == Thread.currentThread();
    long deadline = System.currentTimeMillis() + waitMillis;
    while (!pending.isEmpty()) {
      Pending oldest = pending.peekFirst();
      if (!awaitUntil(oldest, deadline)) {
        LOG.warn("A commit is still running {} ms after the task began to stop; abandoning it: its tuples are not acked", waitMillis);
        abandon();
        releaseAll();
        return;
      }
      if (!settles) {
        logUnsettled(pending.pollFirst());
        continue;
      }
      try {
        settle(pending.pollFirst());
      } catch (RuntimeException e) {
        // Stopping must not throw (cleanup runs on Storm's shutdown path); what is left replays.
        LOG.warn("Cannot settle a commit while the task stops; leaving the rest un-acked", Redaction.of(e));
        abandon();
        releaseAll();
        return;
      }
    }
  }

  /** Whether {@code commit} ended by {@code deadlineMillis}. */
  private boolean awaitUntil(Pending commit, long deadlineMillis) {
    try {
      return thread.await(commit.outcome, Math.max(0, deadlineMillis - System.currentTimeMillis()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return commit.outcome.isDone();
    }
  }

  /** A commit that ended while the task stopped off the executor thread: logged, its tuples left to time out. */
  private void logUnsettled(Pending done) {
    try {
      CommitOutcome outcome = done.outcome.getNow(null);
      if (outcome != null) {
        LOG.info("A commit that ended while the task stopped {}; its {} tuples are not acked (not the executor thread)",
            outcome.status(), done.batch.tuples().size(), Redaction.of(outcome.error()));
      }
    } catch (RuntimeException e) {
      LOG.info("A commit that ended while the task stopped threw; its tuples are not acked", Redaction.of(e));
    } finally {
      done.batch.tuples().release();
      publishPending();
    }
  }

  /** Lets go of every batch still pending, un-acked (on the executor thread, or with it idle). */
  private void releaseAll() {
    for (Pending p = pending.pollFirst(); p != null; p = pending.pollFirst()) {
      p.batch.tuples().release();
    }
  }

  /**
   * Drops every commit not started and interrupts the running one, settling nothing: the executor
   * thread may still be inside a call, so this leaves the queue and the tuples to it.
   */
  @Override
  public void abandon() {
    abandoned = true;
    pending.forEach(Pending::drop);
    thread.stop();
    metrics.committing(0, -1);
  }
}
