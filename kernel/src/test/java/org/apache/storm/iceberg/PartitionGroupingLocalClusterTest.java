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
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.BoltDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight IcebergBolt tasks writing a table of 16 buckets (JdbcCatalog on SQLite): behind {@link
 * IcebergPartitionGrouping} each partition's files all come from one task, so a commit holds the
 * files of its task's two buckets, not all sixteen, and a spec changed mid-stream is followed; behind
 * a shuffle, every task writes every partition. Every id lands either way.
 */
@ExtendWith(SharedLocalCluster.class)
// Long tier, checked before the class starts its cluster: a LocalCluster start and 8 committers take
// 10-20 s. Quick tier's proof: IcebergPartitionGroupingTest (routing by bucket, spec change, skew, refusal).
@EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
class PartitionGroupingLocalClusterTest {
  static final long EVENTS = 2_000;
  static final PartitionSpec BUCKETS = PartitionSpec.builderFor(TestTables.SCHEMA).bucket("id", 16).build();
  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }

  @Test
  void eachPartitionsFilesComeFromOneTaskAcrossASpecChangeAndEveryIdLands() throws Exception {
    Table table = createTable();
    IcebergOptions options = options();
    String key = UUID.randomUUID().toString();
    ReplayingSpout spout = new ReplayingSpout(key, EVENTS);
    ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(key);
    ledger.emitLimit = EVENTS / 2;
    try (LogCapture log = new LogCapture()) {
      run(key, spout, options, bolt -> bolt.customGrouping("events", new IcebergPartitionGrouping(options, 1, 200)), () -> {
        Deadline.await(Duration.ofSeconds(120), () -> ledger.acked.size() == EVENTS / 2,
            () -> "the first half acked; acked " + ledger.acked.size());
        // Between batches (everything sent is committed): the spec gains the region.
        table.updateSpec().addField("region").commit();
        Deadline.await(Duration.ofSeconds(30), () -> log.lines.stream().anyMatch(l -> l.contains("db.events under spec 1")),
            () -> "the grouping following spec 1");
        ledger.emitLimit = Long.MAX_VALUE;
      });
    }

    TestTables.assertEveryIdOnceUnlessReplayed(table, EVENTS, ledger.failedIds);
    Map<String, Set<String>> tasksByPartition = writerTasksByPartition(table);
    assertThat(tasksByPartition.keySet().stream().filter(p -> p.startsWith("0:"))).as("spec 0 partitions").hasSize(16);
    assertThat(tasksByPartition.keySet().stream().filter(p -> p.startsWith("1:"))).as("spec 1 partitions").hasSize(64);
    assertThat(tasksByPartition).allSatisfy((partition, tasks) -> assertThat(tasks).as(partition + " written by").hasSize(1));
    assertThat(tasksByPartition.values().stream().flatMap(Set::stream).distinct()).as("tasks that wrote").hasSize(8);
    for (Snapshot snapshot : TestTables.snapshots(table)) {
      // Each task holds 2 of the 16 buckets, and under spec 1 8 of the 64 bucket-and-region partitions.
      assertThat(partitions(table, snapshot).stream().filter(p -> p.startsWith("0:")).distinct())
          .as("spec 0 partitions in one commit").hasSizeLessThanOrEqualTo(2);
      assertThat(partitions(table, snapshot).stream().filter(p -> p.startsWith("1:")).distinct())
          .as("spec 1 partitions in one commit").hasSizeLessThanOrEqualTo(8);
    }
  }

  @Test
  void behindAShuffleEveryTaskWritesEveryPartition() throws Exception {
    Table table = createTable();
    String key = UUID.randomUUID().toString();
    ReplayingSpout spout = new ReplayingSpout(key, EVENTS);
    run(key, spout, options(), bolt -> bolt.shuffleGrouping("events"), () -> {});

    TestTables.assertEveryIdOnceUnlessReplayed(table, EVENTS, ReplayingSpout.ledger(key).failedIds);
    assertThat(writerTasksByPartition(table)).hasSize(16)
        .allSatisfy((partition, tasks) -> assertThat(tasks).as(partition + " written by").hasSizeGreaterThan(4));
  }

  Table createTable() {
    Catalog catalog = TestCatalogs.load(TestCatalogs.jdbcSqlite(dir));
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    // Eight committers share one table: let Iceberg retry their conflicts patiently.
    return catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, BUCKETS,
        Map.of(TableProperties.COMMIT_NUM_RETRIES, "100", TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "10",
            TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "500", TableProperties.COMMIT_TOTAL_RETRY_TIME_MS, "120000"));
  }

  IcebergOptions options() {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(TestCatalogs.jdbcSqlite(dir))
        .withTable("db.events").withCommitIntervalRecords(500).withCommitIntervalMillis(1_000).withTickIntervalSecs(1).build();
  }

  void run(String ledgerKey, ReplayingSpout spout, IcebergOptions options, java.util.function.Consumer<BoltDeclarer> grouping,
      LocalClusterRuns.WhileRunning whileRunning) throws Exception {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", spout, 1);
    grouping.accept(builder.setBolt("iceberg", new IcebergBolt(options), 8));
    LocalClusterRuns.runUntilAllAcked(cluster, "grouping-" + ledgerKey.substring(0, 8), builder.createTopology(),
        LocalClusterRuns.config(), ledgerKey, EVENTS, whileRunning);
  }

  /** Each partition ("spec:values") with the tasks whose commits added its files, read from every snapshot's added files. */
  static Map<String, Set<String>> writerTasksByPartition(Table table) {
    Map<String, Set<String>> tasks = new TreeMap<>();
    for (Snapshot snapshot : TestTables.snapshots(table)) {
      String task = snapshot.summary().get("storm.iceberg.task-index");
      partitions(table, snapshot).forEach(p -> tasks.computeIfAbsent(p, k -> new TreeSet<>()).add(task));
    }
    return tasks;
  }

  /** The partitions of the files {@code snapshot} added, one entry per file. */
  static java.util.List<String> partitions(Table table, Snapshot snapshot) {
    java.util.List<String> partitions = new java.util.ArrayList<>();
    for (DataFile file : snapshot.addedDataFiles(table.io())) {
      partitions.add(file.specId() + ":" + table.specs().get(file.specId()).partitionToPath(file.partition()));
    }
    return partitions;
  }
}
