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

import com.google.auto.service.AutoService;
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.spi.BatchStats;
import org.apache.storm.iceberg.spi.ProviderProperties;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.iceberg.spi.SealPolicyFactory;

/**
 * Seals at wall-clock boundaries: every {@code everyMillis} of epoch time (60000 seals on each full
 * minute), so snapshots line up with time. A batch seals on the first tick after a boundary that fell
 * since its first record, or within a few tuples of it (see {@link SealPolicy}); give the bolt a tick
 * interval well below {@code everyMillis} so a quiet stream still seals on time.
 */
public final class WallClockSealPolicy implements SealPolicy {
  private static final long serialVersionUID = 1L;

  private final long everyMillis;

  public WallClockSealPolicy(long everyMillis) {
    if (everyMillis <= 0) {
      throw new IllegalArgumentException("seal policy 'wall-clock' needs every-ms positive, got " + everyMillis);
    }
    this.everyMillis = everyMillis;
  }

  /** The boundaries' spacing: the longest a batch stays open under this policy. */
  public long everyMillis() {
    return everyMillis;
  }

  @Override
  public boolean shouldSeal(BatchStats stats) {
    long openedAt = stats.nowMillis() - stats.ageMillis();
    return Math.floorDiv(stats.nowMillis(), everyMillis) != Math.floorDiv(openedAt, everyMillis);
  }

  @Override
  public String toString() {
    return "wall-clock{every-ms=" + everyMillis + "}";
  }

  /** {@code "wall-clock"}: property {@code every-ms}. */
  @AutoService(SealPolicyFactory.class)
  public static final class Factory implements SealPolicyFactory {
    @Override
    public String name() {
      return "wall-clock";
    }

    @Override
    public SealPolicy create(Map<String, String> properties) {
      ProviderProperties.check("seal policy 'wall-clock'", properties, Set.of("every-ms"), Set.of());
      return new WallClockSealPolicy(PolicyProperties.wholeNumber("wall-clock", properties, "every-ms"));
    }
  }
}
