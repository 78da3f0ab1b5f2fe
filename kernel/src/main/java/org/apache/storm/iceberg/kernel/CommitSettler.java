package org.apache.storm.iceberg.kernel;

import java.util.function.Supplier;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles an append that reported an error, while the batch is in hand.
 *
 * <p>It first looks for the commit id among the table's snapshots: found means the append landed.
 * A definite failure (Iceberg says the commit was not applied) fails the batch. An ambiguous one
 * (the catalog's answer was lost, or the table cannot be read) may still land later, for example a
 * REST commit a gateway answered 504 and applied afterwards. Failing such a batch would replay rows
 * that then appear twice. So the settler re-appends the <b>same files under the same commit id</b>,
 * guarded by a {@link SnapshotAncestryValidator} that refuses any ancestry already carrying the id:
 *
 * <ul>
 *   <li>the validator refuses: the first attempt landed in the meantime, so the batch is acked;
 *   <li>the retry lands: the batch is acked; a catalog with compare-and-swap commits (REST, JDBC,
 *       Hadoop, Hive, Glue, Nessie) can no longer apply the stale first attempt, whose base no longer
 *       matches;
 *   <li>it stays ambiguous: retry, with doubling backoff, up to the configured number of retries,
 *       then fail the batch (it replays, and duplicates are possible).
 * </ul>
 */
final class CommitSettler {
  private static final Logger LOG = LoggerFactory.getLogger(CommitSettler.class);
  private static final long MAX_BACKOFF_MILLIS = 30_000;

  /** How many times, and how patiently, an ambiguous commit is retried. */
  record Retries(int max, long backoffMillis) {
    static final Retries DEFAULT =
        new Retries(SinkSettings.Commits.DEFAULT_RETRIES, SinkSettings.Commits.DEFAULT_RETRY_BACKOFF_MILLIS);
  }

  private final Table table;
  private final Retries retries;

  CommitSettler(Table table, Retries retries) {
    this.table = table;
    this.retries = retries;
  }

  /**
   * Settles the commit. Whatever the outcome, its error is {@code firstError}, the one that made the
   * commit's fate unknown, with every later lookup's or retry's error suppressed in it: a batch that
   * fails says why it could not be settled, not merely what its last retry met.
   *
   * @param sameAppend makes the append again: the same files, summary and commit id
   * @param deadline the batch's commit deadline: no retry starts, nor waits, past it
   */
  CommitOutcome settle(
      String commitId, long attemptMillis, RuntimeException firstError, Supplier<AppendFiles> sameAppend, DeadlineGuard deadline) {
    boolean ambiguous = isAmbiguous(firstError);
    for (int retry = 0; ; retry++) {
      Long snapshotId;
      try {
        table.refresh();
        snapshotId = SnapshotLookup.find(table, commitId, attemptMillis);
      } catch (RuntimeException lookupFailure) {
        firstError.addSuppressed(lookupFailure);
        snapshotId = null;
        ambiguous = true;
      }
      if (snapshotId != null) {
        LOG.info("Commit {} to {} reported {} but landed in snapshot {}; acking", commitId, table.name(), Redaction.redact(firstError.toString()), snapshotId);
        return new CommitOutcome(CommitOutcome.Status.COMMITTED_AFTER_ERROR, commitId, firstError);
      }
      if (!ambiguous) {
        LOG.warn("Commit {} to {} did not land; failing the batch for replay", commitId, table.name(), Redaction.of(firstError));
        return new CommitOutcome(CommitOutcome.Status.FAILED, commitId, firstError);
      }
      if (TableLifecycle.isEvidentlyGone(firstError)) {
        // Dropped or recreated: a retry cannot land in the old table and must not land in a new one.
        return new CommitOutcome(CommitOutcome.Status.UNKNOWN, commitId, firstError);
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
        return new CommitOutcome(CommitOutcome.Status.UNKNOWN, commitId, firstError);
      }
      try {
        sameAppend.get().validateWith(new AllValidators(deadline, new AbsentCommitId(commitId))).commit();
        LOG.info("Commit {} to {} landed on retry {} after {}", commitId, table.name(), retry + 1, Redaction.redact(firstError.toString()));
        return new CommitOutcome(CommitOutcome.Status.COMMITTED_AFTER_ERROR, commitId, firstError);
      } catch (ValidationException e) {
        if (e.getMessage() != null && e.getMessage().contains(AbsentCommitId.MARK + commitId)) {
          LOG.info("Commit {} to {} landed late, before its retry; acking", commitId, table.name());
          return new CommitOutcome(CommitOutcome.Status.COMMITTED_AFTER_ERROR, commitId, firstError);
        }
        firstError.addSuppressed(e);
      } catch (RuntimeException e) {
        // Whatever the retry met, the first attempt is still unsettled: look again.
        firstError.addSuppressed(e);
      }
    }
  }

  /** Only a lost answer leaves a commit's fate open; Iceberg's other errors mean it was not applied. */
  private static boolean isAmbiguous(RuntimeException error) {
    return error instanceof CommitStateUnknownException;
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

  /** Refuses an ancestry in which a snapshot already carries the commit id. */
  static final class AbsentCommitId implements SnapshotAncestryValidator {
    static final String MARK = "storm-iceberg commit already landed: ";
    private final String commitId;

    AbsentCommitId(String commitId) {
      this.commitId = commitId;
    }

    @Override
    public boolean validate(Iterable<Snapshot> baseSnapshots) {
      for (Snapshot snapshot : baseSnapshots) {
        if (commitId.equals(snapshot.summary().get(SummaryKeys.COMMIT_ID))) {
          return false;
        }
      }
      return true;
    }

    @Override
    public String errorMessage() {
      return MARK + commitId;
    }
  }
}
