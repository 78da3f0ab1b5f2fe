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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.grouping.CustomStreamGrouping;
import org.apache.storm.iceberg.spi.TableRouter;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.task.WorkerTopologyContext;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * One stream routed into 50 auto-created tables in LocalCluster, through one {@code IcebergBolt} of
 * 4 tasks, and through the split sink (4 writers, 2 committers grouped by table), at most 4 tables
 * open per writing task and 8 per committer (so tables are evicted and reopened): every row in its
 * own table, exactly the expected ids per table. Long tier only; the quick tier proves routing on
 * the kernel ({@code RoutingTest}, {@code SplitRoutingTest}) and the split sink routing 4 tables in
 * LocalCluster ({@code SplitRoutingLocalClusterTest}).
 */
@ExtendWith(SharedLocalCluster.class)
// Long tier, checked before the class starts its cluster. The quick tier proves routing on the kernel:
// RoutingTest (routing, one seal for every table, LRU eviction, isolation, bad routes, a crash between a
// routed table's WAL write and its commit), SplitRoutingTest, and SplitRoutingLocalClusterTest (the split
// sink routing 4 tables, one failing).
@EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
class RoutingLocalClusterTest {
  static final int TABLES = 50;
  static final long EVENTS = 2_000;

  @TempDir Path dir;

  /** Ids in runs of 40 a table, as a stream whose producers write one table at a time sends them. */
  static final long RUN = EVENTS / TABLES;

  static long tableOf(long id) {
    return id / RUN % TABLES;
  }

  /** Table {@code db.t<id / 40 mod 50>}. */
  static final class RunsRouter implements TableRouter {
    @Override
    public String route(org.apache.storm.tuple.ITuple tuple) {
      return "db.t" + tableOf(tuple.getLongByField("id"));
    }
  }

  /** Sends each table's tuples to one task, as a fieldsGrouping on the routing field would. */
  static final class ByTable implements CustomStreamGrouping {
    private List<Integer> targets;

    @Override
    public void prepare(WorkerTopologyContext context, GlobalStreamId stream, List<Integer> targetTasks) {
      targets = new ArrayList<>(targetTasks);
    }

    @Override
    public List<Integer> chooseTasks(int taskId, List<Object> values) {
      return List.of(targets.get((int) (tableOf((Long) values.get(0)) % targets.size())));
    }
  }

  @Test
  void fiftyTablesThroughOneBoltOfFourTasksEachHoldExactlyTheirRows(LocalCluster cluster) throws Exception {
    Map<String, String> catalogProperties = TestCatalogs.hadoop(dir);
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTableRouter(new RunsRouter()).withAllowedNamespaces(List.of("db"))
        .withAutoCreate(TestTables.SCHEMA, PartitionSpec.unpartitioned())
        .withCommitIntervalRecords(20).withCommitIntervalMillis(1_000).withTickIntervalSecs(1)
        // About 13 tables a task, 4 open at once: each task evicts as its runs move on, and replays reopen tables.
        // (Ids cycling over the tables one by one would evict on every tuple: a commit per tuple.)
        .withMaxOpenTables(4).build();
    String key = UUID.randomUUID().toString();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(key, EVENTS), 1);
    builder.setBolt("iceberg", new IcebergBolt(options), 4).customGrouping("events", new ByTable());

    LocalClusterRuns.runUntilAllAcked(cluster, "routing-" + key.substring(0, 8), builder.createTopology(), key, EVENTS);

    assertEachTableHoldsExactlyItsIds(catalogProperties, key);
  }

  @Test
  void fiftyTablesThroughTheSplitSinkOfFourWritersAndTwoCommittersEachHoldExactlyTheirRows(LocalCluster cluster)
      throws Exception {
    Map<String, String> catalogProperties = TestCatalogs.hadoop(dir);
    IcebergOptions.Builder options = new IcebergOptions.Builder().withCatalogName("test")
        .withCatalogProperties(catalogProperties).withTableRouter(new RunsRouter()).withAllowedNamespaces(List.of("db"))
        .withAutoCreate(TestTables.SCHEMA, PartitionSpec.unpartitioned()).withTickIntervalSecs(1);
    IcebergOptions writerOptions = options.withCommitIntervalRecords(20).withCommitIntervalMillis(1_000)
        .withMaxOpenTables(4).build();
    // About 25 tables a committer task, 8 open at once: each evicts (commits and closes) as the runs move on.
    IcebergOptions committerOptions = options.withGroupCommitIntervalMillis(1_000).withMaxOpenTables(8).build();
    String key = UUID.randomUUID().toString();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(key, EVENTS), 1);
    builder.setBolt("iceberg-writer", new IcebergWriterBolt(writerOptions), 4).customGrouping("events", new ByTable());
    builder.setBolt("iceberg-committer", new IcebergCommitterBolt(committerOptions), 2)
        .fieldsGrouping("iceberg-writer", new Fields(IcebergWriterBolt.TABLE_FIELD));

    try (LogCapture logs = new LogCapture()) {
      LocalClusterRuns.runUntilAllAcked(cluster, "split-routing-" + key.substring(0, 8), builder.createTopology(), key, EVENTS);
      assertThat(logs.lines).as("two committers grouped by table draw no warning")
          .noneMatch(line -> line.contains("IcebergCommitterBolt component 'iceberg-committer' has 2 tasks"));
    }

    assertEachTableHoldsExactlyItsIds(catalogProperties, key);
  }

  /** Every table {@code db.t<n>} holds exactly its ids, each once unless the spout replayed it. */
  static void assertEachTableHoldsExactlyItsIds(Map<String, String> catalogProperties, String key) {
    ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(key);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    for (int t = 0; t < TABLES; t++) {
      int table = t;
      List<Long> expected = LongStream.range(0, EVENTS).filter(id -> tableOf(id) == table).boxed().collect(Collectors.toList());
      List<Long> ids = TestTables.ids(catalog.loadTable(TableIdentifier.of("db", "t" + t)));
      Map<Long, Long> copies = ids.stream().collect(Collectors.groupingBy(id -> id, TreeMap::new, Collectors.counting()));
      assertThat(copies.keySet()).as("ids in db.t" + t).containsExactlyElementsOf(expected);
      copies.forEach((id, n) -> assertThat(n == 1 || ledger.failedIds.contains(id))
          .as("id " + id + " in db.t" + table + " " + n + " times, never replayed").isTrue());
    }
  }
}
