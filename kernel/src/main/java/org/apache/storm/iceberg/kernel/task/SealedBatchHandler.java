package org.apache.storm.iceberg.kernel.task;

import org.apache.storm.iceberg.kernel.batch.SealedBatch;

/**
 * What a writing task does with a batch once its files are closed: {@code IcebergBolt}'s commits
 * it and acks ({@link CommitThenAck}); {@code IcebergWriterBolt}'s emits a descriptor of its files
 * ({@link DescriptorEmitter}).
 */
interface SealedBatchHandler {
  /** Settles the batch: acks or fails every one of its tuples (directly or through anchors). */
  void handle(SealedBatch batch);
}
