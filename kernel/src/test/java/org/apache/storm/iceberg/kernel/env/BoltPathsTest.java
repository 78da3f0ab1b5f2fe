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

import java.util.Map;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.SpoutSpec;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

class BoltPathsTest {
  /** Passes nothing on; what matters here is only who subscribes to whom. */
  static final class Passing extends BaseBasicBolt {
    @Override
    public void execute(Tuple input, BasicOutputCollector collector) {}

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {}
  }

  @Test
  void aSinkRightBehindItsSpoutIsOneBolt() {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout("unused", 1));
    builder.setBolt("sink", new Passing()).shuffleGrouping("events");

    assertThat(BoltPaths.longest(builder.createTopology())).isEqualTo(1);
  }

  @Test
  void theLongestPathFromAnySpoutCounts() {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout("unused", 1));
    builder.setSpout("other", new ReplayingSpout("unused", 1));
    builder.setBolt("sink", new Passing()).shuffleGrouping("events");
    builder.setBolt("parser", new Passing()).shuffleGrouping("other");
    builder.setBolt("writer", new Passing()).shuffleGrouping("parser");
    builder.setBolt("committer", new Passing()).globalGrouping("writer").globalGrouping("parser");

    assertThat(BoltPaths.longest(builder.createTopology())).as("other, parser, writer, committer").isEqualTo(3);
  }

  @Test
  void aCycleIsWalkedOnce() {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout("unused", 1));
    builder.setBolt("a", new Passing()).shuffleGrouping("events").shuffleGrouping("b");
    builder.setBolt("b", new Passing()).shuffleGrouping("a");

    assertThat(BoltPaths.longest(builder.createTopology())).isEqualTo(2);
  }

  /** As the bench's prepared bolt and detached tasks build one: components named, nothing wired. */
  @Test
  void aHandBuiltTopologyWithoutInputsHasNoPath() {
    StormTopology topology = new StormTopology();
    topology.set_spouts(Map.of("events", new SpoutSpec()));
    topology.set_bolts(Map.of("iceberg", new Bolt()));

    assertThat(BoltPaths.longest(topology)).isZero();
    assertThat(BoltPaths.longest(new StormTopology())).isZero();
  }

  @Test
  void aTopologyWithoutBoltsHasNone() {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout("unused", 1));

    assertThat(BoltPaths.longest(builder.createTopology())).isZero();
  }
}
