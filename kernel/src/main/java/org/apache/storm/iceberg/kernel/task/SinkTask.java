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

import org.apache.storm.iceberg.kernel.table.TableLifecycle;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.kernel.seal.TimedSealPolicies;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.commit.CommitProtocol;
import org.apache.storm.iceberg.kernel.batch.BatchFactory;
import org.apache.storm.iceberg.kernel.batch.OpenBatch;
import org.apache.storm.iceberg.kernel.position.OffsetClaims;
import org.apache.storm.iceberg.spi.UnfitValuesException;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.storm.Config;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.kernel.ack.HeldTuples;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one writing task does, without the bolt around it: map each tuple and write it into the open
 * batch, seal the batch on the first threshold crossed (checked on every tuple and tick), and hand
 * the sealed batch to its {@link SealedBatchHandler}. For {@code IcebergBolt} the handler commits
 * through the {@link CommitProtocol} on a commit thread ({@link CommitPipeline}) and acks (or fails)
 * the tuples at this thread's next call; for {@code IcebergWriterBolt}
 * it emits a descriptor of the files anchored to the tuples.
 *
 * <p>A tuple that cannot be mapped, or whose record the file writer would refuse, is failed on its
 * own, with a {@link TupleMappingException} reported, or emitted on the dead-letter stream when the
 * options name one ({@link DeadLetters}); with schema evolution, one the schema has no room for
 * changes it first ({@link SchemaChange}). A batch that cannot be written or sealed is failed whole.
 * One executor thread owns it.
 */
public final class SinkTask implements TableTask {
  private static final Logger LOG = LoggerFactory.getLogger(SinkTask.class);

  /**
   * The most records written between two reads of the clock. The clock is also read when a batch
   * opens and on every tick, so in a task receiving tick tuples a time threshold seals at most this
   * many records, or one tick, after it passes. A task without ticks whose policies may read time
   * reads it after every record.
   */
  public static final int RECORDS_PER_CLOCK_READ = 16;

  private final Catalog catalog;
  private final Table table;
  private final BatchFactory batches;
  private final SealedBatchHandler handler;
  private final BatchSealer sealer;
  private final OutputCollector collector;
  private final SinkMetrics metrics;
  private final TableLifecycle lifecycle;
  private final TupleIntake intake;
  private final SchemaChange schemaChange;
  private final boolean deduplicates;
  private final Deduplication dedup;
  private final ChangeFence fence;
  private OpenBatch<?> batch;
  private long seals;

  SinkTask(TaskParts parts, SealedBatchHandler handler, TaskEnvironment env, HandoffTimes handoffs, boolean routed) {
    OpenedTable opened = parts.opened();
    this.catalog = opened.catalog();
    this.intake = new TupleIntake(opened.table().name(), env.collector(), env.metrics(), parts.dedup(), parts.deadLetters(),
        parts.batches().manyRecords(), parts.fence());
    this.lifecycle = parts.lifecycle();
    this.deduplicates = parts.dedup() != null;
    this.dedup = parts.dedup();
    this.fence = parts.fence();
    this.schemaChange = new SchemaChange(parts.evolver(), intake, lifecycle, env.collector());
    this.table = opened.table();
    this.batches = parts.batches();
    this.handler = handler;
    this.collector = env.collector();
    this.metrics = env.metrics();
    boolean staleClockIsSeen = !receivesTicks(env) && parts.policies().stream().anyMatch(TimedSealPolicies::readsTime);
    this.sealer = new BatchSealer(parts.policies().toArray(new SealPolicy[0]), handler, collector, env.clock(), metrics,
        handoffs, staleClockIsSeen ? 1 : RECORDS_PER_CLOCK_READ, !routed, intake::lost);
  }

  private static boolean receivesTicks(TaskEnvironment env) {
    return ObjectReader.getInt(env.topologyConfig().get(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS), 0) > 0;
  }

  /** This task's metrics. */
  public SinkMetrics metrics() {
    return metrics;
  }

  /** The commits it handed over and has not settled. */
  public PendingCommits commits() {
    return sealer;
  }

  public void execute(Tuple tuple) {
    // Acks and fails happen on this thread only: Storm's collector is not thread-safe.
    handler.settleCompleted();
    if (TupleUtils.isTick(tuple)) {
      sealIfDue(sealer.readClock());
      return;
    }
    OpenBatch<?> open = openOrFail(tuple);
    if (open != null && write(open, tuple)) {
      sealIfDue(sealer.clockAfterRecord());
    }
  }

  /** The open batch, opening one if none is; null when none can open, after failing the tuple. */
  private OpenBatch<?> openOrFail(Tuple tuple) {
    try {
      return currentBatch();
    } catch (RuntimeException e) {
      Exception error = lifecycle.reportable(e);
      LOG.warn("Cannot open a batch for {}; failing the tuple", table.name(), Redaction.of(error));
      collector.reportError(error);
      intake.failedUnwritten(tuple);
      collector.fail(tuple);
      return null;
    }
  }

  /**
   * Takes the tuple into the open batch ({@link TupleIntake}); a write that breaks the batch fails
   * the batch and the tuple.
   *
   * @return whether the tuple's record is in the batch
   */
  private boolean write(OpenBatch<?> open, Tuple tuple) {
    try {
      return intake.take(open, tuple);
    } catch (TupleIntake.BrokenBatchException e) {
      batch = null;
      metrics.nothingPending();
      intake.lost(open);
      BatchFailures.failAndRelease(collector, open.abandon(), e.failure());
      intake.failedUnwritten(tuple);
      collector.fail(tuple);
      return false;
    } catch (UnfitValuesException e) {
      return evolveAndWrite(open, tuple, e);
    }
  }

  /**
   * The tuple holds values the schema has no room for: once the schema holds them ({@link
   * SchemaChange}; the open batch is sealed first), writes the tuple into a new batch. Terminates:
   * each pass either changes the schema or fails the tuple.
   */
  private boolean evolveAndWrite(OpenBatch<?> open, Tuple tuple, UnfitValuesException unfit) {
    boolean evolved = schemaChange.evolve(tuple, unfit, () -> {
      if (!open.isEmpty()) {
        sealAndHandOff();
        // The schema changes once no commit of this task is in flight: Iceberg does not retry a
        // schema update that loses a race with an append.
        sealer.settleAll();
        return;
      }
      // No record yet: drop it; tuples it holds unwritten (duplicates at a held position) replay.
      batch = null;
      HeldTuples held = open.abandon();
      BatchFailures.failAndRelease(collector, held, held.size() > 0 ? unfit : null);
    });
    OpenBatch<?> next = evolved ? openOrFail(tuple) : null;
    return next != null && write(next, tuple);
  }

  /** Seals and hands off the open batch when a seal policy says so ({@link BatchSealer}). */
  private void sealIfDue(long nowMillis) {
    if (sealer.due(batch, nowMillis)) {
      sealAndHandOff();
    }
  }

  /** Seals the open batch now, when it holds records, and hands it off (commits it, for IcebergBolt). */
  @Override
  public void sealNow() {
    if (batch != null && !batch.isEmpty()) {
      sealAndHandOff();
    }
  }

  @Override
  public void settleHandedOff() {
    sealer.settleAll();
  }

  /**
   * Makes each batch of this table, one of a routing task's, record in the positions ledger the
   * offsets {@code claims} says it may claim beside its own ({@link OffsetClaims}); a task without
   * source positions records none. A split-sink writer's descriptor carries those claims beside its
   * own positions, and its committer records the ones the table's ledger lacks when it commits. Sound because a batch opens only once every earlier batch of the
   * table settled ({@link #currentBatch}): what the ledger held then is all the table's commits hold.
   * A row-level table's change fence stays the table's own, over its own offsets; only a new task's
   * wait for the offsets before its first change skips those routed to other tables.
   *
   * @param table the table's name as the router gave it, under which {@code claims} noted its offsets
   */
  public void claimWith(OffsetClaims claims, String table) {
    if (dedup != null) {
      sealer.recordWith(sealed -> sealed.recording(claims.claim(table, sealed.positions(), dedup.committed())));
    }
    if (fence != null) {
      fence.routedWith(claims, table);
    }
  }

  /** How many batches this task has sealed (or tried to); a routing task watches it to seal every table at once. */
  public long seals() {
    return seals;
  }

  private void sealAndHandOff() {
    seals++;
    OpenBatch<?> sealing = batch;
    batch = null;
    sealer.sealAndHandOff(sealing);
  }

  private OpenBatch<?> currentBatch() {
    if (batch == null) {
      if (deduplicates) {
        // A batch must not hold a record a batch still committing holds: settle those first.
        sealer.settleAll();
      }
      // Every batch is written against fresh metadata, so schema changes made outside are seen.
      lifecycle.refresh(table);
      intake.refresh(table);
      batch = batches.open(sealer.firstTupleArrivalMillis());
      metrics.pending(0, batch.openedAtMillis());
    }
    return batch;
  }

  /**
   * Closes the catalog under a call still running on another thread, leaving its batch alone, and
   * starts no more commits.
   */
  @Override
  public void abandon() {
    handler.abandon();
    OpenedTable.closeCatalog(catalog);
  }

  /**
   * Lets the commit in flight end, for up to {@link ShutdownGuard#CLOSE_WAIT_MILLIS}, and settles
   * it if called on the executor thread (from another, such as Storm's {@code cleanup}, it acks
   * nothing: the collector is not thread-safe); sealed batches whose commit has not started are
   * dropped; abandons the open batch (its tuples time out and replay) and closes the catalog.
   */
  @Override
  public void close() {
    try {
      handler.close(ShutdownGuard.CLOSE_WAIT_MILLIS);
    } finally {
      metrics.publishRecordsWritten();
      if (batch != null) {
        batch.abandon().release();
        batch = null;
      }
      OpenedTable.closeCatalog(catalog);
    }
  }
}
