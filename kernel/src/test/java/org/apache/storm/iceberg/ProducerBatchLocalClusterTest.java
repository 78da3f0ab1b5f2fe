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
import java.util.ArrayList;
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
import org.apache.storm.generated.KillOptions;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Storm's producer batching ({@code topology.producer.batch.size} 1, 100 and 1000) under IcebergBolt
 * and the split sink, each behind its own spout, in one topology per batch size; beside each, the
 * control: the same spout and settings with a bolt that acks every tuple as it comes. Every
 * topology runs with the smallest executor receive queues {@link IcebergTopologies#check} accepts:
 * with queues that a commit's burst of acks can fill, Storm 2.8 leaves tuples unsent in its
 * producer batches and the sinks stall (the bench's StormSettings runs at 100,000 pending tuples
 * and Storm's default 32,768-slot queues), which the check refuses. The split sink's tuples pass two
 * acking bolts: with queues sized for one (16,384 for the 8,000 tuples pending here), this test
 * stalled under CPU load with every row committed and hundreds of tuples never acked. All
 * topologies run at once.
 */
@ExtendWith(SharedLocalCluster.class)
class ProducerBatchLocalClusterTest {
  static final int[] PRODUCER_BATCHES = {1, 100, 1_000};
  /** A commit acks this many tuples at once: more than the smallest queues tried hold. */
  static final int RECORDS = 2_000;
  /** Per spout task: two batches, as the sink needs to keep writing while one commits. */
  static final int PENDING = 2 * RECORDS;
  static final long EVENTS = 4 * RECORDS;
  /** The smallest receive queue tried, unless Storm needs more: twice the producer batch (its worker refuses less). */
  static final int SMALLEST_QUEUE = 1_024;

  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }

  /** Acks every tuple as it comes: plain Storm acking, the control. */
  public static final class AckingBolt extends BaseRichBolt {
    private transient OutputCollector collector;

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
      this.collector = collector;
    }

    @Override
    public void execute(Tuple tuple) {
      collector.ack(tuple);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {}
  }

  /** One producer batch size's two topologies and their spouts' ledgers. */
  record Run(int producerBatch, int receiveQueue, String name, String bolt, String split, String control, String boltTable,
      String splitTable) {
    List<String> topologies() {
      return List.of(name, name + "-control");
    }
  }

  @Test
  void everyTupleOfBothSinksIsAckedAndLandsOnceUnderEachProducerBatch() throws Exception {
    Map<String, String> catalogProperties = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    List<Run> runs = new ArrayList<>();
    try {
      for (int producerBatch : PRODUCER_BATCHES) {
        runs.add(submit(catalog, catalogProperties, producerBatch));
      }
      Deadline.await(Duration.ofSeconds(60), () -> runs.stream().allMatch(this::allAcked), () -> describe(runs));
    } finally {
      KillOptions kill = new KillOptions();
      kill.set_wait_secs(0);
      for (Run run : runs) {
        for (String topology : run.topologies()) {
          cluster.killTopologyWithOpts(topology, kill);
        }
      }
    }
    for (Run run : runs) {
      assertThat(run.receiveQueue()).as("receive queue at producer batch %s", run.producerBatch())
          .isEqualTo(run.producerBatch() == 1 ? SMALLEST_QUEUE : 32_768);
      for (String[] sink : new String[][] {{run.bolt(), run.boltTable()}, {run.split(), run.splitTable()}}) {
        Table table = catalog.loadTable(TableIdentifier.of("db", sink[1]));
        TestTables.assertEveryIdOnceUnlessReplayed(table, EVENTS, ReplayingSpout.ledger(sink[0]).failedIds);
      }
    }
  }

  private Run submit(Catalog catalog, Map<String, String> catalogProperties, int producerBatch) throws Exception {
    String key = UUID.randomUUID().toString().substring(0, 8);
    Run run0 = new Run(producerBatch, 0, "producer-batch-" + producerBatch + "-" + key, "bolt-" + key, "split-" + key,
        "control-" + key, "bolt_" + producerBatch, "split_" + producerBatch);
    for (String table : List.of(run0.boltTable(), run0.splitTable())) {
      catalog.createTable(TableIdentifier.of("db", table), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    }
    TopologyBuilder sinks = new TopologyBuilder();
    sinks.setSpout("events", new ReplayingSpout(run0.bolt(), EVENTS), 1);
    sinks.setBolt("iceberg", new IcebergBolt(options(catalogProperties, run0.boltTable())), 1).shuffleGrouping("events");
    sinks.setSpout("split-events", new ReplayingSpout(run0.split(), EVENTS), 1);
    IcebergOptions split = options(catalogProperties, run0.splitTable());
    sinks.setBolt("iceberg-writer", new IcebergWriterBolt(split), 1).shuffleGrouping("split-events");
    sinks.setBolt("iceberg-committer", new IcebergCommitterBolt(split), 1).globalGrouping("iceberg-writer");
    Config conf = LocalClusterRuns.config();
    conf.setMaxSpoutPending(PENDING);
    conf.put(Config.TOPOLOGY_PRODUCER_BATCH_SIZE, producerBatch);
    int queue = smallestAcceptedQueue(conf, sinks, Math.max(SMALLEST_QUEUE, Integer.highestOneBit(2 * producerBatch - 1) << 1));
    conf.put(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, queue);
    Run run = new Run(producerBatch, queue, run0.name(), run0.bolt(), run0.split(), run0.control(), run0.boltTable(),
        run0.splitTable());

    TopologyBuilder control = new TopologyBuilder();
    control.setSpout("events", new ReplayingSpout(run.control(), EVENTS), 1);
    control.setBolt("acking", new AckingBolt(), 1).shuffleGrouping("events");
    cluster.submitTopology(run.name() + "-control", conf, control.createTopology());
    cluster.submitTopology(run.name(), conf, sinks.createTopology());
    return run;
  }

  private static IcebergOptions options(Map<String, String> catalogProperties, String table) {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db." + table).withCommitIntervalRecords(RECORDS).withGroupCommitIntervalMillis(500).build();
  }

  /** The smallest receive queue, a power of two from {@code from} up, that the check accepts. */
  private static int smallestAcceptedQueue(Config conf, TopologyBuilder builder, int from) {
    for (int queue = from; ; queue *= 2) {
      Config tried = new Config();
      tried.putAll(conf);
      tried.put(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, queue);
      try {
        IcebergTopologies.check(tried, builder);
        return queue;
      } catch (IllegalStateException refused) {
        assertThat(queue).as(refused.getMessage()).isLessThan(1 << 20);
      }
    }
  }

  private boolean allAcked(Run run) {
    return List.of(run.bolt(), run.split(), run.control()).stream()
        .allMatch(ledger -> ReplayingSpout.ledger(ledger).acked.size() == EVENTS);
  }

  private static String describe(List<Run> runs) {
    StringBuilder text = new StringBuilder("every id acked; acked of " + EVENTS + ":");
    for (Run run : runs) {
      text.append(String.format(" producer batch %d (queues %d): IcebergBolt %d, split sink %d, acking bolt %d;",
          run.producerBatch(), run.receiveQueue(), ReplayingSpout.ledger(run.bolt()).acked.size(),
          ReplayingSpout.ledger(run.split()).acked.size(), ReplayingSpout.ledger(run.control()).acked.size()));
    }
    return text.toString();
  }
}
