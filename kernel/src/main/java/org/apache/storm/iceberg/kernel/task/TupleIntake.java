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

import java.util.List;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.TupleMappingException;
import org.apache.storm.iceberg.kernel.batch.OpenBatch;
import org.apache.storm.iceberg.kernel.batch.RecordRejectedException;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.apache.storm.iceberg.spi.UnfitValuesException;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes one tuple into the open batch: with source positions, a tuple whose record the sink
 * committed is acked and one the batch holds is held unwritten ({@link Deduplication}); otherwise
 * its row is mapped and written. A tuple the mapper refuses, or whose record the file writer would
 * refuse, goes to the dead-letter stream when there is one ({@link DeadLetters}); otherwise, as a
 * tuple the position check refuses, it is failed on its own, with a {@link TupleMappingException}
 * reported. A tuple that carries many records (a multi-record mapper) is taken whole or not at all:
 * all its records are written into the batch and the tuple is held once, or none is written and the
 * tuple is dead-lettered or failed; a tuple with no records is acked at once, having nothing to
 * commit.
 */
final class TupleIntake {
  private static final Logger LOG = LoggerFactory.getLogger(TupleIntake.class);

  private final String table;
  private final OutputCollector collector;
  private final SinkMetrics metrics;
  private final Deduplication dedup;
  private final DeadLetters deadLetters;
  private final boolean manyRecords;
  private final ChangeFence fence;

  /**
   * @param dedup the task's deduplication, or null for a sink without source positions
   * @param deadLetters the task's dead-letter stream, or null to fail what cannot be written
   * @param manyRecords whether the task's batches map each tuple to many records ({@link OpenBatch#mapAll})
   * @param fence what keeps row-level changes in source order across a failed batch, or null
   */
  TupleIntake(
      String table, OutputCollector collector, SinkMetrics metrics, Deduplication dedup, DeadLetters deadLetters,
      boolean manyRecords, ChangeFence fence) {
    this.manyRecords = manyRecords;
    this.fence = fence;
    this.table = table;
    this.collector = collector;
    this.metrics = metrics;
    this.dedup = dedup;
    this.deadLetters = deadLetters;
  }

  /** Reads again what the sink committed, when a batch opens on the refreshed table. */
  void refresh(Table refreshed) {
    if (dedup != null) {
      dedup.refresh(refreshed);
    }
  }

  /**
   * @return whether the tuple's record was written into the batch
   * @throws UnfitValuesException when the schema must change for the tuple; it is not in the batch
   * @throws BrokenBatchException when writing broke the batch's files; the tuple is not in it
   */
  <T> boolean take(OpenBatch<T> open, Tuple tuple) {
    if (deadLetters != null) {
      deadLetters.taken();
    }
    SourcePosition position = null;
    if (dedup != null) {
      try {
        position = dedup.position(table, tuple);
      } catch (RuntimeException e) {
        failUnmappable(tuple, e);
        return false;
      }
      if (position != null && (dedup.committed(position) || open.holds(position))) {
        skipDuplicate(open, tuple, position);
        return false;
      }
      if (position != null && fence != null) {
        fence.seen(position, dedup.largestCommitted(position));
      }
      if (position != null && fence != null && fence.holdsBack(position)) {
        // A later change of a partition whose earlier changes did not land: it replays after them.
        collector.fail(tuple);
        return false;
      }
    }
    if (manyRecords) {
      return takeAll(open, tuple, position);
    }
    T row;
    try {
      row = open.map(tuple);
    } catch (UnfitValuesException e) {
      throw e;
    } catch (RuntimeException e) {
      reject(tuple, e);
      return false;
    }
    try {
      if (position == null) {
        open.write(row, tuple);
      } else {
        open.write(row, tuple, position, dedup.identity(position.source()));
        taken(position);
      }
      metrics.recordWritten();
      return true;
    } catch (RecordRejectedException e) {
      reject(tuple, e);
      return false;
    } catch (RuntimeException e) {
      throw new BrokenBatchException(e);
    }
  }

  /** {@link #take} for a tuple that carries many records: all of them or none. */
  private <T> boolean takeAll(OpenBatch<T> open, Tuple tuple, SourcePosition position) {
    List<T> rows;
    try {
      rows = open.mapAll(tuple);
    } catch (RuntimeException e) {
      reject(tuple, e);
      return false;
    }
    if (rows.isEmpty()) {
      collector.ack(tuple);
      return false;
    }
    try {
      if (position == null) {
        open.writeAll(rows, tuple);
      } else {
        open.writeAll(rows, tuple, position, dedup.identity(position.source()));
        taken(position);
      }
      metrics.recordsWritten(rows.size());
      return true;
    } catch (RecordRejectedException e) {
      reject(tuple, e);
      return false;
    } catch (RuntimeException e) {
      throw new BrokenBatchException(e);
    }
  }

  private void taken(SourcePosition position) {
    if (fence != null) {
      fence.taken(position);
    }
  }

  /**
   * A tuple whose record the sink holds already: acked now when committed, or held, unwritten, by
   * the open batch holding it, to be acked or failed with it.
   */
  private void skipDuplicate(OpenBatch<?> open, Tuple tuple, SourcePosition position) {
    metrics.duplicateSkipped();
    if (dedup.committed(position)) {
      if (fence != null) {
        fence.committed(position);
      }
      collector.ack(tuple);
    } else {
      open.holdDuplicate(tuple);
    }
  }

  /**
   * A batch was lost before it could commit (its seal or a write broke it): its tuples are failed,
   * and with row-level changes its partitions are fenced, so later changes wait for its replays.
   */
  void lost(OpenBatch<?> batch) {
    if (fence != null) {
      fence.failed(batch.positions());
    }
  }

  /** A tuple failed before it reached a batch (none could open): with row-level changes, later changes of its partition wait for it. */
  void failedUnwritten(Tuple tuple) {
    if (fence == null) {
      return;
    }
    try {
      SourcePosition position = dedup.position(table, tuple);
      if (position != null) {
        org.apache.storm.iceberg.kernel.position.Positions one = new org.apache.storm.iceberg.kernel.position.Positions();
        one.add(position);
        fence.failed(one);
      }
    } catch (RuntimeException unreadable) {
      // A tuple whose position cannot be read is never written either: nothing to keep in order.
    }
  }

  /** A tuple that cannot be written: dead-lettered when the task can, failed otherwise. */
  void reject(Tuple tuple, RuntimeException cause) {
    TupleMappingException error = new TupleMappingException(table, tuple, cause);
    if (deadLetters == null || !deadLetters.divert(tuple, error)) {
      fail(tuple, error);
    }
  }

  private void failUnmappable(Tuple tuple, RuntimeException cause) {
    fail(tuple, new TupleMappingException(table, tuple, cause));
  }

  private void fail(Tuple tuple, TupleMappingException error) {
    LOG.error(Redaction.redact(error.getMessage()), Redaction.of(error));
    collector.reportError(error);
    collector.fail(tuple);
  }

  /** Writing a row broke the batch's files: the batch must be failed whole. */
  static final class BrokenBatchException extends RuntimeException {
    BrokenBatchException(RuntimeException cause) {
      super(cause);
    }

    RuntimeException failure() {
      return (RuntimeException) getCause();
    }
  }
}
