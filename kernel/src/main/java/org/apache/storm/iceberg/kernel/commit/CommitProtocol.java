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

package org.apache.storm.iceberg.kernel.commit;

import org.apache.storm.iceberg.spi.Redaction;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one commit path of storm-iceberg, shared by every committing bolt: WAL entry ({@link
 * WalEntries}), then one {@link AppendFiles} to the sink's {@link CommitBranch}, tagged with a fresh
 * commit id, then immediate resolution of any error (by {@link CommitSettler}, which re-appends
 * under the same id when the outcome is ambiguous), then WAL delete. The caller acks its tuples only when {@link CommitOutcome#landed()}.
 *
 * <p>Assumptions:
 *
 * <ul>
 *   <li>One committing task per WAL scope (table, WAL namespace, topology name, component, task
 *       index); the scope's entries are this task's alone.
 *   <li>Commit ids are never reused: each is a random UUID, so a snapshot carrying one is proof that
 *       this exact set of files landed.
 *   <li>Commit conflicts ({@code CommitFailedException}) are retried by Iceberg itself, per the
 *       table's {@code commit.retry.*} properties; whatever still fails is settled here by looking at
 *       the table, never by retrying blindly.
 *   <li>A data file is never deleted by this class: after an ambiguous error it may be live.
 * </ul>
 */
public final class CommitProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(CommitProtocol.class);
  /** How often a commit is computed again because another task of the sink recorded positions first. */
  private static final int MAX_POSITION_ATTEMPTS = 20;

  private final Table table;
  private final WalEntries walEntries;
  private final Map<String, String> summary;
  private final Supplier<String> commitIds;
  private final LongSupplier clock;
  private final CommitSettler settler;
  private final CommitDeadline deadline;
  private final PositionsLedger positionsLedger;
  private final CommitBranch branch;

  public CommitProtocol(Table table, WalStore wal, WalScope scope, Map<String, String> snapshotProperties) {
    this(table, wal, scope, snapshotProperties, CommitSettler.Retries.DEFAULT);
  }

  CommitProtocol(Table table, WalStore wal, WalScope scope, Map<String, String> snapshotProperties, CommitSettler.Retries retries) {
    this(table, wal, scope, snapshotProperties, retries, CommitDeadline.NONE);
  }

  public CommitProtocol(
      Table table,
      WalStore wal,
      WalScope scope,
      Map<String, String> snapshotProperties,
      CommitSettler.Retries retries,
      CommitDeadline deadline) {
    this(table, wal, scope, snapshotProperties, retries, deadline, null, CommitBranch.MAIN);
  }

  /**
   * @param positionsLedger where the sink's committed source positions are kept, or null for a sink without
   * @param branch the branch every append commits to and every lookup walks
   */
  public CommitProtocol(
      Table table,
      WalStore wal,
      WalScope scope,
      Map<String, String> snapshotProperties,
      CommitSettler.Retries retries,
      CommitDeadline deadline,
      PositionsLedger positionsLedger,
      CommitBranch branch) {
    this(table, wal, scope, snapshotProperties, () -> UUID.randomUUID().toString(), System::currentTimeMillis, retries, deadline,
        positionsLedger, branch);
  }

  /** @param commitIds where commit ids come from: random UUIDs */
  CommitProtocol(
      Table table,
      WalStore wal,
      WalScope scope,
      Map<String, String> snapshotProperties,
      Supplier<String> commitIds,
      LongSupplier clock,
      CommitSettler.Retries retries,
      CommitDeadline deadline,
      PositionsLedger positionsLedger,
      CommitBranch branch) {
    this.table = table;
    this.summary = SummaryKeys.withTaskKeys(snapshotProperties, scope.topology(), scope.component(), scope.taskIndex());
    this.commitIds = commitIds;
    this.clock = clock;
    this.branch = branch.requireCommittable(table);
    this.walEntries = new WalEntries(wal, scope, table, this.branch);
    this.settler = new CommitSettler(table, branch, retries);
    this.deadline = deadline;
    this.positionsLedger = positionsLedger;
  }

  /**
   * The snapshot that carries {@code commitId}, a commit attempted at {@code attemptMillis} that
   * landed, or null when it is not on the branch (any more). Refreshes the table.
   */
  public Snapshot landedSnapshot(String commitId, long attemptMillis) {
    table.refresh();
    Long id = SnapshotLookup.find(table, branch, commitId, new SnapshotLookup.Window(null, attemptMillis));
    return id == null ? null : table.snapshot(id);
  }

  /**
   * As {@link #landedSnapshot}, without a refresh: for a commit this protocol just settled, whose
   * table object already holds the metadata the commit (or its settling) read.
   */
  public Snapshot justLandedSnapshot(String commitId, long attemptMillis) {
    Long id = SnapshotLookup.find(table, branch, commitId, new SnapshotLookup.Window(null, attemptMillis));
    return id == null ? null : table.snapshot(id);
  }

  /**
   * The table this protocol commits to, for reading its metadata on the committing thread only: the
   * object is not safe to share with other threads.
   */
  public Table table() {
    return table;
  }

  /** The name of the table this protocol commits to. */
  public String tableName() {
    return table.name();
  }

  /** Whether a batch whose oldest tuple arrived at {@code oldestTupleMillis} has passed its commit deadline. */
  public boolean expired(long oldestTupleMillis) {
    return deadline.guardFor(oldestTupleMillis).passed();
  }

  /**
   * Commits {@code files} in one append and says how it settled. Never throws for commit errors. No
   * attempt starts once the batch has passed its {@link CommitDeadline}; that is {@link
   * CommitOutcome.Status#EXPIRED}.
   *
   * @param commitSummary the sink's own summary keys for this commit (under {@code storm.iceberg.})
   * @param oldestTupleMillis when the oldest tuple whose record the files hold reached the sink
   */
  public CommitOutcome commit(List<DataFile> files, Map<String, String> commitSummary, long oldestTupleMillis) {
    return commit(files, commitSummary, oldestTupleMillis, null);
  }

  /**
   * As {@link #commit(List, Map, long)}, recording {@code positions}, the source positions whose
   * records the files hold, with every position the sink committed before (see {@link
   * PositionsLedger}); null for a sink without source positions.
   */
  public CommitOutcome commit(List<DataFile> files, Map<String, String> commitSummary, long oldestTupleMillis, Positions positions) {
    return commit(files, List.of(), commitSummary, oldestTupleMillis, positions);
  }

  /**
   * As {@link #commit(List, Map, long, Positions)}, with the equality-delete files of a batch of
   * row-level changes: the files and deletes commit in one row delta (an append when there are no
   * deletes). A batch is never merged with another: its deletes apply to every earlier commit's
   * rows and to none of its own.
   */
  public CommitOutcome commit(
      List<DataFile> files, List<DeleteFile> deletes, Map<String, String> commitSummary, long oldestTupleMillis,
      Positions positions) {
    String commitId = commitIds.get();
    long attemptMillis = clock.getAsLong();
    // Read before any attempt: whatever this commit lands descends from this head.
    SnapshotLookup.Window window = SnapshotLookup.Window.attemptedOn(table, branch, attemptMillis);
    DeadlineGuard guard = deadline.guardFor(oldestTupleMillis);
    if (guard.passed()) {
      return expired(commitId, files, "before its first attempt");
    }
    try {
      refreshIfWrittenUnderAnUnseenSpec(files);
      walEntries.put(commitId, files, attemptMillis, oldestTupleMillis);
    } catch (RuntimeException e) {
      LOG.warn("Commit {} to {} not attempted: cannot write its WAL entry", commitId, table.name(), Redaction.of(e));
      // The write may have landed before it reported failure; the commit never will.
      walEntries.delete(commitId);
      return new CommitOutcome(CommitOutcome.Status.FAILED, commitId, e);
    }
    CommitOutcome outcome = append(new Append(commitId, files, deletes, commitSummary, positions), window, guard);
    if (outcome.status() != CommitOutcome.Status.UNKNOWN) {
      walEntries.delete(commitId);
    }
    return outcome;
  }

  /** What one commit adds: its files and deletes, its summary and the source positions they hold (or null). */
  private record Append(
      String commitId, List<DataFile> files, List<DeleteFile> deletes, Map<String, String> commitSummary, Positions positions) {}

  private CommitOutcome append(Append append, SnapshotLookup.Window window, DeadlineGuard guard) {
    for (int attempt = 1; ; attempt++) {
      PositionsLedger.PositionsUnchanged positionsBase;
      SnapshotUpdate<?> update;
      try {
        PositionsLedger.Recording recording = recording(append);
        positionsBase = recording == null ? null : recording.validator();
        update = newAppend(append, recording, guard);
      } catch (PositionsLedger.PositionsOverlapException overlap) {
        LOG.warn(Redaction.redact(overlap.getMessage()));
        return new CommitOutcome(CommitOutcome.Status.FAILED, append.commitId(), overlap);
      }
      try {
        update.commit();
        LOG.debug("Commit {} landed in {}", append.commitId(), table.name());
        return new CommitOutcome(CommitOutcome.Status.COMMITTED, append.commitId(), null);
      } catch (RuntimeException error) {
        if (guard.refused()) {
          // Iceberg retries only conflicts, which were not applied, and asks the guard before each
          // attempt reaches the catalog: nothing of this commit was applied.
          return expired(append.commitId(), append.files(), "during Iceberg's conflict retries");
        }
        if (positionsBase != null && positionsBase.refused() && attempt < MAX_POSITION_ATTEMPTS) {
          // Another task of the sink committed first: record its positions too, and try again.
          table.refresh();
          continue;
        }
        return settler.settle(append.commitId(), window, error, validator -> newAppend(append, recording(append), validator), guard);
      }
    }
  }

  /**
   * Refreshes this protocol's table when a file was written under a partition spec it has not
   * seen: the writer reads a table object of its own, refreshed when each batch opens, so a spec
   * changed from outside reaches the files before it reaches this object.
   */
  private void refreshIfWrittenUnderAnUnseenSpec(List<DataFile> files) {
    for (DataFile file : files) {
      if (!table.specs().containsKey(file.specId())) {
        table.refresh();
        return;
      }
    }
  }

  private CommitOutcome expired(String commitId, List<DataFile> files, String when) {
    IllegalStateException error =
        new IllegalStateException(
            "Commit " + commitId + " of " + files.size() + " data files to " + table.name()
                + " not attempted: its batch's oldest tuple is older than topology.message.timeout.secs less"
                + " the commit deadline margin (" + deadline.budgetMillis() + " ms in all), " + when
                + "; Storm replays its tuples, so the batch is failed rather than committed twice");
    LOG.warn(Redaction.redact(error.getMessage()));
    return new CommitOutcome(CommitOutcome.Status.EXPIRED, commitId, error);
  }

  /** The positions to record with {@code append}, computed on the table's current metadata; null for none. */
  private PositionsLedger.Recording recording(Append append) {
    return append.positions() == null || positionsLedger == null ? null : positionsLedger.record(table, append.positions());
  }

  /**
   * One append of the files (a row delta with the deletes, when there are any), tagged with the commit id and validated by {@code validator} and, when
   * it records positions, by the check that no other commit of the sink landed since they were
   * computed. A retry makes the very same one, with positions computed again.
   */
  private SnapshotUpdate<?> newAppend(Append append, PositionsLedger.Recording recording, SnapshotAncestryValidator validator) {
    if (append.deletes().isEmpty()) {
      AppendFiles appendFiles = branch.newAppend(table);
      append.files().forEach(appendFiles::appendFile);
      return tagged(appendFiles, append, recording, validator);
    }
    RowDelta delta = branch.newRowDelta(table);
    append.files().forEach(delta::addRows);
    append.deletes().forEach(delta::addDeletes);
    return tagged(delta, append, recording, validator);
  }

  private <U extends SnapshotUpdate<U>> U tagged(
      U update, Append append, PositionsLedger.Recording recording, SnapshotAncestryValidator validator) {
    summary.forEach(update::set);
    append.commitSummary().forEach((key, value) -> update.set(SummaryKeys.RESERVED_PREFIX + key, value));
    update.set(SummaryKeys.COMMIT_ID, append.commitId());
    if (recording == null) {
      return update.validateWith(validator);
    }
    recording.summary().forEach(update::set);
    return update.validateWith(new AllValidators(validator, recording.validator()));
  }

  /**
   * Drops every WAL entry a previous incarnation of this task left ({@link WalEntries#clearStale()}).
   *
   * @return the number of entries dropped
   */
  public int clearStaleEntries() {
    return walEntries.clearStale();
  }
}
