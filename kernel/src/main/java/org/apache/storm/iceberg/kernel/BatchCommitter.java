package org.apache.storm.iceberg.kernel;

import java.util.Map;
import org.apache.storm.task.OutputCollector;

/** {@code IcebergBolt}'s handling of a sealed batch: commit it, then ack its tuples, or fail them. */
final class BatchCommitter implements SinkTask.SealedBatchHandler {
  private final CommitProtocol protocol;
  private final OutputCollector collector;
  private final SinkMetrics metrics;

  BatchCommitter(CommitProtocol protocol, TaskEnvironment env) {
    this.protocol = protocol;
    this.collector = env.collector();
    this.metrics = env.metrics();
  }

  @Override
  public void handle(SealedBatch batch) {
    long started = System.nanoTime();
    CommitOutcome outcome = protocol.commit(batch.dataFiles(), Map.of());
    metrics.committed(outcome, batch.dataFiles().size(), batch.bytes(), System.nanoTime() - started);
    metrics.nothingPending();
    if (outcome.landed()) {
      batch.tuples().forEach(collector::ack);
    } else {
      SinkTask.failAll(collector, batch.tuples(), outcome.error());
    }
  }
}
