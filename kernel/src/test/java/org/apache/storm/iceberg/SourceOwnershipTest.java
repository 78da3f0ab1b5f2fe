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

import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.kernel.task.SourceOwnership;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.kafka.spout.KafkaSpout;
import org.apache.storm.kafka.spout.KafkaSpoutConfig;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BoltDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A multi-task IcebergBolt with source positions checks at prepare that each Kafka partition reaches
 * one of its tasks, on the real topology a KafkaSpout feeds: a grouping that spreads a partition
 * over tasks fails with a message naming the grouping to use.
 */
class SourceOwnershipTest {
  @TempDir Path dir;

  IcebergOptions options(boolean positions) {
    IcebergOptions.Builder builder = new IcebergOptions.Builder().withCatalogName("test")
        .withCatalogProperties(TestCatalogs.hadoop(dir)).withTable("db.events");
    if (positions) {
      builder.withSourcePositions("kafka", Map.of("bootstrap.servers", "127.0.0.1:9092"));
    }
    return builder.build();
  }

  /** The context of the sink's first task in a topology where a KafkaSpout feeds {@code sinkTasks} sink tasks. */
  static TopologyContext sinkContext(IcebergOptions options, int sinkTasks, Consumer<BoltDeclarer> grouping) {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("kafka", new KafkaSpout<>(KafkaSpoutConfig.builder("127.0.0.1:9092", "events").build()), 1);
    grouping.accept(builder.setBolt("iceberg", new IcebergBolt(options), sinkTasks));
    StormTopology topology = builder.createTopology();
    Map<Integer, String> taskToComponent = new HashMap<>();
    taskToComponent.put(1, "kafka");
    List<Integer> sinkTaskIds = new java.util.ArrayList<>();
    for (int task = 2; task < 2 + sinkTasks; task++) {
      taskToComponent.put(task, "iceberg");
      sinkTaskIds.add(task);
    }
    Map<String, List<Integer>> componentTasks = Map.of("kafka", List.of(1), "iceberg", sinkTaskIds);
    Map<String, Map<String, Fields>> streams = Map.of("kafka", Map.of("default",
        new Fields("topic", "partition", "offset", "key", "value")), "iceberg", Map.of());
    return new TopologyContext(topology, new HashMap<>(), taskToComponent, componentTasks, streams, new HashMap<>(),
        "kafka-to-iceberg-1", null, null, 2, 6700, sinkTaskIds, new HashMap<>(), new HashMap<>(), new HashMap<>(),
        new HashMap<>(), new AtomicBoolean(), new StormMetricRegistry());
  }

  @Test
  void aShuffleGroupingIntoSeveralTasksWithSourcePositionsFailsAtPrepareNamingTheFieldsGrouping() {
    IcebergOptions options = options(true);
    TopologyContext context = sinkContext(options, 2, bolt -> bolt.shuffleGrouping("kafka"));
    OutputCollector collector = new RecordingCollector().collector();
    assertThatThrownBy(() -> new IcebergBolt(options).prepare(new HashMap<>(), context, collector))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Component 'iceberg' writes db.events with source positions, so each source partition must reach one"
            + " of its tasks, but stream 'default' of 'kafka' reaches it by shuffle grouping: use"
            + " fieldsGrouping(\"kafka\", new Fields(\"topic\", \"partition\"))");
  }

  @Test
  void aRoutingSinkWithSourcePositionsNeedsEachPartitionOnOneTaskToo() {
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test")
        .withCatalogProperties(TestCatalogs.hadoop(dir)).withTableRouter("field", Map.of("template", "db.events_{key}"))
        .withSourcePositions("kafka", Map.of("bootstrap.servers", "127.0.0.1:9092")).build();
    OutputCollector collector = new RecordingCollector().collector();
    // Grouped by the routing field, one partition's records reach several tasks: a replay could reach another.
    TopologyContext byRoute = sinkContext(options, 2, bolt -> bolt.fieldsGrouping("kafka", new Fields("key")));
    assertThatThrownBy(() -> new IcebergBolt(options).prepare(new HashMap<>(), byRoute, collector))
        .hasMessageStartingWith("Component 'iceberg' writes the tables its router names with source positions, so each"
            + " source partition must reach one of its tasks, but stream 'default' of 'kafka' reaches it by fields grouping");
  }

  @Test
  void aFieldsGroupingOnAnotherFieldFails() {
    IcebergOptions options = options(true);
    TopologyContext context = sinkContext(options, 3, bolt -> bolt.fieldsGrouping("kafka", new Fields("value")));
    assertThatThrownBy(() -> SourceOwnership.require(settings(options), context, getClass().getClassLoader()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("reaches it by fields grouping: use fieldsGrouping(\"kafka\", new Fields(\"topic\", \"partition\"))");
  }

  @Test
  void groupingsThatKeepEachPartitionOnOneTaskPass() {
    IcebergOptions options = options(true);
    for (Consumer<BoltDeclarer> grouping : List.<Consumer<BoltDeclarer>>of(
        bolt -> bolt.fieldsGrouping("kafka", new Fields("topic", "partition")),
        bolt -> bolt.fieldsGrouping("kafka", new Fields("partition")),
        bolt -> bolt.globalGrouping("kafka"))) {
      TopologyContext context = sinkContext(options, 3, grouping);
      assertThatCode(() -> SourceOwnership.require(settings(options), context, getClass().getClassLoader()))
          .doesNotThrowAnyException();
    }
  }

  @Test
  void aShuffleGroupingPassesIntoOneTaskOrWithoutSourcePositions() {
    IcebergOptions withPositions = options(true);
    TopologyContext oneTask = sinkContext(withPositions, 1, bolt -> bolt.shuffleGrouping("kafka"));
    assertThatCode(() -> SourceOwnership.require(settings(withPositions), oneTask, getClass().getClassLoader()))
        .doesNotThrowAnyException();
    IcebergOptions withoutPositions = options(false);
    TopologyContext twoTasks = sinkContext(withoutPositions, 2, bolt -> bolt.shuffleGrouping("kafka"));
    assertThatCode(() -> SourceOwnership.require(settings(withoutPositions), twoTasks, getClass().getClassLoader()))
        .doesNotThrowAnyException();
  }
  @Test
  void thePartitionGroupingIntoASinkWithSourcePositionsFailsAtPrepareNamingItAndTheFieldsGrouping() {
    // The grouping refuses options with source positions itself, so only options without them reach here.
    IcebergPartitionGrouping grouping = new IcebergPartitionGrouping(options(false));
    IcebergOptions options = options(true);
    TopologyContext context = sinkContext(options, 2, bolt -> bolt.customGrouping("kafka", grouping));
    assertThatThrownBy(() -> SourceOwnership.require(settings(options), context, getClass().getClassLoader()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Component 'iceberg' writes db.events with source positions, so each source partition must reach one"
            + " of its tasks, but stream 'default' of 'kafka' reaches it by custom grouping"
            + " org.apache.storm.iceberg.IcebergPartitionGrouping: use"
            + " fieldsGrouping(\"kafka\", new Fields(\"topic\", \"partition\"))");
  }
}
