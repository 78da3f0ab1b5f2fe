package org.apache.storm.iceberg.kernel.task;

import org.apache.storm.iceberg.kernel.ack.HeldTuples;
import org.apache.storm.iceberg.kernel.secrets.Redaction;
import org.apache.storm.task.OutputCollector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How a task fails a whole batch: it says why once, then fails every tuple. */
final class BatchFailures {
  private static final Logger LOG = LoggerFactory.getLogger(BatchFailures.class);

  private BatchFailures() {}

  /** Fails every tuple of a batch, reporting {@code cause} (when there is one) once. */
  static void failAll(OutputCollector collector, HeldTuples tuples, Exception cause) {
    LOG.warn("Failing {} tuples of a batch", tuples.size(), Redaction.of(cause));
    if (cause != null) {
      collector.reportError(cause);
    }
    tuples.failAll(collector);
  }

  /** Fails every tuple of a broken batch (none when {@code cause} is null), then lets go of them. */
  static void failAndRelease(OutputCollector collector, HeldTuples tuples, Exception cause) {
    try {
      if (cause != null) {
        failAll(collector, tuples, cause);
      }
    } finally {
      tuples.release();
    }
  }
}
