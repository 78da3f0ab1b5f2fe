package org.apache.storm.iceberg.testing;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.apache.storm.iceberg.spi.SourcePositionExtractor;
import org.apache.storm.tuple.ITuple;

/**
 * A source position extractor over the fields {@code topic}, {@code partition} and {@code offset},
 * as KafkaSpout emits them, whose topics' identities a test sets ({@link #IDENTITIES}), as a
 * recreated Kafka topic gets a new id.
 */
public final class FieldPositions implements SourcePositionExtractor {
  /** Topic → its identity now; a topic not in it has identity "id-1". */
  public static final Map<String, String> IDENTITIES = new ConcurrentHashMap<>();

  @Override
  public SourcePosition position(ITuple tuple) {
    if (!tuple.getFields().contains("offset")) {
      return null;
    }
    return new SourcePosition(
        tuple.getStringByField("topic"), tuple.getIntegerByField("partition"), tuple.getLongByField("offset"));
  }

  @Override
  public String sourceIdentity(String source) {
    return IDENTITIES.getOrDefault(source, "id-1");
  }

  @Override
  public List<String> partitionFields() {
    return List.of("topic", "partition");
  }
}
