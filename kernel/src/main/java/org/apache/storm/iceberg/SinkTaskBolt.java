package org.apache.storm.iceberg;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.iceberg.kernel.SinkTask;
import org.apache.storm.iceberg.kernel.TaskEnvironment;
import org.apache.storm.iceberg.kernel.TickIntervals;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;

/**
 * What {@link IcebergBolt} and {@link IcebergWriterBolt} share: one {@link SinkTask} per task that
 * maps, writes and seals batches, and the tick interval the options ask for. They differ only in what
 * the task does with a sealed batch, which {@link #open} decides.
 */
abstract class SinkTaskBolt extends BaseRichBolt {
  private static final long serialVersionUID = 1L;

  protected final IcebergOptions options;
  private transient SinkTask sink;

  SinkTaskBolt(IcebergOptions options) {
    this.options = options;
  }

  /** Opens this bolt's kind of task. */
  abstract SinkTask open(TaskEnvironment env);

  @Override
  public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
    sink = open(TaskEnvironment.of(topoConf, context, collector));
  }

  @Override
  public void execute(Tuple tuple) {
    sink.execute(tuple);
  }

  @Override
  public void cleanup() {
    if (sink != null) {
      sink.close();
    }
  }

  @Override
  public Map<String, Object> getComponentConfiguration() {
    return tickConfiguration(TickIntervals.forWriter(options.settings()));
  }

  /** The component configuration that asks for a tick every {@code seconds}, or null for none. */
  static Map<String, Object> tickConfiguration(int seconds) {
    return seconds > 0 ? TupleUtils.putTickFrequencyIntoComponentConfig(new HashMap<>(), seconds) : null;
  }
}
