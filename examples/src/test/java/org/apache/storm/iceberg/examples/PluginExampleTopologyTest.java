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

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drop-in plug-in at work in LocalCluster: the example-plugin jar is on the classpath only (no
 * code imports it), its providers are selected by name, and the table shows they were used.
 */
@ExtendWith(SharedLocalCluster.class)
class PluginExampleTopologyTest {
  @TempDir Path warehouse;

  @Test
  void theDropInMapperAndSealPolicyAreUsedByName(LocalCluster cluster) throws Exception {
    String summary = PluginExampleTopology.run(cluster, warehouse, 2_000);
    assertThat(summary).contains("the table now holds 2000 rows");

    Table table =
        CatalogUtil.buildIcebergCatalog("local", LocalExampleRun.catalogProperties(warehouse), new org.apache.hadoop.conf.Configuration())
            .loadTable(TableIdentifier.parse(PluginExampleTopology.TABLE));
    List<String> payloads = new ArrayList<>();
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      rows.forEach(r -> payloads.add((String) r.getField("payload")));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    assertThat(payloads).hasSize(2_000).allSatisfy(p -> assertThat(p).startsWith("EVENT "));
    // Each task seals every 500 records (its tail on age): no snapshot adds more than 500 rows,
    // and most add exactly 500, where the default would have sealed at 1000.
    List<Long> added = new ArrayList<>();
    table.snapshots().forEach(s -> added.add(Long.parseLong(s.summary().get("added-records"))));
    assertThat(added).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(500L));
    assertThat(added.stream().mapToLong(Long::longValue).sum()).isEqualTo(2_000L);
    assertThat(added.stream().filter(n -> n == 500L).count()).isGreaterThanOrEqualTo(2L);
  }

  @Test
  void aPlugInThatIsNotOnTheClasspathFailsAtBuild() {
    assertThatThrownBy(
            () -> new IcebergOptions.Builder()
                .withCatalogProperties(LocalExampleRun.catalogProperties(warehouse))
                .withTable("examples.shouted")
                .withRecordMapper("avro-generic", Map.of())
                .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "No record mapper named 'avro-generic' on the classpath; found [field-name, json, upper-case]. Add the"
                + " artifact that provides it to the topology jar (the defaults are in"
                + " org.apache.storm:storm-iceberg-mappers, part of org.apache.storm:storm-iceberg), or select one of"
                + " the names found.");
  }
}
