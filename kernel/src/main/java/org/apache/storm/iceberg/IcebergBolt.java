package org.apache.storm.iceberg;

import java.util.Map;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.topology.OutputFieldsDeclarer;

/**
 * Writes tuples into an Iceberg table, one atomic append per batch, acking each tuple only after the
 * append holding it has landed (at-least-once; replays may duplicate rows). See {@link
 * IcebergOptions} for thresholds and providers. Emits nothing, except on its dead-letter stream
 * when the options name one ({@link DeadLetterFields}).
 *
 * <p>Each sealed batch commits on a thread of the task's own while the executor writes the next
 * batch, in seal order; at most {@link IcebergOptions.Builder#withMaxPendingCommits} sealed batches
 * wait, beyond that the executor waits. A failed commit fails only its own batch's tuples.
 */
public class IcebergBolt extends SinkTaskBolt {
  private static final long serialVersionUID = 1L;

  public IcebergBolt(IcebergOptions options) {
    super(options);
  }

  @Override
  SinkTask open(TaskEnvironment env) {
    return SinkTask.openPipelined(options.settings(), env);
  }

  /**
   * A tick every second, whatever the thresholds: a commit that ended on the commit thread is acked
   * at the executor's next call, and in a lull only a tick makes one.
   */
  @Override
  public Map<String, Object> getComponentConfiguration() {
    return tickConfiguration(1);
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    declareDeadLetterStream(declarer);
  }
}
