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

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.storm.Config;
import org.apache.storm.flux.FluxBuilder;
import org.apache.storm.flux.model.ExecutionContext;
import org.apache.storm.flux.model.TopologyDef;
import org.apache.storm.flux.parser.FluxParser;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.maintenance.MaintenanceOptions;
import org.apache.storm.iceberg.spi.CommitEventFields;
import org.junit.jupiter.api.Test;

/**
 * README's Flux example of the maintenance bolt, as written, builds its topology through Flux
 * ({@code MaintenanceOptions.fromMap} and its {@code build()} included), with the maintenance bolt
 * fed the sink's commit events by a fields grouping on the table; and every key {@code fromMap}
 * knows is named in README's "Table maintenance" section.
 */
class ReadmeMaintenanceFluxTest {
  private static final Path README = Path.of("../README.md");

  static String maintenanceSection() throws Exception {
    String readme = Files.readString(README);
    int start = readme.indexOf("\n### Table maintenance\n");
    assertThat(start).as("README's Table maintenance section").isPositive();
    int end = readme.indexOf("\n### ", start + 1);
    return readme.substring(start, end);
  }

  @Test
  void theMaintenanceBoltsFluxExampleBuildsItsTopology() throws Exception {
    String section = maintenanceSection();
    Matcher yaml = Pattern.compile("\\*\\*In Flux\\*\\*.*?```yaml\\n(.*?)```", Pattern.DOTALL).matcher(section);
    assertThat(yaml.find()).as("the ```yaml block after **In Flux** in Table maintenance").isTrue();

    TopologyDef definition = FluxParser.parseInputStream(
        new ByteArrayInputStream(yaml.group(1).getBytes(StandardCharsets.UTF_8)), false, true, new Properties(), false);
    Config conf = FluxBuilder.buildConfig(definition);
    StormTopology topology = FluxBuilder.buildTopology(new ExecutionContext(definition, conf));

    Bolt maintenance = topology.get_bolts().get("maintenance");
    assertThat(maintenance).as("the maintenance bolt").isNotNull();
    Map<GlobalStreamId, Grouping> inputs = maintenance.get_common().get_inputs();
    assertThat(inputs).containsOnlyKeys(new GlobalStreamId("iceberg", "iceberg-commits"));
    assertThat(inputs.get(new GlobalStreamId("iceberg", "iceberg-commits")).get_fields()).containsExactly(CommitEventFields.TABLE);
  }

  @Test
  void everyFromMapKeyIsNamedInTheMaintenanceSection() throws Exception {
    String section = maintenanceSection();
    TreeSet<String> missing = new TreeSet<>();
    for (String key : MaintenanceOptions.mapKeys()) {
      if (!section.contains("`" + key + "`")) {
        missing.add(key);
      }
    }
    assertThat(missing).as("fromMap keys README's Table maintenance section does not name").isEmpty();
    assertThat(MaintenanceOptions.mapKeys()).contains("catalog", "catalog-name", "branch");
  }
}
