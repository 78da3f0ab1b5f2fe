package org.apache.storm.iceberg.mappers;

import com.google.auto.service.AutoService;
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMapperFactory;

/**
 * Registers {@link JsonRecordMapper} as {@code "json"}. Property: {@code field}, the tuple field
 * holding the JSON document (default {@value #DEFAULT_FIELD}, as storm-kafka-client emits it).
 */
@AutoService(RecordMapperFactory.class)
public class JsonRecordMapperFactory implements RecordMapperFactory {
  public static final String NAME = "json";
  public static final String DEFAULT_FIELD = "value";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public RecordMapper create(Map<String, String> properties) {
    return new JsonRecordMapper(new MapperProperties(NAME, properties, Set.of("field")).string("field", DEFAULT_FIELD));
  }
}
