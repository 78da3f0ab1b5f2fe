package org.apache.storm.iceberg.examples.plugin;

import org.apache.storm.iceberg.spi.BatchStats;
import org.apache.storm.iceberg.spi.SealPolicy;

/** Seals every {@code n} records exactly, so each snapshot adds a multiple of n rows you can see. */
public final class EveryNRecordsSealPolicy implements SealPolicy {
  private static final long serialVersionUID = 1L;

  private final long n;

  public EveryNRecordsSealPolicy(long n) {
    if (n <= 0) {
      throw new IllegalArgumentException("seal policy 'every-n' needs n positive, got " + n);
    }
    this.n = n;
  }

  @Override
  public boolean shouldSeal(BatchStats stats) {
    return stats.records() >= n;
  }
}
