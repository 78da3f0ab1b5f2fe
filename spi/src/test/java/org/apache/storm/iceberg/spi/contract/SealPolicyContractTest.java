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

package org.apache.storm.iceberg.spi.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.storm.iceberg.spi.BatchStats;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.iceberg.spi.SealPolicyFactory;
import org.junit.jupiter.api.Test;

/**
 * What every seal policy must do ({@link SealPolicy}'s contract): seal at its threshold, and stay
 * sealed as the batch grows and ages, so that the sink may show it time and counts late. Each
 * provider's test names the provider, its properties, and a batch on each side of its threshold.
 */
public abstract class SealPolicyContractTest extends ProviderContractTest<SealPolicy, SealPolicyFactory> {
  @Override
  protected final Class<SealPolicyFactory> kind() {
    return SealPolicyFactory.class;
  }

  /** A batch the policy created with {@link #properties()} does not seal. */
  protected abstract BatchStats belowThreshold();

  /** A batch it seals. */
  protected abstract BatchStats atThreshold();

  /** The ways a batch grows or ages between two looks at it. */
  private static final List<UnaryOperator<BatchStats>> GROWTHS = List.of(
      s -> new BatchStats(s.records() + 1, s.bytes(), s.ageMillis(), s.openFiles(), s.partitions(), s.nowMillis()),
      s -> new BatchStats(s.records() + 1_000_000, s.bytes() + 1_000_000_000L, s.ageMillis(), s.openFiles(), s.partitions(), s.nowMillis()),
      s -> new BatchStats(s.records(), s.bytes() + 1, s.ageMillis(), s.openFiles(), s.partitions(), s.nowMillis()),
      s -> new BatchStats(s.records(), s.bytes(), s.ageMillis(), s.openFiles() + 1, s.partitions(), s.nowMillis()),
      s -> new BatchStats(s.records(), s.bytes(), s.ageMillis(), s.openFiles(), s.partitions() + 1, s.nowMillis()),
      // Time passes: the batch ages as the clock moves on.
      s -> new BatchStats(s.records(), s.bytes(), s.ageMillis() + 1, s.openFiles(), s.partitions(), s.nowMillis() + 1),
      s -> new BatchStats(s.records(), s.bytes(), s.ageMillis() + 3_600_000, s.openFiles(), s.partitions(), s.nowMillis() + 3_600_000),
      // A batch opened earlier, seen at the same moment.
      s -> new BatchStats(s.records(), s.bytes(), s.ageMillis() + 59_000, s.openFiles(), s.partitions(), s.nowMillis()),
      s -> new BatchStats(s.records() * 2 + 1, s.bytes() * 2 + 1, s.ageMillis() * 2 + 1, s.openFiles() * 2 + 1,
          s.partitions() * 2 + 1, s.nowMillis() + s.ageMillis() + 1));

  @Test
  public void sealsAtItsThresholdAndNotBelowIt() {
    SealPolicy policy = create();
    assertThat(policy.shouldSeal(belowThreshold())).as("below the threshold: %s", belowThreshold()).isFalse();
    assertThat(policy.shouldSeal(atThreshold())).as("at the threshold: %s", atThreshold()).isTrue();
  }

  @Test
  public void onceCrossedItStaysCrossedAsTheBatchGrowsAndAges() {
    SealPolicy policy = create();
    for (UnaryOperator<BatchStats> first : GROWTHS) {
      BatchStats grown = first.apply(atThreshold());
      assertThat(policy.shouldSeal(grown)).as("grown to %s", grown).isTrue();
      for (UnaryOperator<BatchStats> second : GROWTHS) {
        BatchStats twice = second.apply(grown);
        assertThat(policy.shouldSeal(twice)).as("grown to %s", twice).isTrue();
      }
    }
  }

  @Test
  public void itAnswersFromTheStatsAloneAndTheSameAfterTravellingInATopology() {
    SealPolicy policy = create();
    SealPolicy travelled = serializedAndBack(policy);
    for (BatchStats stats : List.of(belowThreshold(), atThreshold(), belowThreshold(), atThreshold())) {
      boolean answer = policy.shouldSeal(stats);
      assertThat(policy.shouldSeal(stats)).as("asked again: %s", stats).isEqualTo(answer);
      assertThat(create().shouldSeal(stats)).as("a second instance: %s", stats).isEqualTo(answer);
      assertThat(travelled.shouldSeal(stats)).as("after serialization: %s", stats).isEqualTo(answer);
    }
  }
}
