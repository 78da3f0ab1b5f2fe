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

package org.apache.storm.iceberg.kernel.env;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

class BoltPathsTest {
  /** Passes nothing on; what matters here is only who subscribes to whom. */
  static final class Bolt extends BaseBasicBolt {
    @Override
    public void execute(Tuple input, BasicOutputCollector collector) {}

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {}
  }

  @Test
  void aSinkRightBehindItsSpoutIsOneBolt() {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout("unused", 1));
    builder.setBolt("sink", new Bolt()).shuffleGrouping("events");

    assertThat(BoltPaths.longest(builder.createTopology())).isEqualTo(1);
  }

  @Test
  void theLongestPathFromAnySpoutCounts() {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout("unused", 1));
    builder.setSpout("other", new ReplayingSpout("unused", 1));
    builder.setBolt("sink", new Bolt()).shuffleGrouping("events");
    builder.setBolt("parser", new Bolt()).shuffleGrouping("other");
    builder.setBolt("writer", new Bolt()).shuffleGrouping("parser");
    builder.setBolt("committer", new Bolt()).globalGrouping("writer").globalGrouping("parser");

    assertThat(BoltPaths.longest(builder.createTopology())).as("other, parser, writer, committer").isEqualTo(3);
  }

  @Test
  void aCycleIsWalkedOnce() {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout("unused", 1));
    builder.setBolt("a", new Bolt()).shuffleGrouping("events").shuffleGrouping("b");
    builder.setBolt("b", new Bolt()).shuffleGrouping("a");

    assertThat(BoltPaths.longest(builder.createTopology())).isEqualTo(2);
  }

  @Test
  void aTopologyWithoutBoltsHasNone() {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout("unused", 1));

    assertThat(BoltPaths.longest(builder.createTopology())).isZero();
  }
}
