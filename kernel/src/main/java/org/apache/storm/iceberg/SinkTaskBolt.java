package org.apache.storm.iceberg;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.iceberg.kernel.task.ShutdownGuard;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SourceOwnership;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.seal.TickIntervals;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link IcebergBolt} and {@link IcebergWriterBolt} share: one {@link SinkTask} per task that
 * maps, writes and seals batches, and the tick interval the options ask for. They differ only in what
 * the task does with a sealed batch, which {@link #open} decides. A {@link ShutdownGuard} lets
 * {@code cleanup}, which Storm may run on another thread mid-commit, close the task safely.
 */
abstract class SinkTaskBolt extends BaseRichBolt {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(SinkTaskBolt.class);

  protected final IcebergOptions options;
  private transient SinkTask sink;
  private transient ShutdownGuard guard;

  SinkTaskBolt(IcebergOptions options) {
    this.options = options;
  }

  /** Opens this bolt's kind of task. */
  abstract SinkTask open(TaskEnvironment env);

  @Override
  public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
    String deadLetterStream = options.deadLetterStream();
    if (deadLetterStream != null && context.getThisTargets().getOrDefault(deadLetterStream, Map.of()).isEmpty()) {
      LOG.error("'{}' has no subscriber on its dead-letter stream '{}'; tuples it cannot write will be failed, and"
          + " replayed, until a bolt subscribes to it", context.getThisComponentId(), deadLetterStream);
    }
    SourceOwnership.require(options.settings(), context, Thread.currentThread().getContextClassLoader());
    guard = new ShutdownGuard();
    sink = open(TaskEnvironment.of(topoConf, context, guard.guard(collector)));
  }

  @Override
  public void execute(Tuple tuple) {
    if (!guard.enter()) {
      return;
    }
    try {
      sink.execute(tuple);
    } catch (RuntimeException e) {
      guard.failed(e);
    } finally {
      guard.exit();
    }
  }

  @Override
  public void cleanup() {
    if (sink != null) {
      guard.close(sink::close, sink::abandon);
    }
  }

  @Override
  public Map<String, Object> getComponentConfiguration() {
    return tickConfiguration(TickIntervals.forWriter(options.settings()));
  }

  /** Declares the dead-letter stream when the options name one. */
  final void declareDeadLetterStream(OutputFieldsDeclarer declarer) {
    if (options.deadLetterStream() != null) {
      declarer.declareStream(options.deadLetterStream(), DeadLetterFields.fields());
    }
  }

  /** The component configuration that asks for a tick every {@code seconds}, or null for none. */
  static Map<String, Object> tickConfiguration(int seconds) {
    return seconds > 0 ? TupleUtils.putTickFrequencyIntoComponentConfig(new HashMap<>(), seconds) : null;
  }
}
