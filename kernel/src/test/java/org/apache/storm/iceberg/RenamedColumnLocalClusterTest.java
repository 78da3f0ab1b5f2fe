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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A column renamed from outside while a topology writes the table: the spout keeps sending the
 * field under its old name, and every row, before and after the rename, has its value in the
 * renamed column.
 */
@ExtendWith(SharedLocalCluster.class)
class RenamedColumnLocalClusterTest {
  static final long EVENTS = 4_000;
  static final long BEFORE_RENAME = 2_000;

  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }


  @Test
  void aColumnRenamedMidStreamKeepsTheValuesSentUnderItsFormerName() throws Exception {
    Map<String, String> catalogProperties = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    IcebergOptions options =
        new IcebergOptions.Builder()
            .withCatalogName("test")
            .withCatalogProperties(catalogProperties)
            .withTable("db.events")
            .withCommitIntervalRecords(500)
            .withCommitIntervalMillis(1_000)
            .withTickIntervalSecs(1)
            .build();
    String ledgerKey = UUID.randomUUID().toString();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(ledgerKey, EVENTS), 1);
    // One sink task: two on a HadoopCatalog contend for its commit lock and back off for seconds.
    builder.setBolt("iceberg", new IcebergBolt(options), 1).shuffleGrouping("events");
    ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(ledgerKey);
    ledger.emitLimit = BEFORE_RENAME;
    String name = "rename-" + ledgerKey.substring(0, 8);

    cluster.submitTopology(name, LocalClusterRuns.config(), builder.createTopology());
    try {
      Deadline.await(Duration.ofSeconds(60), () -> ledger.acked.size() == BEFORE_RENAME,
          () -> "the first " + BEFORE_RENAME + " ids acked; acked " + ledger.acked.size());
      // Between batches: every tuple sent so far is committed, and the stream has not gone on.
      table.updateSchema().renameColumn("payload", "body").commit();
      ledger.emitLimit = Long.MAX_VALUE;
      Deadline.await(Duration.ofSeconds(60), () -> ledger.acked.size() == EVENTS,
          () -> "all " + EVENTS + " ids acked; acked " + ledger.acked.size() + ", fails " + ledger.failCount.get());
    } finally {
      KillOptions kill = new KillOptions();
      kill.set_wait_secs(0);
      cluster.killTopologyWithOpts(name, kill);
    }

    List<Record> rows = TestTables.rows(table);
    assertThat(ledger.failCount.get()).isZero();
    assertThat(rows.stream().map(r -> (Long) r.getField("id")).sorted().collect(Collectors.toList()))
        .containsExactlyElementsOf(LongStream.range(0, EVENTS).boxed().collect(Collectors.toList()));
    List<String> wrong =
        rows.stream()
            .filter(r -> !("payload-" + r.getField("id")).equals(r.getField("body")))
            .map(r -> r.getField("id") + "=" + r.getField("body"))
            .limit(5)
            .collect(Collectors.toList());
    assertThat(wrong).as("rows whose body is not the payload the spout sent").isEmpty();
    assertThat(table.schema().findField("payload")).isNull();
  }
}
