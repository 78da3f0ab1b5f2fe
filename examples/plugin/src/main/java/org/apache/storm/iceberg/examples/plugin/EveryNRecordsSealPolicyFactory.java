package org.apache.storm.iceberg.examples.plugin;

import com.google.auto.service.AutoService;
import java.util.Map;
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
    String n = properties.get("n");
    if (n == null || properties.size() != 1) {
      throw new IllegalArgumentException("seal policy 'every-n' takes exactly one property, 'n', got " + properties.keySet());
    }
    try {
      return new EveryNRecordsSealPolicy(Long.parseLong(n.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("seal policy 'every-n': n '" + n + "' is not a whole number", e);
    }
  }
}
