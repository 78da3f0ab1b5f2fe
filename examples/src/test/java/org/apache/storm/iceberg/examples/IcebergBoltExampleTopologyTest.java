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

import java.nio.file.Path;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Smoke tests: each example runs end to end in LocalCluster and reports what it committed. */
@ExtendWith(SharedLocalCluster.class)
class IcebergBoltExampleTopologyTest {
  @TempDir Path warehouse;

  Table table(String name) {
    return CatalogUtil.buildIcebergCatalog("local", LocalExampleRun.catalogProperties(warehouse), new org.apache.hadoop.conf.Configuration())
        .loadTable(TableIdentifier.parse(name));
  }

  @Test
  void theUnpartitionedExampleCommitsEveryEventAndSaysSo(LocalCluster cluster) throws Exception {
    String first = IcebergBoltExampleTopology.run(cluster, warehouse, 3_000);
    assertThat(first)
        .startsWith("storm-iceberg example: 3000 events acked in ")
        .containsPattern("first rows visible \\d+ ms after submission")
        .contains("the table now holds 3000 rows");

    String second = IcebergBoltExampleTopology.run(cluster, warehouse, 1_000);
    assertThat(second).contains("committed to examples.events").contains(": 1000 rows in ").contains("the table now holds 4000 rows");
  }

  @Test
  void thePartitionedExampleWritesAFilePerPartitionOfEachBatch(LocalCluster cluster) throws Exception {
    Assumptions.assumeTrue(Boolean.getBoolean("tests.long"), "long tier only (-Plong): the quick tier runs this example from its Flux YAML");
    String summary = IcebergPartitionedBoltExampleTopology.run(cluster, warehouse, 2_000);
    assertThat(summary).contains("the table now holds 2000 rows");
    Table table = table(IcebergPartitionedBoltExampleTopology.TABLE);
    assertThat(table.spec().fields()).extracting(f -> f.name()).containsExactly("region", "event_time_day");
    assertThat(TableSummary.of(table).dataFiles()).as("four regions at least").isGreaterThanOrEqualTo(4);
  }

  @Test
  void theSplitSinkExampleCommitsThroughOneCommitter(LocalCluster cluster) throws Exception {
    Assumptions.assumeTrue(Boolean.getBoolean("tests.long"), "long tier only (-Plong): the quick tier runs this example from its Flux YAML");
    String summary = IcebergSplitSinkExampleTopology.run(cluster, warehouse, 2_000);
    assertThat(summary).contains("the table now holds 2000 rows");
    table(IcebergSplitSinkExampleTopology.TABLE).snapshots().forEach(s ->
        assertThat(s.summary()).containsEntry("storm.iceberg.component", "iceberg-committer"));
  }
}
