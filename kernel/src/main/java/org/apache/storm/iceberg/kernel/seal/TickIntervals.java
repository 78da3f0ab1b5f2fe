package org.apache.storm.iceberg.kernel.seal;

import org.apache.storm.iceberg.kernel.options.SinkSettings;

/**
 * The tick interval each bolt declares, so that a quiet stream still seals and commits: the one set
 * with {@code withTickIntervalSecs}, or else one derived from the thresholds that need ticks.
 */
public final class TickIntervals {
  private TickIntervals() {}

  /**
   * For {@code IcebergBolt} and {@code IcebergWriterBolt}: the interval set, or else the one {@link
   * TimedSealPolicies#defaultTickSecs} derives from the time thresholds (0: no ticks). Named seal
   * policies are resolved on the thread's context class loader.
   */
  public static int forWriter(SinkSettings settings) {
    int set = settings.thresholds().tickIntervalSecs();
    return set > 0
        ? set
        : TimedSealPolicies.of(settings, Thread.currentThread().getContextClassLoader()).defaultTickSecs();
  }

  /**
   * For {@code IcebergCommitterBolt}: the interval set, or else half the group commit interval (at
   * least one second), so a lull never leaves descriptors uncommitted.
   */
  public static int forCommitter(SinkSettings settings) {
    int set = settings.thresholds().tickIntervalSecs();
    return set > 0 ? set : (int) Math.max(1, settings.splitSink().groupCommitIntervalMillis() / 2000);
  }
}
