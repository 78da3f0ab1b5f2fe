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

package org.apache.storm.iceberg.kernel.trident;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Snapshot;
import org.apache.storm.iceberg.kernel.commit.CommitOutcome;
import org.apache.storm.iceberg.kernel.commit.TransactionCommitter;
import org.apache.storm.iceberg.kernel.commit.TransactionPlan;
import org.apache.storm.iceberg.kernel.commit.TransactionRegressionException;
import org.apache.storm.iceberg.kernel.batch.SealedBatch;
import org.apache.storm.iceberg.kernel.change.ChangeSummary;
import org.apache.storm.iceberg.kernel.change.ChangeTripwires;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.topology.ReportedFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Trident state task's transactions, in the order Trident drives them: {@link #begin} at {@code
 * beginCommit} plans the txid, the batch's files are {@link #add added}, and {@link #commit} commits
 * them at {@code commit}; a commit that landed is described in the state's {@link TridentCommitEvents},
 * which {@link #emitCommitEvents} sends on. Every failure is a {@link ReportedFailedException}: Trident fails and
 * replays the batch, and shows the error; any other exception from a state would kill the worker.
 * Not thread-safe: Trident calls a state from one thread.
 */
public final class TridentTransactions {
  private static final Logger LOG = LoggerFactory.getLogger(TridentTransactions.class);

  private final String table;
  private final TransactionCommitter committer;
  private final SinkMetrics metrics;
  private final TridentCommitEvents events;
  private final List<DataFile> files = new ArrayList<>();
  private final List<DeleteFile> deletes = new ArrayList<>();
  private final List<ChangeSummary> changes = new ArrayList<>();
  private final ChangeTripwires tripwires;
  private TransactionPlan plan;
  private boolean tokenMissingWarned;

  /** @param events where the commits that land are described, for the state updater to emit */
  public TridentTransactions(String table, TransactionCommitter committer, SinkMetrics metrics, TridentCommitEvents events) {
    this.table = table;
    this.committer = committer;
    this.metrics = metrics;
    this.events = events;
    // Its unseen-keys thread is a daemon started at the first check: a Trident state is never closed.
    this.tripwires = new ChangeTripwires(table, metrics);
  }

  /** Plans transaction {@code txid} (null for a batch without one) against the table. */
  public void begin(Long txid) {
    files.clear();
    deletes.clear();
    changes.clear();
    plan = null;
    try {
      plan = committer.plan(txid);
    } catch (TransactionRegressionException e) {
      metrics.txidRegression();
      throw failed("Cannot start transaction " + txid + " on " + table, e);
    } catch (RuntimeException e) {
      throw failed("Cannot start transaction " + txid + " on " + table, e);
    }
    if (plan.action() == TransactionPlan.Action.SKIP) {
      metrics.transactionSkipped();
    }
    warnIfTokenMayBeExpired(txid);
  }

  /**
   * Warns, once per task, when the plan found no transaction of the state's partition in a history
   * that snapshot expiry cut short: if the state committed to the table before, its newest
   * transaction was expired with that history, and the transactions Trident replays will be written
   * again, not skipped or replaced (Beam's suspected token expiry).
   */
  private void warnIfTokenMayBeExpired(Long txid) {
    Long cutAt = committer.historyCutWithoutTransaction();
    if (cutAt == null || tokenMissingWarned) {
      return;
    }
    tokenMissingWarned = true;
    metrics.tokenMissing();
    LOG.warn("No transaction of Trident state {} partition {} in {}, whose history ends at snapshot {}: the snapshots before it"
        + " were expired. If this state committed to the table before, its newest transaction was expired with them, and"
        + " transaction {} and any other Trident replays will be written again rather than skipped or replaced. Keep the"
        + " sinks' tokens: run expiry through IcebergMaintenanceFunction, IcebergMaintenanceBolt or the tools' maintain"
        + " command, which keep them, not plain expire_snapshots. If this state is new to the table, nothing is wrong.",
        committer.scope().state(), committer.scope().partition(), table, cutAt, txid);
  }

  /** Whether the transaction begun needs its tuples written: false when the table already holds it. */
  public boolean wantsFiles() {
    return plan != null && plan.writes();
  }

  /**
   * Adds a written batch's files and, in a row-level write mode, its equality deletes (one row delta
   * commits them) and what its changes hold, for the tripwires.
   */
  public void add(TridentFiles.Files written) {
    files.addAll(written.dataFiles());
    deletes.addAll(written.deleteFiles());
    if (written.changes() != null) {
      changes.add(written.changes());
    }
  }

  /** Commits the files added since {@link #begin}, once; nothing when there are none to commit. */
  public void commit(Long txid) {
    if (plan == null) {
      throw new ReportedFailedException("Transaction " + txid + " on " + table + " was never begun");
    }
    Optional<CommitOutcome> outcome;
    // An opaque replay replacing the newest transaction brings that transaction's changes again: they were
    // checked and counted when it first landed, and its sequence numbers are not older than itself.
    ChangeSummary transaction = plan.action() == TransactionPlan.Action.REPLACE ? null : ChangeSummary.combine(changes);
    if (transaction != null) {
      tripwires.beforeCommit(transaction);
    }
    long attemptMillis = System.currentTimeMillis();
    long started = System.nanoTime();
    try {
      outcome = committer.commit(plan, List.copyOf(files), List.copyOf(deletes));
    } finally {
      plan = null;
    }
    long elapsedNanos = System.nanoTime() - started;
    outcome.ifPresent(settled -> metrics.committed(settled, files.size(), SealedBatch.bytesOf(files), elapsedNanos));
    if (outcome.isPresent() && outcome.get().landed()) {
      describe(txid, outcome.get(), attemptMillis, elapsedNanos);
    }
    if (outcome.isPresent() && outcome.get().landed() && !deletes.isEmpty()) {
      // One key-only equality delete per key a partition's batch changed.
      metrics.deletesCommitted(deletes.stream().mapToLong(DeleteFile::recordCount).sum(), deletes.size());
    }
    if (transaction != null && outcome.isPresent() && outcome.get().landed()) {
      String commitId = outcome.get().commitId();
      tripwires.landed(transaction, () -> committer.landedSnapshot(commitId, attemptMillis), committer.table());
    }
    files.clear();
    deletes.clear();
    changes.clear();
    if (outcome.isPresent() && !outcome.get().landed()) {
      throw failed("Transaction " + txid + " did not commit to " + table + " (" + outcome.get().status() + ")",
          outcome.get().error());
    }
  }

  /** Emits the commit events described since the last call, through the state updater's {@code collector}. */
  public void emitCommitEvents(TridentCollector collector) {
    events.emit(collector);
  }

  private void describe(Long txid, CommitOutcome outcome, long attemptMillis, long elapsedNanos) {
    if (!events.enabled()) {
      return;
    }
    Snapshot snapshot = committer.landedSnapshot(outcome.commitId(), attemptMillis);
    if (snapshot == null) {
      // Landed, then gone from the branch (rolled back, or expired already): nothing to maintain for it.
      LOG.debug("No snapshot of {} carries commit {} any more; no commit event", table, outcome.commitId());
      return;
    }
    events.landed(txid, snapshot, files.size(), SealedBatch.bytesOf(files), deletes.size(), elapsedNanos / 1_000_000);
  }

  /** A Trident failure for {@code cause}, redacted, so the batch replays and the error shows. */
  public static ReportedFailedException failed(String message, Exception cause) {
    if (cause == null) {
      return new ReportedFailedException(Redaction.redact(message));
    }
    return new ReportedFailedException(
        Redaction.redact(message + ": " + cause.getMessage()), Redaction.of((Throwable) cause));
  }
}
