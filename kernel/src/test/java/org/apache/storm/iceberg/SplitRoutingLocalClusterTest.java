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

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The split sink routing in LocalCluster, quick tier: 2 writers route one stream by region into 4
 * auto-created tables, one committer commits each table's group on its own, and a catalog fault on
 * one table's commits fails only that table's tuples. The 50-table run is {@code
 * RoutingLocalClusterTest}'s, in the long tier.
 */
@ExtendWith(SharedLocalCluster.class)
class SplitRoutingLocalClusterTest {
  static final long EVENTS = 1_000;
  static final List<String> REGIONS = List.of("eu", "us", "apac", "latam");

  @TempDir Path dir;
  final Faults faults = Faults.create();

  @Test
  void aFailedCommitOfOneTableReplaysOnlyThatTablesTuplesAndEveryTableHoldsExactlyItsRows(LocalCluster cluster)
      throws Exception {
    Map<String, String> catalogProperties = TestCatalogs.hadoop(dir);
    faults.onlyTable = "db.events_us";
    faults.inject(Faults.CommitFault.FAIL_BEFORE, 2);
    IcebergOptions.Builder options = new IcebergOptions.Builder().withCatalogName("test")
        .withTableRouter("field", Map.of("template", "db.events_{region}")).withAllowedNamespaces(List.of("db"))
        // No Iceberg-level retries: every injected commit failure reaches the committer.
        .withAutoCreate(TestTables.SCHEMA, PartitionSpec.unpartitioned(), Map.of(TableProperties.COMMIT_NUM_RETRIES, "0"))
        .withTickIntervalSecs(1);
    IcebergOptions writerOptions = options.withCatalogProperties(catalogProperties)
        .withCommitIntervalRecords(100).withCommitIntervalMillis(1_000).build();
    IcebergOptions committerOptions = options.withCatalogProperties(FaultInjectingCatalog.properties(catalogProperties, faults))
        .withGroupCommitIntervalMillis(1_000).build();
    String key = UUID.randomUUID().toString();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(key, EVENTS), 1);
    builder.setBolt("iceberg-writer", new IcebergWriterBolt(writerOptions), 2).shuffleGrouping("events");
    builder.setBolt("iceberg-committer", new IcebergCommitterBolt(committerOptions), 1).globalGrouping("iceberg-writer");

    LocalClusterRuns.runUntilAllAcked(cluster, "split-routing-" + key.substring(0, 8), builder.createTopology(), key, EVENTS);

    ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(key);
    assertThat(faults.injected).hasValue(2);
    // Only db.events_us's tuples failed, and replayed: the other tables' groups committed and acked.
    assertThat(ledger.failedIds).isNotEmpty().allSatisfy(id -> assertThat(region(id)).isEqualTo("us"));
    Catalog catalog = TestCatalogs.load(catalogProperties);
    for (String region : REGIONS) {
      List<Long> expected = LongStream.range(0, EVENTS).filter(id -> region(id).equals(region)).boxed().collect(Collectors.toList());
      // The failed commits were definitely not applied: each replayed row is in its table once.
      assertThat(TestTables.ids(catalog.loadTable(TableIdentifier.of("db", "events_" + region))))
          .as("ids in db.events_" + region).containsExactlyElementsOf(expected);
    }
  }

  static String region(long id) {
    return (String) ReplayingSpout.values(id).get(1);
  }
}
