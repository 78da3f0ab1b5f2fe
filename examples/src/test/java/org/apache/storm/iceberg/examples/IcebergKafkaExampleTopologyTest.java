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

package org.apache.storm.iceberg.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Paths;
import java.util.List;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.StormTopology;
import org.junit.jupiter.api.Test;

/**
 * The Kafka example's command line and topology, without a broker (the real-cluster module runs it
 * against one, killing its workers).
 */
class IcebergKafkaExampleTopologyTest {
  @Test
  void theCommandLineNamesTheBrokersAndTheTopicAndSourcePositionsAreOnUnlessAtLeastOnce() {
    IcebergKafkaExampleTopology.CommandLine line = IcebergKafkaExampleTopology.CommandLine.parse(new String[] {
        "cluster", "/shared/wh", "--bootstrap-servers", "broker1:9092", "--topic", "events"});
    assertThat(line.bootstrapServers()).isEqualTo("broker1:9092");
    assertThat(line.topic()).isEqualTo("events");
    assertThat(line.positions()).isTrue();
    assertThat(line.shared().catalogProperties()).isEqualTo(LocalExampleRun.catalogProperties(Paths.get("/shared/wh")));

    assertThat(IcebergKafkaExampleTopology.CommandLine.parse(new String[] {
        "cluster", "--at-least-once", "--topic", "events", "--bootstrap-servers", "b:9092"}).positions()).isFalse();
    assertThatThrownBy(() -> IcebergKafkaExampleTopology.CommandLine.parse(new String[] {"cluster", "--topic", "events"}))
        .hasMessage("iceberg-kafka-example needs --bootstrap-servers <value>");
    assertThatThrownBy(() -> IcebergKafkaExampleTopology.CommandLine.parse(new String[] {
        "local", "--bootstrap-servers", "b:9092", "--topic", "events"}))
        .hasMessageContaining("runs on a cluster only");
  }

  @Test
  void eachKafkaPartitionReachesOneSinkTaskThatHasSourcePositions() {
    StormTopology topology = IcebergKafkaExampleTopology.topology("broker1:9092", "events",
        IcebergKafkaExampleTopology.options(LocalExampleRun.catalogProperties(Paths.get("/shared/wh")), "broker1:9092", true));

    Grouping grouping = topology.get_bolts().get(IcebergKafkaExampleTopology.SINK).get_common().get_inputs()
        .get(new GlobalStreamId(IcebergKafkaExampleTopology.SPOUT, "default"));
    assertThat(grouping.get_fields()).isEqualTo(List.of("topic", "partition"));
    assertThat(topology.get_bolts().get(IcebergKafkaExampleTopology.SINK).get_common().get_parallelism_hint()).isEqualTo(4);
    assertThat(IcebergKafkaExampleTopology.table(true)).isNotEqualTo(IcebergKafkaExampleTopology.table(false));
    assertThat(topology.get_bolts()).doesNotContainKey(IcebergKafkaExampleTopology.CHANGES_SINK);
  }

  @Test
  void changelogAddsASecondSinkGroupedByPartitionThatReadsEachRecordsOperationAndNeedsSourcePositions() {
    IcebergKafkaExampleTopology.CommandLine line = IcebergKafkaExampleTopology.CommandLine.parse(new String[] {
        "cluster", "/shared/wh", "--bootstrap-servers", "broker1:9092", "--topic", "events", "--changelog"});
    assertThat(line.changelog()).isTrue();
    assertThat(line.positions()).isTrue();
    assertThatThrownBy(() -> IcebergKafkaExampleTopology.CommandLine.parse(new String[] {
        "cluster", "--bootstrap-servers", "b:9092", "--topic", "events", "--changelog", "--at-least-once"}))
        .hasMessageContaining("--changelog needs source positions");

    var catalog = LocalExampleRun.catalogProperties(Paths.get("/shared/wh"));
    StormTopology topology = IcebergKafkaExampleTopology.topology("broker1:9092", "events",
        IcebergKafkaExampleTopology.options(catalog, "broker1:9092", true),
        IcebergKafkaExampleTopology.changelogOptions(catalog, "broker1:9092"));
    Grouping grouping = topology.get_bolts().get(IcebergKafkaExampleTopology.CHANGES_SINK).get_common().get_inputs()
        .get(new GlobalStreamId(IcebergKafkaExampleTopology.SPOUT, "default"));
    assertThat(grouping.get_fields()).isEqualTo(List.of("topic", "partition"));
    assertThat(topology.get_spouts().get(IcebergKafkaExampleTopology.SPOUT).get_common().get_streams().get("default")
        .get_output_fields()).containsExactly("topic", "partition", "offset", "key", "value", "op");
    assertThat(List.of(0L, 1L, 6L, 7L, 14L, 15L).stream().map(IcebergKafkaExampleTopology::operation))
        .containsExactly("d", "u", "u", "d", "d", "u");
  }
}
