package org.apache.storm.iceberg.spi;

import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import org.apache.storm.tuple.ITuple;

/**
 * RESERVED for a future deterministic batch identity.
 *
 * <p>A source that can replay the same batch under the same id (for example a Kafka partition and
 * offset range) could one day let the kernel skip a batch whose id is already committed, which is
 * the ground for exactly-once delivery. That is not built: the kernel's hook point is the commit-id
 * source of its {@code CommitProtocol} (random UUIDs today), but no option sets an extractor, no
 * provider ships, and storm-iceberg makes <b>no exactly-once claim</b>. Every batch gets a fresh
 * random commit id, and replays may duplicate rows.
 */
public interface BatchIdExtractor extends Serializable {
  /** The batch's deterministic id, or empty to let the kernel mint a random one. */
  Optional<String> batchId(List<? extends ITuple> batch);
}
