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

import org.apache.storm.Config;
import org.apache.storm.flux.FluxBuilder;
import org.apache.storm.flux.model.ExecutionContext;
import org.apache.storm.flux.model.TopologyDef;
import org.apache.storm.flux.parser.FluxParser;
import org.apache.storm.generated.StormTopology;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * README's Flux commands, as written: {@code --resource /flux/<example>.yaml --filter
 * /flux/example.properties} reads both from the topology jar's classpath (Flux reads the filter as a
 * resource too when {@code --resource} is given). Each YAML must parse with the shipped properties,
 * leave no {@code ${...}} unfilled, and build its topology, {@code IcebergOptions.build()} included.
 */
class FluxShippedPropertiesTest {
  private static final String PROPERTIES = "/flux/example.properties";

  @ParameterizedTest
  @ValueSource(strings = {
    "/flux/iceberg-bolt.yaml", "/flux/iceberg-partitioned-bolt.yaml", "/flux/iceberg-split-sink.yaml",
    "/flux/kafka-to-iceberg.yaml"})
  void theYamlBuildsWithTheShippedPropertiesAsFluxReadsThem(String resource) throws Exception {
    TopologyDef definition =
        FluxParser.parseResource(resource, false, true, FluxParser.parseProperties(PROPERTIES, true), false);

    assertThat(filledArguments(definition)).as("%s after filtering with %s", resource, PROPERTIES).doesNotContain("${");
    Config conf = FluxBuilder.buildConfig(definition);
    StormTopology topology = FluxBuilder.buildTopology(new ExecutionContext(definition, conf));
    assertThat(topology.get_bolts()).as("bolts of %s", resource).isNotEmpty();
    assertThat(topology.get_spouts()).as("spouts of %s", resource).hasSize(1);
  }

  /** Every argument Flux filled in (components, their factory and config-method arguments, spouts), where an unset property stays {@code ${name}}. */
  private static String filledArguments(TopologyDef definition) {
    StringBuilder arguments = new StringBuilder();
    definition.getComponents().forEach(component -> {
      arguments.append(component.getConstructorArgs()).append(component.getFactoryArgs());
      if (component.getConfigMethods() != null) {
        component.getConfigMethods().forEach(method -> arguments.append(method.getArgs()));
      }
    });
    definition.getSpouts().forEach(spout -> arguments.append(spout.getConstructorArgs()));
    return arguments.toString();
  }
}
