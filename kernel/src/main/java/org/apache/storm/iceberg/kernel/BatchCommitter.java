package org.apache.storm.iceberg.kernel;

import java.util.Map;
import org.apache.storm.task.OutputCollector;

/** {@code IcebergBolt}'s handling of a sealed batch: commit it, then ack its tuples, or fail them. */
final class BatchCommitter implements SinkTask.SealedBatchHandler {
  private final CommitProtocol protocol;
  private final OutputCollector collector;

  BatchCommitter(CommitProtocol protocol, OutputCollector collector) {
    this.protocol = protocol;
    this.collector = collector;
  }

  @Override
  public void handle(SealedBatch batch) {
    CommitOutcome outcome = protocol.commit(batch.dataFiles(), Map.of());
    if (outcome.landed()) {
      batch.tuples().forEach(collector::ack);
    } else {
      SinkTask.failAll(collector, batch.tuples(), outcome.error());
    }
  }
}
