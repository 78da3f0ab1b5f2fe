package org.apache.storm.iceberg.bench;

import java.util.List;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.apache.storm.iceberg.spi.SourcePositionExtractor;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.ITuple;

/**
 * The {@code kafka} provider's per-tuple work without a broker: reads {@code topic}, {@code
 * partition} and {@code offset} as storm-kafka-client's default record translator emits them (the
 * fields' indexes looked up once per layout, the values' types checked), and gives every topic one
 * fixed identity. The {@code kafka} provider asks a broker for a topic's id once per task and topic;
 * that one call is all this leaves out.
 */
final class FixedIdentityPositions implements SourcePositionExtractor {
  private static final long serialVersionUID = 1L;
  static final String TOPIC = "topic";
  static final String PARTITION = "partition";
  static final String OFFSET = "offset";

  private transient Fields lastFields;
  private transient int[] lastIndexes;

  @Override
  public SourcePosition position(ITuple tuple) {
    int[] indexes = indexes(tuple.getFields());
    if (indexes == null) {
      return null;
    }
    Object topic = tuple.getValue(indexes[0]);
    Object partition = tuple.getValue(indexes[1]);
    Object offset = tuple.getValue(indexes[2]);
    if (!(topic instanceof String) || !(partition instanceof Integer) || !(offset instanceof Long)) {
      throw new IllegalArgumentException("expected topic as String, partition as Integer, offset as Long");
    }
    return new SourcePosition((String) topic, (Integer) partition, (Long) offset);
  }

  private int[] indexes(Fields fields) {
    if (fields != lastFields && !fields.equals(lastFields)) {
      lastIndexes = fields.contains(TOPIC) && fields.contains(PARTITION) && fields.contains(OFFSET)
          ? new int[] {fields.fieldIndex(TOPIC), fields.fieldIndex(PARTITION), fields.fieldIndex(OFFSET)}
          : null;
      lastFields = fields;
    }
    return lastIndexes;
  }

  @Override
  public String sourceIdentity(String source) {
    return "bench-topic-id";
  }

  @Override
  public List<String> partitionFields() {
    return List.of(TOPIC, PARTITION);
  }
}
