package org.apache.storm.iceberg.mappers;

import com.google.auto.service.AutoService;
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMapperFactory;

/**
 * Registers {@link FieldNameRecordMapper} as {@code "field-name"}. Properties: {@code
 * case-insensitive} and {@code strict}, both {@code true} or {@code false} (default).
 */
@AutoService(RecordMapperFactory.class)
public class FieldNameRecordMapperFactory implements RecordMapperFactory {
  public static final String NAME = "field-name";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public RecordMapper create(Map<String, String> properties) {
    MapperProperties props = new MapperProperties(NAME, properties, Set.of("case-insensitive", "strict"));
    return new FieldNameRecordMapper(props.flag("case-insensitive"), props.flag("strict"));
  }
}
