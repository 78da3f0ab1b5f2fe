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

package org.apache.storm.iceberg.kernel.metrics;

import org.apache.storm.iceberg.kernel.commit.CommitOutcome;
import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.storm.task.IMetricsContext;

/**
 * The sink's per-task metrics (Storm metrics v2, registered through the task's TopologyContext).
 * Counters follow outcomes, not exceptions: a commit that reported an error but landed counts as
 * committed and as resolved-after-error, never as a failure.
 *
 * <p>The executor thread updates everything; reporter threads read the gauges, so the pending
 * state they read is volatile, and keeps reporting while a commit is in flight. The records-written
 * counter may trail the records a task has written by a few records between ticks; it is exact
 * whenever a batch seals and when the task closes.
 */
public final class SinkMetrics {
  private final Counter recordsWritten;
  private final Counter dataFilesSealed;
  private final Timer sealLatency;
  private final Counter dataFilesCommitted;
  private final Counter bytesCommitted;
  private final Timer commitLatency;
  private final Counter commitFailures;
  private final Counter commitsResolvedAfterError;
  private final Counter walEntriesDropped;
  private final Counter batchesExpired;
  private final Counter fieldsUnmatched;
  private final Counter tableDropped;
  private final Counter transactionsSkipped;
  private final Counter txidRegressions;
  private final Counter duplicatesSkipped;
  private final Counter offsetRegressions;
  private final Counter recordsDeadLettered;
  private final Counter deadLetterLimitExceeded;
  private final Counter tablesEvicted;
  private final Counter equalityDeletesCommitted;
  private final Counter deleteFilesCommitted;
  private final Counter sequenceInversions;
  private final Counter deletesOfUnseenKeys;
  private final Counter updateBeforeDropped;
  private final Counter tokenMissing;
  private final Counter specChanges;
  private final LongSupplier clock;
  private long unpublishedRecords;
  private volatile int pendingDataFiles;
  private volatile long oldestPendingSinceMillis = -1;
  private volatile int committingDataFiles;
  private volatile long oldestCommittingSinceMillis = -1;
  /** A routing task's tables, each with its own pending state, which the task's gauges add up. */
  private final java.util.List<SinkMetrics> tables = new java.util.concurrent.CopyOnWriteArrayList<>();

  private SinkMetrics(IMetricsContext context, LongSupplier clock) {
    this.clock = clock;
    this.recordsWritten = context.registerCounter("iceberg-records-written");
    this.dataFilesSealed = context.registerCounter("iceberg-data-files-sealed");
    this.sealLatency = context.registerTimer("iceberg-seal-latency");
    this.dataFilesCommitted = context.registerCounter("iceberg-data-files-committed");
    this.bytesCommitted = context.registerCounter("iceberg-bytes-committed");
    this.commitLatency = context.registerTimer("iceberg-commit-latency");
    this.commitFailures = context.registerCounter("iceberg-commit-failures");
    this.commitsResolvedAfterError = context.registerCounter("iceberg-commits-resolved-after-error");
    this.walEntriesDropped = context.registerCounter("iceberg-wal-entries-dropped");
    this.batchesExpired = context.registerCounter("iceberg-batches-expired");
    this.fieldsUnmatched = context.registerCounter("iceberg-fields-unmatched");
    this.tableDropped = context.registerCounter("iceberg-table-dropped");
    this.transactionsSkipped = context.registerCounter("iceberg-transactions-skipped");
    this.txidRegressions = context.registerCounter("iceberg-txid-regressions");
    this.duplicatesSkipped = context.registerCounter("iceberg-duplicates-skipped");
    this.offsetRegressions = context.registerCounter("iceberg-offset-regressions");
    this.recordsDeadLettered = context.registerCounter("iceberg-records-dead-lettered");
    this.deadLetterLimitExceeded = context.registerCounter("iceberg-dead-letter-limit-exceeded");
    this.tablesEvicted = context.registerCounter("iceberg-tables-evicted");
    this.equalityDeletesCommitted = context.registerCounter("iceberg-equality-deletes-committed");
    this.deleteFilesCommitted = context.registerCounter("iceberg-delete-files-committed");
    this.sequenceInversions = context.registerCounter("iceberg-sequence-inversions");
    this.deletesOfUnseenKeys = context.registerCounter("iceberg-deletes-of-unseen-keys");
    this.updateBeforeDropped = context.registerCounter("iceberg-update-before-dropped");
    this.tokenMissing = context.registerCounter("iceberg-token-missing");
    this.specChanges = context.registerCounter("iceberg-spec-changes");
    context.registerGauge("iceberg-pending-data-files", (Gauge<Integer>) this::pendingDataFiles);
    context.registerGauge("iceberg-oldest-pending-age-ms", (Gauge<Long>) this::oldestPendingAgeMillis);
  }

  /** One table's metrics in a routing task: the task's counters, a pending state of its own. */
  private SinkMetrics(SinkMetrics task) {
    this.clock = task.clock;
    this.recordsWritten = task.recordsWritten;
    this.dataFilesSealed = task.dataFilesSealed;
    this.sealLatency = task.sealLatency;
    this.dataFilesCommitted = task.dataFilesCommitted;
    this.bytesCommitted = task.bytesCommitted;
    this.commitLatency = task.commitLatency;
    this.commitFailures = task.commitFailures;
    this.commitsResolvedAfterError = task.commitsResolvedAfterError;
    this.walEntriesDropped = task.walEntriesDropped;
    this.batchesExpired = task.batchesExpired;
    this.fieldsUnmatched = task.fieldsUnmatched;
    this.tableDropped = task.tableDropped;
    this.transactionsSkipped = task.transactionsSkipped;
    this.txidRegressions = task.txidRegressions;
    this.duplicatesSkipped = task.duplicatesSkipped;
    this.offsetRegressions = task.offsetRegressions;
    this.recordsDeadLettered = task.recordsDeadLettered;
    this.deadLetterLimitExceeded = task.deadLetterLimitExceeded;
    this.tablesEvicted = task.tablesEvicted;
    this.equalityDeletesCommitted = task.equalityDeletesCommitted;
    this.deleteFilesCommitted = task.deleteFilesCommitted;
    this.sequenceInversions = task.sequenceInversions;
    this.deletesOfUnseenKeys = task.deletesOfUnseenKeys;
    this.updateBeforeDropped = task.updateBeforeDropped;
    this.tokenMissing = task.tokenMissing;
    this.specChanges = task.specChanges;
  }

  /**
   * Metrics for one table of a routing task: they count into this task's counters, and the table's
   * pending batches count in this task's pending gauges until {@link #tableClosed}.
   */
  public SinkMetrics forTable() {
    SinkMetrics table = new SinkMetrics(this);
    tables.add(table);
    return table;
  }

  /** A table's metrics from {@link #forTable} no longer count in the pending gauges. */
  public void tableClosed(SinkMetrics table) {
    tables.remove(table);
  }

  /** Registers the metrics with a task's context (its TopologyContext). */
  public static SinkMetrics register(IMetricsContext context, LongSupplier clock) {
    return new SinkMetrics(context, clock);
  }

  /** Metrics kept in a registry of their own, for a task run outside Storm (tests, tools). */
  public static SinkMetrics detached(MetricRegistry registry, LongSupplier clock) {
    return new SinkMetrics(detachedContext(registry), clock);
  }

  /** A metrics context over a registry of its own, for a task run outside Storm (tests, tools). */
  public static IMetricsContext detachedContext(MetricRegistry registry) {
    return new RegistryContext(registry);
  }

  /**
   * Counts one record written. The counter is a {@code LongAdder}, an atomic add per call, so
   * records are counted here first and reach it at the next {@link #publishRecordsWritten}.
   */
  public void recordWritten() {
    unpublishedRecords++;
  }

  /** As {@link #recordWritten}, for {@code count} records of one tuple. */
  public void recordsWritten(int count) {
    unpublishedRecords += count;
  }

  /** Adds the records counted since the last call to {@code iceberg-records-written}. */
  public void publishRecordsWritten() {
    if (unpublishedRecords > 0) {
      recordsWritten.inc(unpublishedRecords);
      unpublishedRecords = 0;
    }
  }

  public void sealed(int files, long nanos) {
    dataFilesSealed.inc(files);
    sealLatency.update(nanos, TimeUnit.NANOSECONDS);
  }

  /** Counts one commit by its outcome. */
  public void committed(CommitOutcome outcome, int files, long bytes, long nanos) {
    commitLatency.update(nanos, TimeUnit.NANOSECONDS);
    if (outcome.landed()) {
      dataFilesCommitted.inc(files);
      bytesCommitted.inc(bytes);
      if (outcome.status() == CommitOutcome.Status.COMMITTED_AFTER_ERROR) {
        commitsResolvedAfterError.inc();
      }
    } else {
      commitFailures.inc();
      if (outcome.status() == CommitOutcome.Status.EXPIRED) {
        batchesExpired.inc();
      }
    }
  }

  /** Counts the equality deletes (one per key changed) and delete files of a row-level commit that landed. */
  public void deletesCommitted(long equalityDeletes, int deleteFiles) {
    equalityDeletesCommitted.inc(equalityDeletes);
    deleteFilesCommitted.inc(deleteFiles);
  }

  /** Counts a batch of row-level changes whose smallest sequence number is below one the task committed before. */
  public void sequenceInversion() {
    sequenceInversions.inc();
  }

  /** Counts deleted keys that no data file of the table could hold before their batch. */
  public void deletesOfUnseenKeys(long keys) {
    deletesOfUnseenKeys.inc(keys);
  }

  /** Counts update-before images upsert mode dropped: the after-image replaces the row. */
  public void updateBeforeDropped(long images) {
    updateBeforeDropped.inc(images);
  }

  /**
   * A start found none of the sink's token in a history cut short by snapshot expiry: no source
   * positions of the sink, or no transaction of a Trident state's partition.
   */
  public void tokenMissing() {
    tokenMissing.inc();
  }

  /** Counts a partition spec a row-level task found the table changed to, and did not write under. */
  public void specChange() {
    specChanges.inc();
  }

  /** Counts a batch failed, without a commit attempt, because it passed its commit deadline. */
  public void batchExpired() {
    batchesExpired.inc();
  }

  public void walEntriesDropped(int entries) {
    walEntriesDropped.inc(entries);
  }

  /** Counts a tuple field that matches no column, once per field and schema id. */
  public void fieldUnmatched() {
    fieldsUnmatched.inc();
  }

  /** Counts one batch, or one tuple refused before a batch could open, failed because the table was dropped or recreated. */
  public void tableDropped() {
    tableDropped.inc();
  }

  /** Counts a Trident transaction not written again because the table already holds it. */
  public void transactionSkipped() {
    transactionsSkipped.inc();
  }

  /** Counts a Trident transaction refused because its txid is older than one the table holds. */
  public void txidRegression() {
    txidRegressions.inc();
  }

  /** Counts a tuple whose record the sink committed, or holds in a batch, at its source position: not written again. */
  public void duplicateSkipped() {
    duplicatesSkipped.inc();
  }

  /** Counts a tuple refused because its source changed identity under committed positions. */
  public void offsetRegression() {
    offsetRegressions.inc();
  }

  /** Counts a tuple emitted on the dead-letter stream (and acked) instead of written. */
  public void recordDeadLettered() {
    recordsDeadLettered.inc();
  }

  /** Counts a tuple failed, not dead-lettered, because its window's share of dead letters was used up. */
  public void deadLetterLimitExceeded() {
    deadLetterLimitExceeded.inc();
  }

  /** Counts a routed table sealed, committed and closed to make room for another (withMaxOpenTables). */
  public void tableEvicted() {
    tablesEvicted.inc();
  }

  /** What is waiting to be committed: {@code files} data files, the oldest since {@code sinceMillis}. */
  public void pending(int files, long sinceMillis) {
    pendingDataFiles = files;
    oldestPendingSinceMillis = sinceMillis;
  }

  public void nothingPending() {
    pendingDataFiles = 0;
    oldestPendingSinceMillis = -1;
  }

  /**
   * What sealed batches handed to a commit thread hold until they settle: {@code files} data files,
   * the oldest batch opened at {@code sinceMillis} (-1 for none). It adds to what {@link #pending}
   * says of the batch being written.
   */
  public void committing(int files, long sinceMillis) {
    committingDataFiles = files;
    oldestCommittingSinceMillis = sinceMillis;
  }

  int pendingDataFiles() {
    int files = pendingDataFiles + committingDataFiles;
    for (SinkMetrics table : tables) {
      files += table.pendingDataFiles();
    }
    return files;
  }

  long oldestPendingAgeMillis() {
    long since = oldestSinceMillis();
    return since < 0 ? 0 : Math.max(0, clock.getAsLong() - since);
  }

  /** When the oldest batch not yet committed (of every table, in a routing task) opened; -1 for none. */
  private long oldestSinceMillis() {
    long since = -1;
    for (long each : new long[] {oldestPendingSinceMillis, oldestCommittingSinceMillis}) {
      since = each >= 0 && (since < 0 || each < since) ? each : since;
    }
    for (SinkMetrics table : tables) {
      long each = table.oldestSinceMillis();
      since = each >= 0 && (since < 0 || each < since) ? each : since;
    }
    return since;
  }
}
