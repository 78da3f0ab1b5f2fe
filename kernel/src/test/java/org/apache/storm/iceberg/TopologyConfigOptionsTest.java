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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.iceberg.kernel.options.ProviderChoice;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** IcebergOptions read from the topology configuration and from {@code storm jar -c}, at build(). */
class TopologyConfigOptionsTest {
  private static final Map<String, String> HADOOP = Map.of("type", "hadoop", "warehouse", "file:/tmp/w");

  @AfterEach
  void clearCommandLine() {
    System.clearProperty("storm.options");
  }

  /** Sets {@code storm.options} as {@code storm jar -c K=V -c ...} does: each option URL-encoded, joined by commas. */
  static void stormJarOptions(String... options) {
    System.setProperty("storm.options",
        Arrays.stream(options).map(o -> URLEncoder.encode(o, StandardCharsets.UTF_8)).collect(Collectors.joining(",")));
  }

  static IcebergOptions.Builder inCode() {
    return new IcebergOptions.Builder().withCatalogProperties(HADOOP).withTable("db.in_code").withCommitIntervalRecords(1000);
  }

  @Test
  void stormJarDashCOptionsReachBuild() {
    stormJarOptions("iceberg.table=db.events", "iceberg.commit-interval-records=5000",
        "iceberg.catalog={\"type\":\"jdbc\",\"uri\":\"jdbc:sqlite:/tmp/c.db\"}",
        "iceberg.seal-policies=[{\"name\":\"open-files\",\"max-partitions\":64}]");

    IcebergOptions options = inCode().overriddenByTopologyConfig(new Config()).build();

    assertThat(options.table()).isEqualTo("db.events");
    assertThat(options.commitIntervalRecords()).isEqualTo(5000);
    assertThat(options.catalogProperties()).isEqualTo(Map.of("type", "jdbc", "uri", "jdbc:sqlite:/tmp/c.db"));
    assertThat(options.settings().providers().sealPolicies()).extracting(ProviderChoice::name).containsExactly("open-files");
  }

  @Test
  void commandLineOverTopologyConfigOverBuilderCallsWhateverTheirOrder() {
    Config conf = new Config();
    conf.put("iceberg.table", "db.from_config");
    conf.put("iceberg.commit-interval-millis", 2000);
    stormJarOptions("iceberg.commit-interval-millis=3000");

    IcebergOptions options = new IcebergOptions.Builder().overriddenByTopologyConfig(conf)
        .withCatalogProperties(HADOOP).withTable("db.in_code").withCommitIntervalMillis(1000).withCommitIntervalRecords(7)
        .build();

    assertThat(options.table()).isEqualTo("db.from_config");
    assertThat(options.commitIntervalMillis()).isEqualTo(3000);
    assertThat(options.commitIntervalRecords()).as("not in the topology configuration: the builder's").isEqualTo(7);
  }

  @Test
  void anEntryKeyChangesOneEntryOfAMapAndKeepsTheOthers() {
    stormJarOptions("iceberg.catalog.uri=jdbc:sqlite:/tmp/other.db", "iceberg.write-properties.write.parquet.compression-codec=zstd");
    Map<String, String> catalog = Map.of("type", "jdbc", "uri", "jdbc:sqlite:/tmp/c.db", "jdbc.user", "storm");

    IcebergOptions options =
        new IcebergOptions.Builder().withCatalogProperties(catalog).withTable("db.events").overriddenByTopologyConfig(Map.of()).build();

    assertThat(options.catalogProperties()).isEqualTo(Map.of("type", "jdbc", "uri", "jdbc:sqlite:/tmp/other.db", "jdbc.user", "storm"));
    assertThat(options.writeProperties()).isEqualTo(Map.of("write.parquet.compression-codec", "zstd"));

    Config conf = new Config();
    conf.put("iceberg.catalog", Map.of("type", "hadoop", "warehouse", "file:/tmp/w"));
    assertThat(new IcebergOptions.Builder().withCatalogProperties(catalog).withTable("db.events").overriddenByTopologyConfig(conf)
        .build().catalogProperties())
        .as("entries go over the map the configuration gives whole")
        .isEqualTo(Map.of("type", "hadoop", "warehouse", "file:/tmp/w", "uri", "jdbc:sqlite:/tmp/other.db"));
  }

  @Test
  void withoutTheCallTheTopologyConfigIsNotRead() {
    stormJarOptions("iceberg.table=db.events");
    assertThat(inCode().build().table()).isEqualTo("db.in_code");
  }

  @Test
  void sealPoliciesFromTheConfigReplaceTheBuildersAndBuildingTwiceIsStable() {
    Config conf = new Config();
    conf.put("iceberg.seal-policies", List.of(Map.of("name", "open-files", "max-partitions", 8)));
    IcebergOptions.Builder builder = inCode().withSealPolicy("age", Map.of("max-age-millis", "1000")).overriddenByTopologyConfig(conf);

    assertThat(builder.build().settings().providers().sealPolicies()).extracting(ProviderChoice::name).containsExactly("open-files");
    assertThat(builder.build().settings().providers().sealPolicies()).extracting(ProviderChoice::name).containsExactly("open-files");
  }

  @Test
  void fluxFromMapTakesRequiredKeysFromTheTopologyConfig() {
    Map<String, Object> flux = new LinkedHashMap<>();
    flux.put("catalog", HADOOP);
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("topology.workers", 2);
    config.put("iceberg.table", "db.events");

    assertThat(IcebergOptions.fromMap(flux, config).table()).isEqualTo("db.events");
    assertThatThrownBy(() -> IcebergOptions.fromMap(flux, Map.of("topology.workers", 2))).hasMessage("no table: set withTable(\"namespace.table\"), or withTableRouter to take each tuple's table from it");
  }

  @Test
  void anUnknownKeyIsRefusedWithTheKeyMeant() {
    stormJarOptions("iceberg.commit-intervall-records=5000");
    assertThatThrownBy(() -> inCode().overriddenByTopologyConfig(Map.of()).build())
        .hasMessageStartingWith("unknown topology configuration key 'iceberg.commit-intervall-records':"
            + " did you mean 'iceberg.commit-interval-records'?; fix or remove it where the topology configuration is set"
            + " (storm jar -c, Flux's config:, the topology's Config). The iceberg.* keys are IcebergOptions.fromMap's keys: [allowed-namespaces, auto-create,");

    System.clearProperty("storm.options");
    assertThatThrownBy(() -> inCode().overriddenByTopologyConfig(Map.of("iceberg.table.name", "events")).build())
        .hasMessageStartingWith("unknown topology configuration key 'iceberg.table.name': 'iceberg.table' takes one value,"
            + " not entries; only catalog, hadoop-configuration, write-properties and snapshot-properties take entries"
            + " such as 'iceberg.catalog.uri'; fix or remove it");
  }

  @Test
  void aBadValueNamesItsKeyAndABuildFailureTheKeysTheConfigSet() {
    assertThatThrownBy(() -> inCode().overriddenByTopologyConfig(Map.of("iceberg.commit-interval-records", "lots")).build())
        .hasMessageStartingWith("'iceberg.commit-interval-records' must be a whole number, got 'lots'");

    stormJarOptions("iceberg.wal-namespace=a/b");
    assertThatThrownBy(() -> inCode().overriddenByTopologyConfig(Map.of()).build())
        .hasMessageContaining("withWalNamespace")
        .hasMessageEndingWith("(the topology configuration set [iceberg.wal-namespace];"
            + " README.md's options table pairs each builder method named here with its key)");
  }

  @Test
  void stormsOwnConfigurationNeverUsesTheIcebergPrefix() throws IllegalAccessException {
    for (Field field : Config.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        assertThat((String) field.get(null)).as(field.getName()).doesNotStartWith("iceberg.");
      }
    }
    assertThat(Utils.readDefaultConfig().keySet()).noneMatch(key -> key.startsWith("iceberg."));
  }
}
