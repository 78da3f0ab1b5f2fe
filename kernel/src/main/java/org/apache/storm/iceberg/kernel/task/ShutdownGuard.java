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

import org.apache.storm.iceberg.spi.Redaction;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a bolt's {@code cleanup} close its task while the executor thread may still be inside {@code
 * execute}, and keeps the task from reporting errors its own shutdown caused.
 *
 * <p>Storm 2.8 stops an executor from another thread ({@code ExecutorShutdown.shutdown}): it
 * interrupts the executor thread, waits 100 ms for it, disconnects the executor from the cluster
 * state, then calls {@code cleanup}. A commit may still be running on the executor thread then.
 * Closing the catalog under it fails it ("Cannot get a client from a closed pool"); reporting that
 * through the disconnected cluster state throws out of {@code execute}, and Storm's handler for an
 * uncaught exception halts the worker process: in LocalCluster, the user's own JVM.
 *
 * <p>So {@link #close} first waits, up to {@link #CLOSE_WAIT_MILLIS}, for the call in flight to
 * end, and closes the task only then; if the call is still running, it abandons it (the catalog is
 * closed under it, its batch left alone). From the moment {@code cleanup} starts, and whenever the
 * executor thread is interrupted (Storm interrupts it only to stop it), errors are logged, never
 * reported, and an exception out of {@code execute} is logged, not thrown. Calls after {@code
 * cleanup} are ignored: their tuples time out. Once closed, the executor thread is interrupted
 * again, as Storm did, for a call may have swallowed Storm's interrupt and Storm's executor loop
 * ends only on one.
 */
public final class ShutdownGuard {
  private static final Logger LOG = LoggerFactory.getLogger(ShutdownGuard.class);

  /**
   * How long {@code cleanup} waits for a call in flight. Storm's supervisor gives a stopping worker
   * 3 s ({@code supervisor.worker.shutdown.sleep.secs}) before it kills it.
   */
  public static final long CLOSE_WAIT_MILLIS = 2_000;

  private final ReentrantLock inCall = new ReentrantLock();
  private volatile boolean closing;
  private volatile Thread executorThread;

  /** {@code collector}, except that errors met while the task shuts down are logged, not reported. */
  public OutputCollector guard(OutputCollector collector) {
    return new OutputCollector(new ShutdownAwareCollector(collector));
  }

  /**
   * Starts one call on the executor thread. When it returns true, the caller runs the call and then
   * calls {@link #exit}, in a finally block; when false, the task is closed and the call is skipped.
   */
  public boolean enter() {
    Thread current = Thread.currentThread();
    if (executorThread != current) {
      executorThread = current;
    }
    inCall.lock();
    if (closing) {
      inCall.unlock();
      current.interrupt(); // as in exit(): let Storm's executor loop end
      return false;
    }
    return true;
  }

  /** Ends the call {@link #enter} started. */
  public void exit() {
    inCall.unlock();
    if (closing) {
      // Storm interrupted this thread to stop it, and the call (Iceberg, a JDBC driver) may have
      // swallowed that: without it, Storm's executor loop idles on forever.
      Thread.currentThread().interrupt();
    }
  }

  /** Rethrows what a call threw, unless the task is shutting down: then it is only logged. */
  public void failed(RuntimeException error) {
    if (!shuttingDown(error)) {
      throw error;
    }
    LOG.info("Ignoring an error met while the task shuts down: {}", Redaction.of(error).toString());
  }

  /** Runs {@code tuple} through {@code task} as one guarded call ({@link #enter}, {@link #failed}, {@link #exit}). */
  public void execute(WritingTask task, Tuple tuple) {
    if (!enter()) {
      return;
    }
    try {
      task.execute(tuple);
    } catch (RuntimeException e) {
      failed(e);
    } finally {
      exit();
    }
  }

  /** Closes {@code task} ({@link #close(Runnable, Runnable)}): orderly once idle, else abandoned. */
  public void close(WritingTask task) {
    close(task::close, task::abandon);
  }

  /**
   * Closes the task: {@code orderly} once no call is in flight, or {@code abandon} (close the
   * catalog under the call, touching nothing the call uses) if one still runs after {@link
   * #CLOSE_WAIT_MILLIS}. Never throws: {@code cleanup} runs on Storm's shutdown path.
   */
  public void close(Runnable orderly, Runnable abandon) {
    closing = true;
    boolean idle;
    try {
      idle = inCall.tryLock(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      idle = inCall.tryLock();
    }
    try {
      if (idle) {
        orderly.run();
      } else {
        LOG.warn(
            "A call (a commit, most likely) is still running {} ms after the task began to shut down;"
                + " abandoning it: the catalog is closed under it, its tuples are not acked",
            CLOSE_WAIT_MILLIS);
        abandon.run();
      }
    } catch (RuntimeException e) {
      LOG.warn("Cannot close the task cleanly", Redaction.of(e));
    } finally {
      if (idle) {
        inCall.unlock();
      }
    }
    interruptIdleExecutorThread();
  }

  /**
   * Interrupts the executor thread again, as Storm did, in case a call swallowed Storm's interrupt
   * and ended before {@code cleanup} began: otherwise its loop would idle on forever.
   */
  private void interruptIdleExecutorThread() {
    Thread executor = executorThread;
    if (executor != null && executor != Thread.currentThread()) {
      executor.interrupt();
    }
  }

  private boolean shuttingDown(Throwable error) {
    return closing || Thread.currentThread().isInterrupted() || causedByInterrupt(error);
  }

  private static boolean causedByInterrupt(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof InterruptedException || t instanceof InterruptedIOException || t instanceof ClosedByInterruptException) {
        return true;
      }
    }
    return false;
  }

  /** Passes everything through, but holds back errors once the task is shutting down. */
  private final class ShutdownAwareCollector implements IOutputCollector {
    private final OutputCollector delegate;

    ShutdownAwareCollector(OutputCollector delegate) {
      this.delegate = delegate;
    }

    @Override
    public void reportError(Throwable error) {
      if (shuttingDown(error)) {
        // Storm has disconnected this executor's error reporting, or is about to: a report could
        // throw and halt the worker. The error is the shutdown's own doing, or moot once it ends.
        LOG.info("Not reporting an error met while the task shuts down: {}", Redaction.of(error).toString());
        return;
      }
      delegate.reportError(error);
    }

    @Override
    public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
      return delegate.emit(streamId, anchors, tuple);
    }

    @Override
    public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
      delegate.emitDirect(taskId, streamId, anchors, tuple);
    }

    @Override
    public void ack(Tuple input) {
      delegate.ack(input);
    }

    @Override
    public void fail(Tuple input) {
      delegate.fail(input);
    }

    @Override
    public void resetTimeout(Tuple input) {
      delegate.resetTimeout(input);
    }

    @Override
    public void flush() {
      delegate.flush();
    }
  }
}
