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
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a sink component would refuse at prepare, refused on the submitting client instead, by
 * {@link IcebergTopologies#check} and by {@code build()} with the topology's configuration; and the
 * default deadline margin, which scales down to fit short message timeouts instead of refusing them.
 */
@ExtendWith(SharedLocalCluster.class)
class SubmitChecksTest {
  static final String MARGIN_REFUSED =
      "commit deadline margin 5000 ms is not below topology.message.timeout.secs (5 s): every batch would pass its"
          + " deadline before it could commit; lower withCommitDeadlineMarginMillis or raise the timeout";

  @TempDir Path dir;
  Map<String, String> catalogProperties;

  @BeforeEach
  void createTable() {
    catalogProperties = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
  }

  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.events")
        .withCommitIntervalRecords(100)
        .withCommitIntervalMillis(1_000);
  }

  static Config fiveSecondTimeout() {
    Config conf = LocalClusterRuns.config();
    conf.setMessageTimeoutSecs(5);
    conf.setMaxSpoutPending(1_000);
    return conf;
  }

  static TopologyBuilder sinkBehindSpout(IcebergOptions options, String ledgerKey, long events) {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(ledgerKey, events), 1);
    builder.setBolt("iceberg", new IcebergBolt(options), 2).shuffleGrouping("events");
    return builder;
  }

  @Test
  void aFiveSecondTimeoutWithTheDefaultMarginPasses() {
    Config conf = fiveSecondTimeout();
    IcebergOptions options = options().overriddenByTopologyConfig(conf).build();

    assertThat(options.commitDeadlineMarginMillis()).as("unset: scaled to the timeout").isEqualTo(-1);
    assertThatCode(() -> IcebergTopologies.check(conf, sinkBehindSpout(options, "unused", 1))).doesNotThrowAnyException();
  }

  @Test
  void anExplicitMarginThatDoesNotFitTheTimeoutFailsAtBuildWithTheTopologysConfiguration() {
    assertThatThrownBy(() -> options().withCommitDeadlineMarginMillis(5_000).overriddenByTopologyConfig(fiveSecondTimeout()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(MARGIN_REFUSED);
    assertThatCode(() -> options().withCommitDeadlineMarginMillis(5_000).build())
        .as("without the topology's configuration, build() cannot know the timeout").doesNotThrowAnyException();
  }

  @Test
  void anExplicitMarginThatDoesNotFitTheTimeoutFailsTheCheckBeforeSubmission() {
    IcebergOptions options = options().withCommitDeadlineMarginMillis(5_000).build();

    assertThatThrownBy(() -> IcebergTopologies.check(fiveSecondTimeout(), sinkBehindSpout(options, "unused", 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Component 'iceberg' would fail when its tasks start: " + MARGIN_REFUSED);
  }

  @Test
  void theCheckSeesTheComponentsTasksAndTheSpoutsPendingTuples() {
    Config conf = fiveSecondTimeout();
    conf.setMaxSpoutPending(150);
    IcebergOptions recordsOnly = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withCommitIntervalRecords(100).build();

    assertThatThrownBy(() -> IcebergTopologies.check(conf, sinkBehindSpout(recordsOnly, "unused", 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Component 'iceberg' would fail when its tasks start: topology.max.spout.pending (150 per"
            + " spout task, 150 in all) is below the 200 tuples component 'iceberg' needs pending");
  }

  /** The bench's StormSettings run that stalled: 100,000 pending tuples, Storm's default 32,768-slot queues. */
  @Test
  void theCheckRefusesAProducerBatchWhoseReceiveQueuesCanFill() {
    Config conf = fiveSecondTimeout();
    conf.setMaxSpoutPending(100_000);
    conf.put(Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 1_000);

    assertThatThrownBy(() -> IcebergTopologies.check(conf, sinkBehindSpout(options().build(), "unused", 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Component 'iceberg' would fail when its tasks start: topology.producer.batch.size 1000"
            + " can stall this topology: with topology.max.spout.pending 100000 (100000 tuples pending in all, over 1"
            + " spout task) an executor receive queue (topology.executor.receive.buffer.size 32768) can fill")
        .hasMessageContaining("raise topology.executor.receive.buffer.size to at least 262144 ");
    conf.put(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, 262_144);
    assertThatCode(() -> IcebergTopologies.check(conf, sinkBehindSpout(options().build(), "unused", 1)))
        .doesNotThrowAnyException();
  }

  /**
   * The split sink's tuples pass two bolts, each acking them: 8,000 pending tuples can leave 24,000
   * messages at the acker (ProducerBatchLocalClusterTest stalled under load with 16,384-slot queues).
   */
  @Test
  void theCheckCountsEveryBoltATupleMeetsAtTheAcker() {
    Config conf = fiveSecondTimeout();
    conf.setMaxSpoutPending(8_000);
    conf.put(Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 1_000);
    conf.put(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, 16_384);
    IcebergOptions split = options().withGroupCommitIntervalMillis(1_000).build();

    assertThatCode(() -> IcebergTopologies.check(conf, sinkBehindSpout(split, "unused", 1))).doesNotThrowAnyException();
    assertThatThrownBy(() -> IcebergTopologies.check(conf, splitSink(split, false)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Component 'writer' would fail when its tasks start: topology.producer.batch.size 1000"
            + " can stall this topology: with topology.max.spout.pending 8000 (8000 tuples pending in all, over 1 spout"
            + " task) an executor receive queue (topology.executor.receive.buffer.size 16384) can fill")
        .hasMessageContaining("raise topology.executor.receive.buffer.size to at least 32768 (above 3 times the pending"
            + " tuples: each can have an init and an ack from each of the 2 bolts on its way waiting at the acker)");
    conf.put(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, 32_768);
    assertThatCode(() -> IcebergTopologies.check(conf, splitSink(split, false))).doesNotThrowAnyException();
  }

  @Test
  void theCheckRefusesAGroupingThatSplitsASourcePartitionAcrossTasks() {
    IcebergOptions positions = options().withSourcePositions(new FieldPositions()).build();
    TopologyBuilder shuffled = sinkBehindSpout(positions, "unused", 1);

    assertThatThrownBy(() -> IcebergTopologies.check(fiveSecondTimeout(), shuffled))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("stream 'default' of 'events' reaches it by shuffle grouping: use fieldsGrouping(\"events\",");

    TopologyBuilder grouped = new TopologyBuilder();
    grouped.setSpout("events", new ReplayingSpout("unused", 1), 1);
    grouped.setBolt("iceberg", new IcebergBolt(positions), 2).fieldsGrouping("events", new Fields("topic", "partition"));
    assertThatCode(() -> IcebergTopologies.check(fiveSecondTimeout(), grouped)).doesNotThrowAnyException();
  }

  @Test
  void theSplitSinksCommitterIsCheckedAgainstTheTimeoutToo() {
    IcebergOptions options = options().withGroupCommitIntervalMillis(6_000).build();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout("unused", 1), 1);
    builder.setBolt("writer", new IcebergWriterBolt(options), 2).shuffleGrouping("events");
    builder.setBolt("committer", new IcebergCommitterBolt(options), 1).globalGrouping("writer");

    assertThatThrownBy(() -> IcebergTopologies.check(fiveSecondTimeout(), builder))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Component 'committer' would fail when its tasks start: group commit interval 6000 ms is not below"
            + " topology.message.timeout.secs (5 s): tuples would time out and replay before they commit; lower"
            + " withGroupCommitIntervalMillis or raise the timeout");
  }

  @Test
  void theSplitSinkInARowLevelModeNeedsSourcePositionsAndTheirGrouping() {
    // Options without source positions pass build() (a Trident state could use them); the split sink refuses them.
    IcebergOptions withoutPositions = options().withWriteMode(WriteMode.UPSERT).withKeyColumns("id").build();
    assertThatThrownBy(() -> IcebergTopologies.check(fiveSecondTimeout(), splitSink(withoutPositions, true)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("The split sink (IcebergWriterBolt, IcebergCommitterBolt) in write mode upsert needs Kafka"
            + " source positions (withSourcePositions(\"kafka\", ...) on the writer's and the committer's options):"
            + " without them a replayed change could undo a newer one");

    IcebergOptions positions = options().withWriteMode(WriteMode.UPSERT).withKeyColumns("id")
        .withSourcePositions(new FieldPositions()).withGroupCommitIntervalMillis(1_000).build();
    assertThatCode(() -> IcebergTopologies.check(fiveSecondTimeout(), splitSink(positions, true))).doesNotThrowAnyException();
    assertThatThrownBy(() -> IcebergTopologies.check(fiveSecondTimeout(), splitSink(positions, false)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("stream 'default' of 'events' reaches it by shuffle grouping: use fieldsGrouping(\"events\",");
  }

  /** Writers behind a spout, by topic and partition or shuffled, and their committer. */
  static TopologyBuilder splitSink(IcebergOptions options, boolean byPartition) {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout("unused", 1), 1);
    var writers = builder.setBolt("writer", new IcebergWriterBolt(options), 2);
    if (byPartition) {
      writers.fieldsGrouping("events", new Fields("topic", "partition"));
    } else {
      writers.shuffleGrouping("events");
    }
    builder.setBolt("committer", new IcebergCommitterBolt(options), 1).globalGrouping("writer");
    return builder;
  }

  /**
   * A topology with a 5 s message timeout and the default margin runs: before the margin scaled,
   * every task failed at prepare, and in LocalCluster the failure halted the JVM.
   */
  @Test
  void aTopologyWithAFiveSecondTimeoutAndTheDefaultMarginCommitsEveryTuple(LocalCluster cluster) throws Exception {
    String ledgerKey = UUID.randomUUID().toString();
    long events = 1_000;
    Config conf = fiveSecondTimeout();
    IcebergOptions options = options().withTickIntervalSecs(1).overriddenByTopologyConfig(conf).build();
    TopologyBuilder builder = sinkBehindSpout(options, ledgerKey, events);
    IcebergTopologies.check(conf, builder);

    LocalClusterRuns.runUntilAllAcked(cluster, "short-timeout-" + ledgerKey.substring(0, 8), conf, builder.createTopology(),
        ledgerKey, events);

    Table table = TestCatalogs.load(catalogProperties).loadTable(TableIdentifier.of("db", "events"));
    TestTables.assertEveryIdOnceUnlessReplayed(table, events, ReplayingSpout.ledger(ledgerKey).failedIds);
    assertThat(List.copyOf(ReplayingSpout.ledger(ledgerKey).acked)).hasSize((int) events);
  }
}
