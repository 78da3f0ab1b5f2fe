package org.apache.storm.iceberg.mappers;

import com.google.auto.service.AutoService;
import java.util.Map;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMapperFactory;

/** Registers {@link FieldNameRecordMapper} as {@code "field-name"}. It takes no properties. */
@AutoService(RecordMapperFactory.class)
public class FieldNameRecordMapperFactory implements RecordMapperFactory {
  public static final String NAME = "field-name";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public RecordMapper create(Map<String, String> properties) {
    if (!properties.isEmpty()) {
      throw new IllegalArgumentException(
          "record mapper 'field-name' takes no properties, got " + properties.keySet());
    }
    return new FieldNameRecordMapper();
  }
}
