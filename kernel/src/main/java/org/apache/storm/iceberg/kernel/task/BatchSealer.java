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

import java.util.function.LongSupplier;
import org.apache.storm.iceberg.kernel.batch.OpenBatch;
import org.apache.storm.iceberg.kernel.batch.SealedBatch;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.seal.TimedSealPolicies;
import org.apache.storm.iceberg.spi.BatchStats;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.task.OutputCollector;

/**
 * A writing task's seal stage: reads the clock sparingly, tells when the open batch is due (its first
 * seal policy that says so), seals it, and hands it to the task's {@link SealedBatchHandler},
 * remembering when the executor stopped taking tuples to do that ({@link HandoffTimes}). One
 * executor thread owns it.
 */
final class BatchSealer implements PendingCommits {
  private final SealPolicy[] policies;
  private final SealedBatchHandler handler;
  private final OutputCollector collector;
  private final LongSupplier clock;
  private final SinkMetrics metrics;
  private final HandoffTimes handoffs;
  private final int recordsPerClockRead;
  private final boolean timedSealsWait;
  private final java.util.function.Consumer<OpenBatch<?>> lost;
  private long lastClockMillis;
  private int recordsSinceClockRead;
  /** What each sealed batch's commit records: its own positions, unless {@link #recordWith} says more. */
  private java.util.function.UnaryOperator<SealedBatch> recording = java.util.function.UnaryOperator.identity();

  /**
   * Reads {@code clock} at most every {@code recordsPerClockRead} records (and on every {@link
   * #readClock}). Unless {@code timedSealsWait}, a policy that reads time does not seal while the
   * handler is at its bound (the seal would only wait for an earlier commit): the batch seals once
   * that commit ended. Size policies always seal, and wait: they bound memory. A batch whose seal
   * fails goes to {@code lost} before its tuples are failed.
   */
  BatchSealer(SealPolicy[] policies, SealedBatchHandler handler, OutputCollector collector, LongSupplier clock,
      SinkMetrics metrics, HandoffTimes handoffs, int recordsPerClockRead, boolean timedSealsWait,
      java.util.function.Consumer<OpenBatch<?>> lost) {
    this.lost = lost;
    this.policies = policies;
    this.handler = handler;
    this.collector = collector;
    this.clock = clock;
    this.metrics = metrics;
    this.handoffs = handoffs;
    this.recordsPerClockRead = recordsPerClockRead;
    this.timedSealsWait = timedSealsWait;
  }

  /** Reads the clock, and publishes the records written since the last read to their counter. */
  long readClock() {
    recordsSinceClockRead = 0;
    metrics.publishRecordsWritten();
    lastClockMillis = clock.getAsLong();
    return lastClockMillis;
  }

  /** The time after one more record: read again once every {@code recordsPerClockRead} records. */
  long clockAfterRecord() {
    return ++recordsSinceClockRead >= recordsPerClockRead ? readClock() : lastClockMillis;
  }

  /** When the first tuple of a batch opening now reached the task (reads the clock). */
  long firstTupleArrivalMillis() {
    return handoffs.firstTupleArrivalMillis(readClock());
  }

  /** Whether a seal policy says {@code batch}, non-empty, is due at {@code nowMillis}. */
  boolean due(OpenBatch<?> batch, long nowMillis) {
    if (batch == null || batch.isEmpty()) {
      return false;
    }
    BatchStats stats = batch.stats(nowMillis);
    for (SealPolicy policy : policies) {
      if (policy.shouldSeal(stats) && (timedSealsWait || !TimedSealPolicies.readsTime(policy) || !handler.atBound())) {
        return true;
      }
    }
    return false;
  }

  /** Seals {@code sealing}, no longer the task's open batch, and hands it over; a seal that fails fails the batch. */
  void sealAndHandOff(OpenBatch<?> sealing) {
    metrics.publishRecordsWritten();
    SealedBatch closed;
    long started = System.nanoTime();
    try {
      closed = sealing.seal();
    } catch (RuntimeException e) {
      metrics.nothingPending();
      lost.accept(sealing);
      BatchFailures.failAndRelease(collector, sealing.abandon(), e);
      return;
    }
    SealedBatch sealed = recording.apply(closed);
    metrics.sealed(sealed.dataFiles().size(), System.nanoTime() - started);
    metrics.pending(sealed.dataFiles().size(), sealing.openedAtMillis());
    handoffs.during(() -> handler.handle(sealed));
  }

  /** Sets what each batch sealed from now on records, computed at its seal on this thread. */
  void recordWith(java.util.function.UnaryOperator<SealedBatch> recording) {
    this.recording = recording;
  }

  /** Waits until every batch handed over is settled (acked or failed). */
  @Override
  public void settleAll() {
    handoffs.during(handler::settleAll);
  }

  @Override
  public void settleCompleted() {
    handler.settleCompleted();
  }

  @Override
  public boolean atBound() {
    return handler.atBound();
  }
}
