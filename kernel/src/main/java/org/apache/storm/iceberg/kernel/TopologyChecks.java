package org.apache.storm.iceberg.kernel;

import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Footgun checks against the configuration a task runs with, at prepare (the first moment the
 * topology's configuration, component settings included, is known). Each failure says how to fix
 * the problem. A task run outside Storm has no configuration, and nothing to check.
 */
final class TopologyChecks {
  private static final Logger LOG = LoggerFactory.getLogger(TopologyChecks.class);

  private TopologyChecks() {}

  /** Checks for tasks that write batches: {@code IcebergBolt} and {@code IcebergWriterBolt}. */
  static void forWriter(IcebergOptions options, TaskEnvironment env) {
    Map<String, Object> conf = env.topologyConfig();
    if (conf.isEmpty()) {
      return;
    }
    long ageMillis = options.commitIntervalMillis();
    if (ageMillis > 0) {
      requireBelowMessageTimeout(conf, ageMillis, "commit interval", "withCommitIntervalMillis");
      int tickSecs = ObjectReader.getInt(conf.get(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS), 0);
      if (tickSecs <= 0) {
        throw new IllegalStateException(
            "an age threshold (withCommitIntervalMillis " + ageMillis + " ms) needs tick tuples to seal a batch"
                + " when the stream goes quiet, but neither the bolt nor the topology asks for them"
                + " (topology.tick.tuple.freq.secs); set withTickIntervalSecs, or leave it unset so the bolt"
                + " declares half the age threshold");
      }
    }
    requireEnoughPendingTuples(options, env, conf);
  }

  /** Checks for {@code IcebergCommitterBolt}. */
  static void forCommitter(IcebergOptions options, TaskEnvironment env) {
    Map<String, Object> conf = env.topologyConfig();
    if (conf.isEmpty()) {
      return;
    }
    requireBelowMessageTimeout(conf, options.groupCommitIntervalMillis(), "group commit interval", "withGroupCommitIntervalMillis");
  }

  private static void requireBelowMessageTimeout(Map<String, Object> conf, long millis, String what, String setter) {
    int timeoutSecs = ObjectReader.getInt(conf.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS), 30);
    if (millis >= timeoutSecs * 1000L) {
      throw new IllegalStateException(
          what + " " + millis + " ms is not below topology.message.timeout.secs (" + timeoutSecs + " s): tuples would"
              + " time out and replay before they commit; lower " + setter + " or raise the timeout");
    }
  }

  /**
   * A batch that seals only on its record count needs that many tuples in flight at once; if the
   * spouts may not have that many pending, it never fills and the topology stalls.
   */
  private static void requireEnoughPendingTuples(IcebergOptions options, TaskEnvironment env, Map<String, Object> conf) {
    Object maxPending = conf.get(Config.TOPOLOGY_MAX_SPOUT_PENDING);
    long records = options.commitIntervalRecords();
    if (maxPending == null || records <= 0) {
      return;
    }
    long inFlight = (long) ObjectReader.getInt(maxPending) * Math.max(1, env.task().spoutTasks());
    if (inFlight >= records) {
      return;
    }
    String problem =
        "topology.max.spout.pending (" + maxPending + " per spout task, " + inFlight + " in all) is below the "
            + records + " records a batch accumulates (withCommitIntervalRecords)";
    if (options.commitIntervalMillis() > 0 || !options.sealPolicyChoices().isEmpty()) {
      LOG.warn("{}: batches will seal on their other thresholds, never on their record count; raise"
          + " topology.max.spout.pending or lower withCommitIntervalRecords", problem);
      return;
    }
    throw new IllegalStateException(
        problem + ", so a batch can never fill and the topology stalls; raise topology.max.spout.pending or lower"
            + " withCommitIntervalRecords");
  }
}
