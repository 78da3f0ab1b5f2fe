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
import java.util.function.Function;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CleanableFailure;
import org.apache.iceberg.exceptions.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles an append that reported an error, while the batch is in hand.
 *
 * <p>It first looks for the commit id among the snapshots of the branch the sink commits to ({@link
 * CommitBranch}): found means the append landed.
 * Otherwise what happens depends on the error:
 *
 * <p><b>Definite: not applied.</b> Only an error that Iceberg itself marks {@link CleanableFailure}
 * ("the state is known to be failure") fails the batch at once. Iceberg's own {@code
 * SnapshotProducer} deletes the commit's manifests after exactly these errors, and keeps them after
 * any other, because any other may still land. In Iceberg 1.11 they are:
 *
 * <ul>
 *   <li>{@link org.apache.iceberg.exceptions.CommitFailedException}: the catalog's compare-and-swap
 *       refused the commit (a REST 409, a JDBC row that no longer matched, a Hadoop version file
 *       already there), after Iceberg's own conflict retries, which retry nothing else;
 *   <li>{@link ValidationException}: Iceberg refused the commit before sending it;
 *   <li>{@link org.apache.iceberg.exceptions.NoSuchTableException} (and {@code
 *       NoSuchIcebergTableException}, {@code NoSuchNamespaceException}): the table is not there to
 *       commit to (a REST 404, JDBC's check before its update);
 *   <li>the REST client's {@link org.apache.iceberg.exceptions.BadRequestException} (400), {@link
 *       org.apache.iceberg.exceptions.NotAuthorizedException} (401), {@link
 *       org.apache.iceberg.exceptions.ForbiddenException} (403) and {@link
 *       org.apache.iceberg.exceptions.ServiceUnavailableException}: the request was refused before
 *       it was processed. (A commit's 500, 502, 503 and 504 become {@code
 *       CommitStateUnknownException}, which is ambiguous.)
 * </ul>
 *
 * <p><b>Ambiguous: every other error.</b> A lost answer ({@code CommitStateUnknownException}), a
 * socket timeout or reset ({@code UncheckedIOException}), a gateway's 408, 499 or 524 (a plain
 * {@code RESTException}), a JDBC driver that threw after its row was written ({@code
 * UncheckedSQLException}), a table that cannot be read: the commit may land later. Failing such a
 * batch would replay rows that then appear twice. So the settler re-appends the <b>same files under
 * the same commit id</b>, guarded by an {@link AbsentCommitId} validator that refuses any ancestry
 * already carrying the id:
 *
 * <ul>
 *   <li>the validator refuses: the first attempt landed in the meantime, so the batch is acked;
 *   <li>the retry lands: the batch is acked; a catalog with compare-and-swap commits (REST, JDBC,
 *       Hadoop, Hive, Glue, Nessie) can no longer apply the stale first attempt, whose base no longer
 *       matches;
 *   <li>it stays ambiguous: retry, with doubling backoff, up to the configured number of retries,
 *       then give up as {@link CommitOutcome.Status#UNKNOWN} (the batch replays, and duplicates are
 *       possible).
 * </ul>
 */
public final class CommitSettler {
  private static final Logger LOG = LoggerFactory.getLogger(CommitSettler.class);
  private static final long MAX_BACKOFF_MILLIS = 30_000;

  /** How many times, and how patiently, an ambiguous commit is retried. */
  public record Retries(int max, long backoffMillis) {
    public static final int DEFAULT_MAX = 3;
    public static final long DEFAULT_BACKOFF_MILLIS = 500;
    static final Retries DEFAULT = new Retries(DEFAULT_MAX, DEFAULT_BACKOFF_MILLIS);
  }

  private final Table table;
  private final CommitBranch branch;
  private final Retries retries;

  /** @param branch where the commit goes, and so where it is looked for */
  CommitSettler(Table table, CommitBranch branch, Retries retries) {
    this.table = table;
    this.branch = branch;
    this.retries = retries;
  }

  /**
   * Settles the commit. Whatever the outcome, its error is {@code firstError}, the one that made the
   * commit's fate unknown, with every later lookup's or retry's error suppressed in it: a batch that
   * fails says why it could not be settled, not merely what its last retry met.
   *
   * @param sameUpdate makes the update again (the same files and commit id), validated by the
   *     validator it is given and any of its own
   * @param deadline the batch's commit deadline: no retry starts, nor waits, past it
   */
  CommitOutcome settle(
      String commitId, SnapshotLookup.Window window, RuntimeException firstError,
      Function<SnapshotAncestryValidator, ? extends SnapshotUpdate<?>> sameUpdate, DeadlineGuard deadline) {
    return settle(commitId, window, firstError, sameUpdate, deadline, null);
  }

  /**
   * Settles as above, each retry also validated by {@code head} (a Trident transaction's): once it
   * refuses, another commit of the transaction's scope landed after every attempt's base, so none
   * can land any more, and the commit has failed.
   */
  CommitOutcome settle(
      String commitId, SnapshotLookup.Window window, RuntimeException firstError,
      Function<SnapshotAncestryValidator, ? extends SnapshotUpdate<?>> sameUpdate, DeadlineGuard deadline, HeadUnchanged head) {
    boolean ambiguous = isAmbiguous(firstError);
    for (int retry = 0; ; retry++) {
      Long snapshotId;
      try {
        table.refresh();
        snapshotId = SnapshotLookup.find(table, branch, commitId, window);
      } catch (RuntimeException lookupFailure) {
        firstError.addSuppressed(lookupFailure);
        snapshotId = null;
        ambiguous = true;
      }
      if (snapshotId != null) {
        LOG.info("Commit {} to {} reported {} but landed in snapshot {}; acking", commitId, table.name(), Redaction.redact(firstError.toString()), snapshotId);
        return new CommitOutcome(CommitOutcome.Status.COMMITTED_AFTER_ERROR, commitId, firstError);
      }
      if (TableGoneErrors.isEvidentlyGone(firstError)) {
        // Dropped or recreated: a retry cannot land in the old table and must not land in a new one.
        return new CommitOutcome(CommitOutcome.Status.UNKNOWN, commitId, firstError);
      }
      if (!ambiguous) {
        LOG.warn("Commit {} to {} did not land; failing the batch for replay", commitId, table.name(), Redaction.of(firstError));
        return new CommitOutcome(CommitOutcome.Status.FAILED, commitId, firstError);
      }
      if (retry >= retries.max()) {
        LOG.warn("Commit {} to {} is still unsettled after {} retries; failing the batch for replay (duplicates possible)",
            commitId, table.name(), retries.max(), Redaction.of(firstError));
        return new CommitOutcome(CommitOutcome.Status.UNKNOWN, commitId, firstError);
      }
      long backoffMillis = backoffMillis(retry);
      if (deadline.within(backoffMillis)) {
        LOG.warn("Commit {} to {} is still unsettled at its batch's commit deadline; failing the batch for replay"
            + " (duplicates possible)", commitId, table.name(), Redaction.of(firstError));
        return new CommitOutcome(CommitOutcome.Status.UNKNOWN, commitId, firstError);
      }
      if (!sleep(backoffMillis)) {
        LOG.warn("Commit {} to {} is unsettled: interrupted while waiting to retry; failing the batch for replay (duplicates possible)",
            commitId, table.name(), Redaction.of(firstError));
        return new CommitOutcome(CommitOutcome.Status.UNKNOWN, commitId, firstError);
      }
      AbsentCommitId absent = new AbsentCommitId(commitId, window);
      try {
        // The commit id first: an attempt of this very commit that landed is not "another commit".
        sameUpdate.apply(head == null ? new AllValidators(deadline, absent) : new AllValidators(deadline, absent, head)).commit();
        LOG.info("Commit {} to {} landed on retry {} after {}", commitId, table.name(), retry + 1, Redaction.redact(firstError.toString()));
        return new CommitOutcome(CommitOutcome.Status.COMMITTED_AFTER_ERROR, commitId, firstError);
      } catch (RuntimeException e) {
        if (absent.refused()) {
          LOG.info("Commit {} to {} landed late, before its retry; acking", commitId, table.name());
          return new CommitOutcome(CommitOutcome.Status.COMMITTED_AFTER_ERROR, commitId, firstError);
        }
        firstError.addSuppressed(e);
        if (head != null && head.refused()) {
          LOG.warn("Commit {} to {} did not land: {}; failing the batch for replay", commitId, table.name(), head.errorMessage());
          return new CommitOutcome(CommitOutcome.Status.FAILED, commitId, firstError);
        }
        // Whatever the retry met, the first attempt is still unsettled: look again.
      }
    }
  }

  /**
   * Whether {@code error} leaves the commit's fate open: anything but an error Iceberg marks as a
   * known failure (see the class Javadoc).
   */
  private static boolean isAmbiguous(RuntimeException error) {
    return !(error instanceof CleanableFailure);
  }

  private long backoffMillis(int retry) {
    return Math.min(MAX_BACKOFF_MILLIS, retries.backoffMillis() << Math.min(retry, 20));
  }

  private static boolean sleep(long millis) {
    try {
      Thread.sleep(millis);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Refuses an ancestry in which a snapshot already carries the commit id, and remembers that it
   * did: the settler recognises its own refusal by this flag, not by the error's message. It looks
   * only within the commit's {@link SnapshotLookup.Window}, as the settler's lookup does.
   */
  static final class AbsentCommitId implements SnapshotAncestryValidator {
    private final String commitId;
    private final SnapshotLookup.Window window;
    private volatile boolean refused;

    AbsentCommitId(String commitId, SnapshotLookup.Window window) {
      this.commitId = commitId;
      this.window = window;
    }

    @Override
    public boolean validate(Iterable<Snapshot> baseSnapshots) {
      if (SnapshotLookup.find(baseSnapshots, commitId, window) != null) {
        refused = true;
        return false;
      }
      return true;
    }

    /** Whether it found the commit id in an ancestry it was asked about: the commit has landed. */
    boolean refused() {
      return refused;
    }

    @Override
    public String errorMessage() {
      return "storm-iceberg commit " + commitId + " already landed";
    }
  }
}
