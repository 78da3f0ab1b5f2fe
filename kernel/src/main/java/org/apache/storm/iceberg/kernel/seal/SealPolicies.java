package org.apache.storm.iceberg.kernel.seal;

import java.util.ArrayList;
import java.util.List;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.spi.SealPolicy;

/** The seal policies of a sink: its commit-interval thresholds, then the policies chosen by the user. */
public final class SealPolicies {
  private SealPolicies() {}

  /** Every seal policy of the sink, named ones resolved on {@code loader}. The first one crossed seals. */
  public static List<SealPolicy> of(SinkSettings settings, ClassLoader loader) {
    List<SealPolicy> policies = thresholds(settings.thresholds());
    settings.providers().sealPolicies().forEach(choice -> policies.add(choice.resolve(loader)));
    return policies;
  }

  /** The commit-interval thresholds (records, bytes, age) as seal policies. */
  static List<SealPolicy> thresholds(SinkSettings.Thresholds thresholds) {
    List<SealPolicy> policies = new ArrayList<>();
    if (thresholds.records() > 0) {
      policies.add(new ThresholdSealPolicy(ThresholdSealPolicy.Measure.RECORDS, thresholds.records()));
    }
    if (thresholds.bytes() > 0) {
      policies.add(new ThresholdSealPolicy(ThresholdSealPolicy.Measure.BYTES, thresholds.bytes()));
    }
    if (thresholds.millis() > 0) {
      policies.add(new ThresholdSealPolicy(ThresholdSealPolicy.Measure.AGE_MILLIS, thresholds.millis()));
    }
    return policies;
  }
}
