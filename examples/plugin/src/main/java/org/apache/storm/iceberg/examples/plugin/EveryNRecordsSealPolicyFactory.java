package org.apache.storm.iceberg.examples.plugin;

import com.google.auto.service.AutoService;
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.spi.ProviderProperties;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.iceberg.spi.SealPolicyFactory;

/** Registers {@link EveryNRecordsSealPolicy} as {@code "every-n"}; property {@code n}. */
@AutoService(SealPolicyFactory.class)
public final class EveryNRecordsSealPolicyFactory implements SealPolicyFactory {
  @Override
  public String name() {
    return "every-n";
  }

  @Override
  public SealPolicy create(Map<String, String> properties) {
    ProviderProperties.check("seal policy 'every-n'", properties, Set.of("n"), Set.of());
    String n = properties.get("n");
    try {
      return new EveryNRecordsSealPolicy(Long.parseLong(n.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("seal policy 'every-n': n '" + n + "' is not a whole number", e);
    }
  }
}
