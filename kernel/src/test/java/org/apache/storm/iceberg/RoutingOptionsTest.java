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

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.iceberg.spi.TableRouter;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.iceberg.trident.IcebergStateFactory;
import org.junit.jupiter.api.Test;

/** Routing options: the shipped routers by name, and what build() refuses, with the fix. */
class RoutingOptionsTest {
  static final Map<String, String> CATALOG = Map.of("type", "hadoop", "warehouse", "/tmp/w");

  static IcebergOptions.Builder routed() {
    return new IcebergOptions.Builder().withCatalogProperties(CATALOG)
        .withTableRouter("field", Map.of("template", "db.events_{region}"));
  }

  static TableRouter router(IcebergOptions options) {
    return OptionsInternals.settings(options).routing().router().resolve(Thread.currentThread().getContextClassLoader());
  }

  final Tuples tuples = new Tuples(TestTables.FIELDS);

  @Test
  void theShippedRoutersNameTablesByFieldStreamAndStaticMap() {
    var tuple = tuples.tuple(1L, "eu", Instant.EPOCH, "p");
    assertThat(router(routed().build()).route(tuple)).isEqualTo("db.events_eu");
    assertThat(router(routed().withTableRouter("stream", Map.of("template", "db.{stream}")).build()).route(tuple))
        .isEqualTo("db.default");
    TableRouter fixed = router(routed().withTableRouter("static",
        Map.of("field", "region", "route.eu", "db.europe", "default", "db.rest")).build());
    assertThat(fixed.route(tuple)).isEqualTo("db.europe");
    assertThat(fixed.route(tuples.tuple(2L, "us", Instant.EPOCH, "p"))).isEqualTo("db.rest");
    assertThatThrownBy(() -> router(routed().withTableRouter("static", Map.of("field", "region", "route.us", "db.us"))
        .build()).route(tuple))
        .isInstanceOf(RecordMappingException.class)
        .hasMessage("table router 'static' has no route for value 'eu' and no default; known: [us]");
  }

  @Test
  void aTableAndARouterTogetherAreRefused() {
    assertThatThrownBy(() -> routed().withTable("db.events").build())
        .hasMessage("Both withTable(\"db.events\") and withTableRouter(field[template]) are set: a routing sink takes"
            + " each tuple's table from its router; remove one of them");
  }

  @Test
  void routerMistakesFailAtBuildNamingTheFix() {
    assertThatThrownBy(() -> routed().withTableRouter("by-type", Map.of()).build())
        .hasMessageStartingWith("No table router named 'by-type' on the classpath; found [field, static, stream].");
    assertThatThrownBy(() -> routed().withTableRouter("field", Map.of("template", "db.events_${type}")).build())
        .hasMessage("table router 'field' property 'template' = 'db.events_${type}' has a '${', which Flux replaces with"
            + " its own properties; write placeholders as {field}, for example db.events_{type}");
    assertThatThrownBy(() -> routed().withTableRouter("field", Map.of("template", "db.events_{type")).build())
        .hasMessageStartingWith("table router 'field' property 'template' = 'db.events_{type' has an unclosed '{'");
    assertThatThrownBy(() -> routed().withTableRouter("field", Map.of("template", "db.events")).build())
        .hasMessageStartingWith("table router 'field' template 'db.events' names no field");
    assertThatThrownBy(() -> routed().withTableRouter("static", Map.of("field", "region")).build())
        .hasMessageStartingWith("table router 'static' has no routes: add route.<value>: <table> entries");
    assertThatThrownBy(() -> routed().withAllowedNamespaces(List.of("db..x")).build())
        .hasMessage("withAllowedNamespaces needs namespaces such as \"db\" or \"db.events\" (no empty parts), got 'db..x'");
    assertThatThrownBy(() -> new IcebergOptions.Builder().withCatalogProperties(CATALOG).withTable("db.t")
        .withAllowedNamespaces(List.of("db")).build())
        .hasMessage("withAllowedNamespaces limits the tables a routing sink writes, but no withTableRouter is set:"
            + " add a router, or remove withAllowedNamespaces");
    assertThatThrownBy(() -> routed().withMaxOpenTables(0).build()).hasMessage("withMaxOpenTables must be positive, got 0");
  }

  @Test
  void combinationsRoutingCannotHonourAreRefusedOnTheSubmittingClient() {
    // A routing task commits on threads of its own: the bound on pending commits applies per table.
    assertThat(routed().withMaxPendingCommits(2).build().maxPendingCommits()).isEqualTo(2);
    // Both sinks record each table's offsets as one range per partition: neither refuses positions with a router.
    IcebergOptions exactlyOnce = routed().withSourcePositions(new FieldPositions()).build();
    new IcebergBolt(exactlyOnce);
    new IcebergWriterBolt(exactlyOnce);
    new IcebergCommitterBolt(exactlyOnce);
    IcebergOptions options = routed().build();
    assertThatThrownBy(() -> new IcebergStateFactory(options)).hasMessageStartingWith("IcebergStateFactory writes one table");
    assertThatThrownBy(() -> new IcebergPartitionGrouping(options)).hasMessageStartingWith("IcebergPartitionGrouping writes one table");
  }

  @Test
  void theSplitSinkRoutesItsDescriptorsNamingTheirTable() {
    IcebergOptions options = routed().build();
    IcebergWriterBolt writer = new IcebergWriterBolt(options);
    new IcebergCommitterBolt(options);
    org.apache.storm.topology.OutputFieldsGetter declared = new org.apache.storm.topology.OutputFieldsGetter();
    writer.declareOutputFields(declared);
    assertThat(declared.getFieldsDeclaration().get("default").get_output_fields())
        .containsExactly(IcebergWriterBolt.DESCRIPTOR_FIELD, IcebergWriterBolt.TABLE_FIELD);
  }

  @Test
  void fluxKeysSetTheRouterTheNamespacesAndTheBound() {
    Map<String, Object> config = new HashMap<>();
    config.put("catalog", CATALOG);
    config.put("table-router", Map.of("name", "field", "template", "db.events_{region}"));
    config.put("allowed-namespaces", List.of("db", "staging"));
    config.put("max-open-tables", 8);
    IcebergOptions options = IcebergOptions.fromMap(config);
    assertThat(options.table()).isNull();
    assertThat(options.allowedNamespaces()).containsExactly("db", "staging");
    assertThat(options.maxOpenTables()).isEqualTo(8);
    assertThat(router(options).route(tuples.tuple(1L, "us", Instant.EPOCH, "p"))).isEqualTo("db.events_us");
    config.put("allowed-namespaces", "db, staging");
    assertThat(IcebergOptions.fromMap(config).allowedNamespaces()).containsExactly("db", "staging");
    SinkSettings settings = OptionsInternals.settings(options);
    assertThat(settings.forTable("db.events_us").target().table()).isEqualTo("db.events_us");
    assertThat(settings.forTable("db.events_us").routing()).isNull();
    assertThat(new IcebergOptions.Builder().withCatalogProperties(CATALOG).withTable("db.t").build().maxOpenTables())
        .isEqualTo(IcebergOptions.DEFAULT_MAX_OPEN_TABLES);
  }
}
