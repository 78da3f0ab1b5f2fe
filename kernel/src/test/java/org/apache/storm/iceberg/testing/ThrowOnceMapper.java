package org.apache.storm.iceberg.testing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.storm.iceberg.mappers.FieldNameRecordMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.tuple.ITuple;

/**
 * The default field-name mapper, except that it throws the first time it sees one id: an error in
 * a Trident state's updater (or a writing partition), which fails the batch once. The throw count
 * is kept in a static registry under the mapper's key, since the mapper travels serialized.
 */
public final class ThrowOnceMapper implements RecordMapper {
  private static final long serialVersionUID = 1L;
  private static final Map<String, AtomicInteger> THROWN = new ConcurrentHashMap<>();

  private final String key;
  private final long id;
  private final FieldNameRecordMapper delegate = new FieldNameRecordMapper();

  public ThrowOnceMapper(String key, long id) {
    this.key = key;
    this.id = id;
    THROWN.putIfAbsent(key, new AtomicInteger());
  }

  /** How many times the mapper under {@code key} threw. */
  public static int thrown(String key) {
    return THROWN.get(key).get();
  }

  @Override
  public Record map(ITuple tuple, Schema schema) {
    if (tuple.getLongByField("id") == id && THROWN.get(key).compareAndSet(0, 1)) {
      throw new RecordMappingException("id", "injected: the mapper fails once on id " + id);
    }
    return delegate.map(tuple, schema);
  }
}
