package org.apache.storm.iceberg.bench;

import java.util.List;
import java.util.Map;
import org.apache.storm.iceberg.sources.KafkaPositionsFactory;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.apache.storm.iceberg.spi.SourcePositionExtractor;
import org.apache.storm.tuple.ITuple;

/**
 * The {@code kafka} provider itself, reading {@code topic}, {@code partition} and {@code offset} as
 * storm-kafka-client's default record translator emits them, with every topic given one fixed
 * identity instead of the id the provider asks a broker for once per task and topic: that one call
 * is all this leaves out, so no broker is needed.
 */
final class FixedIdentityPositions implements SourcePositionExtractor {
  private static final long serialVersionUID = 1L;
  static final String TOPIC = "topic";
  static final String PARTITION = "partition";
  static final String OFFSET = "offset";

  // Never contacted: only sourceIdentity would, and it is not delegated.
  private final SourcePositionExtractor kafka =
      new KafkaPositionsFactory().create(Map.of("bootstrap.servers", "127.0.0.1:9"));

  @Override
  public SourcePosition position(ITuple tuple) {
    return kafka.position(tuple);
  }

  @Override
  public String sourceIdentity(String source) {
    return "bench-topic-id";
  }

  @Override
  public List<String> partitionFields() {
    return kafka.partitionFields();
  }
}
