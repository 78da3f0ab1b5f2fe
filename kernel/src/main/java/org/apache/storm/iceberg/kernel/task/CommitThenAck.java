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

import org.apache.storm.iceberg.kernel.change.ChangeTripwires;
import org.apache.storm.iceberg.kernel.table.TableLifecycle;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.commit.CommitProtocol;
import org.apache.storm.iceberg.kernel.commit.CommitOutcome;
import org.apache.storm.iceberg.kernel.batch.SealedBatch;
import java.util.List;
import org.apache.storm.iceberg.kernel.position.Positions;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.storm.iceberg.kernel.ack.HeldTuples;
import org.apache.storm.task.OutputCollector;

/**
 * Commits files through the {@link CommitProtocol}, counts the outcome in the task's metrics, then
 * acks the tuples that carried the files, or fails them all. {@code IcebergCommitterBolt} uses it
 * for each group (the tuples are the writers' descriptors), on its executor thread; {@code
 * IcebergBolt}'s {@link CommitPipeline} splits it in two: {@link #commitOnly} on the commit thread,
 * {@link #settle} back on the executor thread.
 *
 * <p>The committer keeps committing on its executor thread: that executor only takes descriptors,
 * which the writers emit without waiting for it, so its commit stalls no writer, and moving
 * {@code IcebergBolt}'s commits off its executor thread saved no CPU per record when measured (#21).
 */
final class CommitThenAck {
  private final CommitProtocol protocol;
  private final OutputCollector collector;
  private final SinkMetrics metrics;
  private final TableLifecycle lifecycle;
  private final ChangeTripwires tripwires;
  private final ChangeFence fence;
  private final CommitEvents events;

  CommitThenAck(CommitProtocol protocol, TableLifecycle lifecycle, TaskEnvironment env) {
    this(protocol, lifecycle, env, null, CommitEvents.NONE);
  }

  /**
   * @param fence what keeps row-level changes in source order across a failed batch, or null
   * @param events where each landed commit is announced
   */
  CommitThenAck(CommitProtocol protocol, TableLifecycle lifecycle, TaskEnvironment env, ChangeFence fence, CommitEvents events) {
    this.fence = fence;
    this.events = events;
    this.protocol = protocol;
    this.lifecycle = lifecycle;
    this.collector = env.collector();
    this.metrics = env.metrics();
    this.tripwires = new ChangeTripwires(protocol.tableName(), metrics);
  }

  /**
   * Commits {@code files} in one append, with the sink's {@code summary} keys, and settles {@code
   * tuples}, unless the oldest of them, which arrived at {@code oldestTupleMillis}, has passed its
   * commit deadline. The commit records {@code positions}, the source positions the files hold
   * (empty for none).
   */
  void commit(List<DataFile> files, Map<String, String> summary, HeldTuples tuples, long oldestTupleMillis, Positions positions) {
    CommitOutcome outcome = commitOnly(files, summary, oldestTupleMillis, positions);
    metrics.nothingPending();
    settle(outcome, tuples);
  }

  /**
   * Commits a sealed batch's files and counts the outcome, settling nothing: safe off the executor
   * thread. A batch of row-level changes is checked against the changes this task committed before
   * ({@link ChangeTripwires}).
   */
  CommitOutcome commitOnly(SealedBatch batch) {
    return commitOnly(batch, Map.of());
  }

  /**
   * As {@link #commitOnly(SealedBatch)}, with the sink's {@code summary} keys: the split sink's
   * committer, one row-level descriptor a commit.
   */
  CommitOutcome commitOnly(SealedBatch batch, Map<String, String> summary) {
    String blocked = fence == null ? null : fence.blocks(batch.positions());
    if (blocked != null) {
      fence.failed(batch.positions());
      return new CommitOutcome(CommitOutcome.Status.FAILED, null,
          new IllegalStateException("A batch of changes to " + protocol.tableName() + " is failed unattempted: " + blocked));
    }
    if (batch.changes() != null) {
      tripwires.beforeCommit(batch.changes());
    }
    long attemptMillis = System.currentTimeMillis();
    CommitOutcome outcome =
        commitOnly(batch.dataFiles(), batch.deleteFiles(), summary, batch.oldestTupleMillis(), batch.recorded());
    if (fence != null) {
      if (outcome.landed()) {
        fence.landed(batch.positions());
      } else {
        fence.failed(batch.positions());
      }
    }
    if (batch.changes() != null && outcome.landed()) {
      tripwires.landed(batch.changes(), () -> protocol.justLandedSnapshot(outcome.commitId(), attemptMillis), protocol.table());
      metrics.deletesCommitted(batch.changes().keys(), batch.deleteFiles().size());
    }
    return outcome;
  }

  /** Stops what runs beside the commits (the unseen-keys check). */
  void close() {
    tripwires.close();
  }

  private CommitOutcome commitOnly(List<DataFile> files, Map<String, String> summary, long oldestTupleMillis, Positions positions) {
    return commitOnly(files, List.of(), summary, oldestTupleMillis, positions);
  }

  private CommitOutcome commitOnly(
      List<DataFile> files, List<DeleteFile> deletes, Map<String, String> summary, long oldestTupleMillis, Positions positions) {
    long attemptMillis = System.currentTimeMillis();
    long started = System.nanoTime();
    CommitOutcome outcome = protocol.commit(files, deletes, summary, oldestTupleMillis, positions.isEmpty() ? null : positions);
    long tookNanos = System.nanoTime() - started;
    long bytes = SealedBatch.bytesOf(files);
    metrics.committed(outcome, files.size(), bytes, tookNanos);
    events.landed(outcome, attemptMillis, files.size(), bytes, deletes.size(), tookNanos / 1_000_000);
    return outcome;
  }

  /** Acks the tuples whose files landed, or fails them all: on the executor thread only. */
  void settle(CommitOutcome outcome, HeldTuples tuples) {
    if (outcome.landed()) {
      tuples.ackAll(collector);
      events.emit(outcome, collector);
    } else {
      BatchFailures.failAll(collector, tuples, lifecycle.reportable(outcome.error()));
    }
  }
}
