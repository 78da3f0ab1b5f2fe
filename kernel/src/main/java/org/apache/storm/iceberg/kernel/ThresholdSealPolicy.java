package org.apache.storm.iceberg.kernel;

import java.util.function.ToLongFunction;
import org.apache.storm.iceberg.spi.BatchStats;
import org.apache.storm.iceberg.spi.SealPolicy;

/**
 * The built-in thresholds: seal once records, bytes written or batch age reach a limit. Each is a
 * plain {@link SealPolicy}, so the options combine them with any plug-in policy.
 */
public final class ThresholdSealPolicy implements SealPolicy {
  private static final long serialVersionUID = 1L;

  /** Which batch statistic a threshold watches. */
  public enum Measure {
    RECORDS("records", BatchStats::records),
    BYTES("bytes", BatchStats::bytes),
    AGE_MILLIS("age-ms", BatchStats::ageMillis);

    private final String label;
    private final ToLongFunction<BatchStats> reader;

    Measure(String label, ToLongFunction<BatchStats> reader) {
      this.label = label;
      this.reader = reader;
    }
  }

  private final Measure measure;
  private final long limit;

  public ThresholdSealPolicy(Measure measure, long limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException(measure.label + " threshold must be positive, got " + limit);
    }
    this.measure = measure;
    this.limit = limit;
  }

  public Measure measure() {
    return measure;
  }

  public long limit() {
    return limit;
  }

  @Override
  public boolean shouldSeal(BatchStats stats) {
    return measure.reader.applyAsLong(stats) >= limit;
  }

  @Override
  public String toString() {
    return measure.label + ">=" + limit;
  }
}
