package org.apache.storm.iceberg.kernel;

import com.google.auto.service.AutoService;
import java.util.Map;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.iceberg.spi.SealPolicyFactory;

/** Registers the built-in thresholds by name; each takes one property, {@code limit}. */
public final class ThresholdSealPolicyFactories {
  private ThresholdSealPolicyFactories() {}

  static SealPolicy create(
      String name, ThresholdSealPolicy.Measure measure, Map<String, String> properties) {
    String limit = properties.get("limit");
    if (limit == null || properties.size() != 1) {
      throw new IllegalArgumentException(
          "seal policy '" + name + "' takes exactly one property, 'limit', got " + properties.keySet());
    }
    try {
      return new ThresholdSealPolicy(measure, Long.parseLong(limit.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "seal policy '" + name + "': limit '" + limit + "' is not a whole number", e);
    }
  }

  /** {@code "records"}: seal at {@code limit} records. */
  @AutoService(SealPolicyFactory.class)
  public static final class Records implements SealPolicyFactory {
    @Override
    public String name() {
      return "records";
    }

    @Override
    public SealPolicy create(Map<String, String> properties) {
      return ThresholdSealPolicyFactories.create(name(), ThresholdSealPolicy.Measure.RECORDS, properties);
    }
  }

  /** {@code "bytes"}: seal at {@code limit} bytes written. */
  @AutoService(SealPolicyFactory.class)
  public static final class Bytes implements SealPolicyFactory {
    @Override
    public String name() {
      return "bytes";
    }

    @Override
    public SealPolicy create(Map<String, String> properties) {
      return ThresholdSealPolicyFactories.create(name(), ThresholdSealPolicy.Measure.BYTES, properties);
    }
  }

  /** {@code "age"}: seal once the batch's first record is {@code limit} milliseconds old. */
  @AutoService(SealPolicyFactory.class)
  public static final class Age implements SealPolicyFactory {
    @Override
    public String name() {
      return "age";
    }

    @Override
    public SealPolicy create(Map<String, String> properties) {
      return ThresholdSealPolicyFactories.create(
          name(), ThresholdSealPolicy.Measure.AGE_MILLIS, properties);
    }
  }
}
