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

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.storm.trident.state.StateType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the Trident transactions of one {@link TransactionScope}, each at most once: the commit path
 * of the Trident states, beside {@link CommitProtocol}'s for the bolts.
 *
 * <p>A transaction's commit id is built from its scope and txid, so the table itself records which
 * transactions landed, whatever happened in between (a crash, a lost answer, a worker restart). Per
 * transaction, {@link #plan} decides from the scope's newest transaction on the sink's branch
 * ({@link CommitBranch}):
 *
 * <ul>
 *   <li>a newer txid is appended in one snapshot;
 *   <li>the same txid is skipped ({@link StateType#TRANSACTIONAL}: a replay brings the same tuples)
 *       or replaces the files that transaction's snapshot added, in one overwrite ({@link
 *       StateType#OPAQUE}: a replay may bring other tuples);
 *   <li>an older txid fails loudly ({@link TransactionRegressionException}).
 * </ul>
 *
 * <p>Every commit is validated against the head its plan saw ({@link HeadUnchanged}), and an error
 * is settled by {@link CommitSettler} under the same commit id, as for the bolts, each retry
 * validated against that head too; there is no commit deadline, since a commit landing late is
 * found by its id on the replay. An opaque txid's attempts differ in content, so each commits under
 * an id of its own ({@code :attempt-<uuid>} appended): no attempt takes another's landing for its
 * own. An opaque attempt with no files still commits an empty append while a commit of the scope
 * may land late (one this task left unsettled, or one of a previous incarnation, until this
 * task's first commit lands): that fence makes the catalog's compare-and-swap refuse the late one,
 * which would otherwise land beside the txids after it. {@link
 * StateType#NON_TRANSACTIONAL}, or a batch without a txid, commits under a random id: at-least-once.
 *
 * <p>Assumption: one task commits a scope at a time. The newest transaction is read from the table
 * when the task starts, on every replay (a txid not above the newest known) and after an outcome
 * that leaves it unsure; otherwise it is carried from the task's own commits, and the validator
 * refuses a commit whose head changed meanwhile.
 */
public final class TransactionCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(TransactionCommitter.class);

  private final Table table;
  private final CommitBranch branch;
  private final TransactionScope scope;
  private final StateType type;
  private final Map<String, String> summary;
  private final CommitSettler settler;
  private final LongSupplier clock;
  private LastTransaction head;
  private boolean headKnown;
  /** As the last read of the table found it: see {@link #historyCutWithoutTransaction}. */
  private Long historyCutAt;
  /**
   * Whether a commit of this scope may still land unseen: one this task left unsettled, or one a
   * previous incarnation did (so true until this task's first commit lands).
   */
  private boolean mayLandLate = true;

  /**
   * @param branch the branch every commit goes to, and whose ancestry holds the scope's transactions
   * @param snapshotProperties the user's snapshot properties
   * @param component the state's component, and {@code taskIndex} its task, for the summary
   */
  public TransactionCommitter(
      Table table,
      CommitBranch branch,
      TransactionScope scope,
      StateType type,
      Map<String, String> snapshotProperties,
      String topology,
      String component,
      int taskIndex,
      CommitSettler.Retries retries,
      LongSupplier clock) {
    this.table = table;
    this.branch = branch.requireCommittable(table);
    this.scope = scope;
    this.type = type;
    this.summary = SummaryKeys.withTaskKeys(snapshotProperties, topology, component, taskIndex);
    this.settler = new CommitSettler(table, branch, retries);
    this.clock = clock;
  }

  /**
   * Decides what transaction {@code txid} needs.
   *
   * @throws TransactionRegressionException when the table holds a newer transaction of this scope
   */
  public TransactionPlan plan(Long txid) {
    if (txid == null || type == StateType.NON_TRANSACTIONAL) {
      return new TransactionPlan(txid, TransactionPlan.Action.APPEND, null);
    }
    if (!headKnown || (head != null && txid <= head.txid())) {
      table.refresh();
      LastTransaction.Read read = LastTransaction.read(branch.ancestry(table), scope);
      head = read.last();
      historyCutAt = read.historyCutAt();
      headKnown = true;
    }
    if (head == null || txid > head.txid()) {
      return new TransactionPlan(txid, TransactionPlan.Action.APPEND, head);
    }
    if (txid == head.txid()) {
      if (type == StateType.TRANSACTIONAL) {
        return new TransactionPlan(txid, TransactionPlan.Action.SKIP, head);
      }
      return new TransactionPlan(txid, TransactionPlan.Action.REPLACE, head);
    }
    throw new TransactionRegressionException(table.name(), scope, txid, head.txid());
  }

  /**
   * Whether the scope's newest transaction may have been expired: the id of the oldest snapshot left
   * on the branch, when the last {@link #plan} that read the table found no transaction of the scope
   * in a history that snapshot expiry cut short; null when it found one, or a history that is whole
   * (a new scope: nothing was lost).
   */
  public Long historyCutWithoutTransaction() {
    return head == null ? historyCutAt : null;
  }

  /** The scope whose transactions this commits. */
  public TransactionScope scope() {
    return scope;
  }

  /** {@link #commit(TransactionPlan, List, List)} of data files alone. */
  public Optional<CommitOutcome> commit(TransactionPlan plan, List<DataFile> files) {
    return commit(plan, files, List.of());
  }

  /**
   * Commits {@code files} as {@code plan} says, and says how it settled; never throws for commit
   * errors. Empty when there is nothing to commit: a skipped transaction, or an append of no files
   * (no work, no snapshot), except the fence: with an opaque spout, while an earlier attempt may
   * still land, an empty replay commits an empty append that the late attempt cannot pass.
   */
  public Optional<CommitOutcome> commit(TransactionPlan plan, List<DataFile> files, List<DeleteFile> deletes) {
    boolean replaces = plan.action() == TransactionPlan.Action.REPLACE;
    boolean deterministic = plan.txid() != null && type != StateType.NON_TRANSACTIONAL;
    // An opaque replay may bring nothing where an earlier attempt, unsettled, may still land: then
    // an empty append is committed after all, so the catalog's compare-and-swap refuses that attempt.
    boolean fence = deterministic && type == StateType.OPAQUE && mayLandLate;
    if (!plan.writes() || (files.isEmpty() && deletes.isEmpty() && !fence && (!replaces || addsNothing(plan.head())))) {
      return Optional.empty();
    }
    String txidCommitId =
        !deterministic
            ? UUID.randomUUID().toString()
            : replaces
                ? scope.replacementCommitId(plan.txid(), plan.head().snapshotId())
                : scope.commitId(plan.txid());
    // Attempts of an opaque txid differ in content: one attempt must never take another's landing
    // for its own when it looks its commit id up.
    String commitId = deterministic && type == StateType.OPAQUE ? txidCommitId + ":attempt-" + UUID.randomUUID() : txidCommitId;
    Supplier<SnapshotUpdate<?>> update =
        () -> replaces ? replacement(plan, commitId, files, deletes) : append(plan, commitId, files, deletes);
    // Read before any attempt: whatever this commit lands descends from this head.
    SnapshotLookup.Window window = SnapshotLookup.Window.attemptedOn(table, branch, clock.getAsLong());
    CommitOutcome outcome = deterministic ? validated(plan, commitId, update, window) : unvalidated(commitId, update, window);
    if (outcome.landed()) {
      // The commit refreshed the table: the walk stops at once, at the snapshot just made.
      head = deterministic ? LastTransaction.in(branch.ancestry(table), scope) : head;
      headKnown = head != null && commitId.equals(head.commitId());
      mayLandLate = !deterministic;
    } else if (outcome.status() != CommitOutcome.Status.FAILED) {
      headKnown = false;
      mayLandLate = true;
    }
    return Optional.of(outcome);
  }

  /** The table this state commits to, as its commits left it. */
  public Table table() {
    return table;
  }

  /**
   * The snapshot a commit of this committer made, {@code commitId} as its outcome names it, attempted
   * at {@code attemptMillis}, that landed; or null when it is not on the branch (any more). Reads the
   * table as the commit (or its settling) left it, without a refresh.
   */
  public Snapshot landedSnapshot(String commitId, long attemptMillis) {
    Long id = SnapshotLookup.find(table, branch, commitId, new SnapshotLookup.Window(null, attemptMillis));
    return id == null ? null : table.snapshot(id);
  }

  /** Whether the snapshot of {@code head} added no file: a replay that brings nothing has nothing to replace. */
  private boolean addsNothing(LastTransaction head) {
    Snapshot snapshot = table.snapshot(head.snapshotId());
    return snapshot != null && "0".equals(snapshot.summary().getOrDefault(SnapshotSummary.ADDED_FILES_PROP, "0"));
  }

  private CommitOutcome validated(TransactionPlan plan, String commitId, Supplier<SnapshotUpdate<?>> update, SnapshotLookup.Window window) {
    HeadUnchanged expected = new HeadUnchanged(scope, plan.head() == null ? null : plan.head().commitId());
    try {
      SnapshotUpdate<?> first = update.get();
      first.validateWith(expected);
      first.commit();
      return new CommitOutcome(CommitOutcome.Status.COMMITTED, commitId, null);
    } catch (RuntimeException error) {
      if (expected.refused()) {
        headKnown = false;
        LOG.warn("Commit {} to {} refused: {}; the transaction replays and is planned again",
            commitId, table.name(), expected.errorMessage());
        return new CommitOutcome(CommitOutcome.Status.FAILED, commitId, error);
      }
      // The same-id retry is validated against the plan's head too: it must not land on top of
      // another attempt of the transaction that landed meanwhile.
      CommitOutcome outcome =
          settler.settle(commitId, window, error, validatedBy(update), CommitDeadline.NONE.guardFor(window.attemptMillis()), expected);
      if (expected.refused()) {
        headKnown = false;
      }
      return outcome;
    }
  }

  private static Function<SnapshotAncestryValidator, SnapshotUpdate<?>> validatedBy(Supplier<SnapshotUpdate<?>> update) {
    return validator -> {
      SnapshotUpdate<?> again = update.get();
      again.validateWith(validator);
      return again;
    };
  }

  private CommitOutcome unvalidated(String commitId, Supplier<SnapshotUpdate<?>> update, SnapshotLookup.Window window) {
    try {
      update.get().commit();
      return new CommitOutcome(CommitOutcome.Status.COMMITTED, commitId, null);
    } catch (RuntimeException error) {
      return settler.settle(commitId, window, error, validatedBy(update), CommitDeadline.NONE.guardFor(window.attemptMillis()));
    }
  }

  private SnapshotUpdate<?> append(TransactionPlan plan, String commitId, List<DataFile> files, List<DeleteFile> deletes) {
    if (!deletes.isEmpty()) {
      RowDelta delta = branch.newRowDelta(table);
      files.forEach(delta::addRows);
      deletes.forEach(delta::addDeletes);
      return tagged(delta, plan, commitId);
    }
    var append = branch.newAppend(table);
    files.forEach(append::appendFile);
    return tagged(append, plan, commitId);
  }

  /**
   * Replaces exactly the files the plan's head snapshot added with {@code files}, in one overwrite;
   * with equality deletes on either side (a row-level write mode), in one row delta that also
   * replaces the head's deletes with {@code deletes}.
   */
  private SnapshotUpdate<?> replacement(TransactionPlan plan, String commitId, List<DataFile> files, List<DeleteFile> deletes) {
    Snapshot replaced = table.snapshot(plan.head().snapshotId());
    if (replaced == null) {
      throw new IllegalStateException(
          "Cannot replace transaction " + plan.txid() + " in " + table.name() + ": its snapshot "
              + plan.head().snapshotId() + " has expired");
    }
    LOG.info("Opaque replay of transaction {} of {} replaces the files snapshot {} added to {}",
        plan.txid(), scope, plan.head().snapshotId(), table.name());
    List<DeleteFile> replacedDeletes = new java.util.ArrayList<>();
    replaced.addedDeleteFiles(table.io()).forEach(replacedDeletes::add);
    if (!deletes.isEmpty() || !replacedDeletes.isEmpty()) {
      RowDelta delta = branch.newRowDelta(table);
      replaced.addedDataFiles(table.io()).forEach(delta::removeRows);
      replacedDeletes.forEach(delta::removeDeletes);
      files.forEach(delta::addRows);
      deletes.forEach(delta::addDeletes);
      return tagged(delta, plan, commitId);
    }
    OverwriteFiles overwrite = branch.newOverwrite(table);
    replaced.addedDataFiles(table.io()).forEach(overwrite::deleteFile);
    files.forEach(overwrite::addFile);
    return tagged(overwrite, plan, commitId);
  }

  private <U extends SnapshotUpdate<U>> U tagged(U update, TransactionPlan plan, String commitId) {
    summary.forEach(update::set);
    if (plan.txid() != null && type != StateType.NON_TRANSACTIONAL) {
      scope.summaryOf(plan.txid()).forEach(update::set);
    }
    update.set(SummaryKeys.COMMIT_ID, commitId);
    return update;
  }
}
