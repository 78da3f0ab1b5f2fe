package org.apache.storm.iceberg;

import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.WritingTask;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.topology.OutputFieldsDeclarer;

/**
 * Writes tuples into an Iceberg table, one atomic append per batch, acking each tuple only after the
 * append holding it has landed (at-least-once; replays may duplicate rows). See {@link
 * IcebergOptions} for thresholds and providers. With {@code withTableRouter}, each tuple goes to the
 * table its router names, each table committed on its own. Emits nothing, except on its dead-letter stream
 * when the options name one ({@link DeadLetterFields}).
 */
public class IcebergBolt extends SinkTaskBolt {
  private static final long serialVersionUID = 1L;

  public IcebergBolt(IcebergOptions options) {
    super(options);
  }

  @Override
  WritingTask open(TaskEnvironment env) {
    return options.settings().routing() != null
        ? RoutedSinkTask.open(options.settings(), env, SinkTask::open)
        : SinkTask.open(options.settings(), env);
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    declareDeadLetterStream(declarer);
  }
}
