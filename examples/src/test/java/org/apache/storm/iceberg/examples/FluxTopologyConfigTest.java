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

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.storm.Config;
import org.apache.storm.flux.FluxBuilder;
import org.apache.storm.flux.model.ExecutionContext;
import org.apache.storm.flux.model.TopologyDef;
import org.apache.storm.flux.parser.FluxParser;
import org.apache.storm.iceberg.IcebergOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Flux's {@code config:} section, and {@code storm jar -c} over it, reach IcebergOptions when Flux builds the topology. */
class FluxTopologyConfigTest {
  @AfterEach
  void clearCommandLine() {
    System.clearProperty("storm.options");
  }

  @Test
  void theConfigSectionOverridesFromMapsArgument() throws Exception {
    IcebergOptions options = optionsBuiltByFlux();
    assertThat(options.table()).isEqualTo("examples.from_config");
    assertThat(options.commitIntervalRecords()).isEqualTo(5000);
    assertThat(options.commitIntervalMillis()).as("only in fromMap's argument").isEqualTo(2000);
  }

  @Test
  void stormJarDashCOverridesTheConfigSection() throws Exception {
    // What `storm jar app.jar org.apache.storm.flux.Flux --remote ... -c iceberg.table=examples.from_command_line` sets.
    System.setProperty("storm.options", URLEncoder.encode("iceberg.table=examples.from_command_line", StandardCharsets.UTF_8));
    assertThat(optionsBuiltByFlux().table()).isEqualTo("examples.from_command_line");
  }

  private static IcebergOptions optionsBuiltByFlux() throws Exception {
    TopologyDef definition = FluxParser.parseResource("/flux/topology-config.yaml", false, true, null, false);
    Config conf = FluxBuilder.buildConfig(definition);
    ExecutionContext context = new ExecutionContext(definition, conf);
    FluxBuilder.buildTopology(context);
    return (IcebergOptions) context.getComponent("icebergOptions");
  }
}
