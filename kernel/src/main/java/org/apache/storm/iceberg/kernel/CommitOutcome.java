package org.apache.storm.iceberg.kernel;

/**
 * How one commit attempt settled.
 *
 * @param status what happened
 * @param commitId the commit id the files were appended under
 * @param error what the catalog reported, or null
 */
public record CommitOutcome(Status status, String commitId, Exception error) {

  /** What happened to a commit. */
  public enum Status {
    /** The append landed. */
    COMMITTED,
    /** The append reported an error, but a snapshot carries its commit id: it landed. */
    COMMITTED_AFTER_ERROR,
    /** The append did not land: no snapshot carries its commit id. */
    FAILED,
    /**
     * Not appended: the batch's oldest tuple passed its commit deadline (the message timeout less
     * the margin) before an attempt could land, so Storm is about to replay its tuples. Nothing of
     * it is visible.
     */
    EXPIRED,
    /**
     * The append reported an error that leaves its fate open, and the settler could not settle it,
     * with no snapshot carrying the commit id: its retries ran out, were interrupted, or stopped at
     * the batch's commit deadline; or the table was dropped or recreated, so no retry may land in
     * it. The first attempt may still have landed, or land later; its WAL entry is kept.
     */
    UNKNOWN
  }

  /** Whether the files are visible in the table, so the tuples may be acked. */
  public boolean landed() {
    return status == Status.COMMITTED || status == Status.COMMITTED_AFTER_ERROR;
  }
}
