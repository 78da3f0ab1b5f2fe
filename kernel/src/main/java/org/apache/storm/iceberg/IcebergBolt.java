package org.apache.storm.iceberg;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.iceberg.kernel.SinkTask;
import org.apache.storm.iceberg.kernel.TaskEnvironment;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.utils.TupleUtils;

/**
 * Writes tuples into an Iceberg table, one atomic append per batch, acking each tuple only after the
 * append holding it has landed (at-least-once; replays may duplicate rows). See {@link
 * IcebergOptions} for thresholds and providers. Emits nothing.
 */
public class IcebergBolt extends BaseRichBolt {
  private static final long serialVersionUID = 1L;

  private final IcebergOptions options;
  private transient SinkTask sink;

  public IcebergBolt(IcebergOptions options) {
    this.options = options;
  }

  @Override
  public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
    sink = SinkTask.open(options, TaskEnvironment.of(topoConf, context, collector));
  }

  @Override
  public void execute(org.apache.storm.tuple.Tuple tuple) {
    sink.execute(tuple);
  }

  @Override
  public void cleanup() {
    if (sink != null) {
      sink.close();
    }
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    // A sink: nothing downstream.
  }

  @Override
  public Map<String, Object> getComponentConfiguration() {
    return tickConfiguration(options.effectiveTickIntervalSecs());
  }

  /** The component configuration that asks for a tick every {@code seconds}, or null for none. */
  static Map<String, Object> tickConfiguration(int seconds) {
    return seconds > 0 ? TupleUtils.putTickFrequencyIntoComponentConfig(new HashMap<>(), seconds) : null;
  }
}
