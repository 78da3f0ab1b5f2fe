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

package org.apache.storm.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.iceberg.kernel.seal.ThresholdSealPolicy;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.junit.jupiter.api.Test;

/** The tick interval each writing bolt declares; IcebergBolt always ticks every second. */
class IcebergBoltTest {
  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder().withCatalogProperties(Map.of("type", "hadoop", "warehouse", "/tmp/w")).withTable("db.t");
  }

  @Test
  void declaresItsTickIntervalWhenSet() {
    assertThat(new IcebergWriterBolt(options().withTickIntervalSecs(7).build()).getComponentConfiguration())
        .containsEntry(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 7);
  }

  @Test
  void declaresHalfAnAgePolicysLimitAsItsTickInterval() {
    assertThat(new IcebergWriterBolt(options().withSealPolicy("age", Map.of("limit", "10000")).build()).getComponentConfiguration())
        .containsEntry(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 5);
    assertThat(new IcebergWriterBolt(options().withSealPolicy(new ThresholdSealPolicy(ThresholdSealPolicy.Measure.AGE_MILLIS, 8_000))
            .build()).getComponentConfiguration())
        .containsEntry(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 4);
  }

  @Test
  void declaresHalfAWallClockPolicysSpacingAsItsTickInterval() {
    assertThat(new IcebergWriterBolt(options().withSealPolicy("wall-clock", Map.of("every-ms", "20000")).build())
            .getComponentConfiguration())
        .containsEntry(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 10);
  }

  @Test
  void declaresTheShortestOfSeveralTimeThresholds() {
    assertThat(new IcebergWriterBolt(options().withCommitIntervalMillis(20_000)
            .withSealPolicy("wall-clock", Map.of("every-ms", "6000")).build()).getComponentConfiguration())
        .containsEntry(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 3);
  }

  @Test
  void declaresATickEverySecondForAPlugInPolicyThatReadsTime() {
    SealPolicy everyFiveSeconds = (SealPolicy & java.io.Serializable) stats -> stats.nowMillis() / 5_000 > 0;
    assertThat(new IcebergWriterBolt(options().withSealPolicy(everyFiveSeconds).build()).getComponentConfiguration())
        .containsEntry(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
  }

  @Test
  void declaresNoTicksForPoliciesThatReadNoTime() {
    assertThat(new IcebergWriterBolt(options().withSealPolicy("open-files", Map.of("max-partitions", "8"))
            .withSealPolicy("bytes", Map.of("limit", "1000000")).build()).getComponentConfiguration())
        .isNull();
  }

  @Test
  void declaresNoTicksWithoutAnAgeThresholdOrTickInterval() {
    assertThat(new IcebergWriterBolt(options().build()).getComponentConfiguration()).isNull();
  }

  @Test
  void icebergBoltTicksEverySecondSoACommitThatEndedInALullIsAcked() {
    assertThat(new IcebergBolt(options().build()).getComponentConfiguration())
        .containsEntry(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
    assertThat(new IcebergBolt(options().withTickIntervalSecs(7).build()).getComponentConfiguration())
        .containsEntry(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
  }
}
