package org.apache.storm.iceberg.examples.plugin;

import com.google.auto.service.AutoService;
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.spi.ProviderProperties;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMapperFactory;

/** Registers {@link UpperCaseRecordMapper} as {@code "upper-case"}; it takes no properties. */
@AutoService(RecordMapperFactory.class)
public final class UpperCaseRecordMapperFactory implements RecordMapperFactory {
  @Override
  public String name() {
    return "upper-case";
  }

  @Override
  public RecordMapper create(Map<String, String> properties) {
    ProviderProperties.check("record mapper 'upper-case'", properties, Set.of(), Set.of());
    return new UpperCaseRecordMapper();
  }
}
