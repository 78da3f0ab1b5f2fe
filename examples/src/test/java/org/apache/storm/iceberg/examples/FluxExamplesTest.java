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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.flux.FluxBuilder;
import org.apache.storm.flux.model.ExecutionContext;
import org.apache.storm.flux.model.TopologyDef;
import org.apache.storm.flux.parser.FluxParser;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each example's Flux YAML, loaded with flux-core, run in LocalCluster until every event is committed. */
@ExtendWith(SharedLocalCluster.class)
class FluxExamplesTest {
  static final long EVENTS = 2_000;

  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({
    "/flux/iceberg-bolt.yaml, examples.flux_events",
    "/flux/iceberg-partitioned-bolt.yaml, examples.flux_events_by_region_day",
    "/flux/iceberg-split-sink.yaml, examples.flux_events_split"
  })
  void theYamlBuildsAndRunsTheExample(String resource, String table, LocalCluster cluster) throws Exception {
    if (resource.equals("/flux/iceberg-bolt.yaml")) {
      Assumptions.assumeTrue(Boolean.getBoolean("tests.long"), "long tier only (-Plong): the quick tier runs this example from Java");
    }
    Path warehouse = dir.resolve("warehouse");
    String runId = UUID.randomUUID().toString();
    Path properties = dir.resolve("example.properties");
    Files.writeString(properties, "warehouse=" + warehouse.toUri() + "\nrun_id=" + runId + "\nevents=" + EVENTS + "\n");

    TopologyDef definition =
        FluxParser.parseResource(resource, false, true, FluxParser.parseProperties(properties.toString(), false), false);
    Config conf = FluxBuilder.buildConfig(definition);
    ExecutionContext context = new ExecutionContext(definition, conf);
    cluster.submitTopology(definition.getName(), conf, FluxBuilder.buildTopology(context));
    try {
      Deadline.await(Duration.ofMinutes(2), () -> EventSpout.acked(runId) >= EVENTS,
          () -> "all " + EVENTS + " events acked; got " + EventSpout.acked(runId));
    } finally {
      KillOptions kill = new KillOptions();
      kill.set_wait_secs(0);
      cluster.killTopologyWithOpts(definition.getName(), kill);
    }

    var loaded =
        CatalogUtil.buildIcebergCatalog("local", LocalExampleRun.catalogProperties(warehouse), new org.apache.hadoop.conf.Configuration())
            .loadTable(TableIdentifier.parse(table));
    assertThat(TableSummary.of(loaded).rows()).isEqualTo(EVENTS);
  }
}
