package org.apache.storm.iceberg.kernel.trident;

import java.util.Map;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.trident.state.StateType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The checks a Trident state task makes when it starts; each failure says how to fix the topology. */
public final class TridentChecks {
  private static final Logger LOG = LoggerFactory.getLogger(TridentChecks.class);

  private TridentChecks() {}

  /**
   * Refuses a per-partition state fed by a shuffled stream. Skipping a replayed transaction per
   * partition is exactly-once only when the replay brings each partition the same tuples: a shuffle
   * sends them elsewhere, so one partition would skip tuples it never wrote while another writes
   * tuples already in the table. Trident's own coordination streams (named {@code $...}) are not
   * looked at.
   */
  public static void requireDeterministicPartitioning(TopologyContext context, String table, StateType type) {
    if (type == StateType.NON_TRANSACTIONAL) {
      return;
    }
    for (Map.Entry<GlobalStreamId, Grouping> input : context.getThisSources().entrySet()) {
      GlobalStreamId stream = input.getKey();
      if (stream.get_streamId().startsWith("$")) {
        continue;
      }
      Grouping._Fields grouping = input.getValue().getSetField();
      if (grouping == Grouping._Fields.SHUFFLE || grouping == Grouping._Fields.LOCAL_OR_SHUFFLE
          || grouping == Grouping._Fields.NONE) {
        throw new IllegalStateException(
            "The Trident state writing " + table + " (IcebergStateFactory, " + type + ") is fed by a "
                + grouping.getFieldName() + " grouping from '" + stream.get_componentId() + "': a replayed"
                + " transaction would bring its partitions other tuples, so skipping it per partition could"
                + " lose or duplicate rows. Put partitionBy(fields) right before partitionPersist, or use"
                + " IcebergTrident.persist, which commits the whole stream at once and needs no such grouping");
      }
    }
  }

  /**
   * Refuses schema evolution for a Trident state, on the submitting client. A transaction is one
   * append of the files written as its tuples arrive, and replaying it must find or replace exactly
   * that append; evolving mid-transaction would need its files sealed and committed before the
   * schema commit, splitting one transaction over two appends.
   */
  public static void requireNoSchemaEvolution(SinkSettings settings) {
    if (settings.schemaEvolution()) {
      throw new IllegalArgumentException("Schema evolution is not supported by the Trident states (IcebergStateFactory,"
          + " IcebergTrident.persist): a transaction is committed as one append, and a schema change in the middle of one"
          + " would split it. Evolve the table from outside (the sink picks a new column up at the next transaction), or"
          + " write with IcebergBolt or the split sink, which evolve; remove withSchemaEvolution from these options");
    }
  }

  /**
   * Refuses a dead-letter stream, on the submitting client: Trident has no stream ids a state could
   * emit on, and a tuple acked out of a transaction would break its all-or-nothing replay. A Trident
   * tuple that cannot be mapped fails its batch, which Trident replays.
   */
  public static void requireNoDeadLetterStream(SinkSettings settings, String state) {
    if (settings.deadLetters() != null) {
      throw new IllegalArgumentException(
          state + " takes no dead-letter stream (withDeadLetterStream(\"" + settings.deadLetters().streamId() + "\")):"
              + " Trident has no stream ids, and a tuple that cannot be mapped fails its whole transaction, which replays."
              + " Drop withDeadLetterStream from these options, and filter or repair bad tuples before the state with"
              + " stream.each(fields, filter) (or use IcebergBolt, which has a dead-letter stream)");
    }
  }

  /**
   * Refuses an opaque state type for a per-partition state, on the submitting client: see {@code
   * IcebergStateFactory} for why it cannot be exactly-once.
   */
  public static void requireNotOpaque(StateType type) {
    if (type == StateType.OPAQUE) {
      throw new IllegalArgumentException(
          "IcebergStateFactory (one state per partition) is exactly-once for transactional spouts only: an opaque"
              + " spout's replay may bring a partition none of its earlier tuples, and Trident does not call that"
              + " partition's state, so its earlier rows would stay. Use IcebergTrident.persist for an opaque spout, or"
              + " withTridentStateType(StateType.TRANSACTIONAL) if your spout is transactional (NON_TRANSACTIONAL:"
              + " at-least-once)");
    }
  }

  /** Warns that the bolts' commit-interval thresholds do nothing here: a transaction is one commit. */
  public static void warnIgnoredThresholds(SinkSettings settings, long defaultRecords) {
    SinkSettings.Thresholds thresholds = settings.thresholds();
    boolean set = thresholds.records() != defaultRecords || thresholds.bytes() > 0 || thresholds.millis() > 0
        || !settings.providers().sealPolicies().isEmpty();
    if (set) {
      LOG.warn("Commit-interval thresholds and seal policies do not apply to a Trident state of {}: each"
          + " Trident transaction is one commit, so size it with the spout's batch size", settings.target().table());
    }
  }
}
