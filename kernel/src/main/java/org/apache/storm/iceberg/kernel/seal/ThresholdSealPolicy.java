/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *   http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing,
 * software distributed under the License is distributed on an
 * "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
 * KIND, either express or implied.  See the License for the
 * specific language governing permissions and limitations
 * under the License.
 */

package org.apache.storm.iceberg.kernel.seal;

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
    RECORDS("records"),
    BYTES("bytes"),
    AGE_MILLIS("age-ms");

    private final String label;

    Measure(String label) {
      this.label = label;
    }

    long of(BatchStats stats) {
      return switch (this) {
        case RECORDS -> stats.records();
        case BYTES -> stats.bytes();
        case AGE_MILLIS -> stats.ageMillis();
      };
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

  /** The smallest limit among {@code policies} on {@code measure}, {@link Long#MAX_VALUE} for none. */
  public static long smallestLimit(java.util.List<SealPolicy> policies, Measure measure) {
    long smallest = Long.MAX_VALUE;
    for (SealPolicy policy : policies) {
      if (policy instanceof ThresholdSealPolicy threshold && threshold.measure == measure) {
        smallest = Math.min(smallest, threshold.limit);
      }
    }
    return smallest;
  }

  @Override
  public boolean shouldSeal(BatchStats stats) {
    return measure.of(stats) >= limit;
  }

  @Override
  public String toString() {
    return measure.label + ">=" + limit;
  }
}
