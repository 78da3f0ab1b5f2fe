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

import static org.apache.storm.iceberg.KafkaExactlyOnceLocalClusterTest.MESSAGE_TIMEOUT_SECS;
import static org.apache.storm.iceberg.KafkaExactlyOnceLocalClusterTest.PARTITIONS;
import static org.apache.storm.iceberg.KafkaExactlyOnceLocalClusterTest.PENDING;
import static org.apache.storm.iceberg.KafkaExactlyOnceLocalClusterTest.RECORDS;
import static org.apache.storm.iceberg.KafkaExactlyOnceLocalClusterTest.SINK_TASKS;
import static org.apache.storm.iceberg.KafkaExactlyOnceLocalClusterTest.SPOUT_TASKS;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.TopicPartition;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.KafkaExactlyOnceLocalClusterTest.MidStream;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.KafkaBroker;
import org.apache.storm.iceberg.testing.KafkaLedger;
import org.apache.storm.iceberg.testing.KafkaTopologies;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.OffsetCommits;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.kafka.spout.KafkaSpout;
import org.apache.storm.kafka.spout.KafkaSpoutConfig;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/** A topic of 30,000 records, a table, and the topology between them. */
final class KafkaSinkRun {
  final String id = UUID.randomUUID().toString().substring(0, 8);
  final String topic = "events-" + id;
  final String group = "storm-iceberg-" + id;
  final String name = "kafka-" + id;
  final Faults faults = Faults.create();
  final Map<String, String> catalogProperties;
  final boolean positions;
  private final KafkaBroker broker;
  private final LocalCluster cluster;

  KafkaSinkRun(KafkaBroker broker, LocalCluster cluster, Path dir, boolean positions) throws Exception {
    this.broker = broker;
    this.cluster = cluster;
    this.catalogProperties = TestCatalogs.jdbcSqlite(dir);
    this.positions = positions;
    long start = System.nanoTime();
    broker.createTopic(topic, PARTITIONS);
    broker.produceIds(topic, PARTITIONS, RECORDS);
    System.out.printf("%d records in %d partitions produced in %d ms%n", RECORDS, PARTITIONS,
        (System.nanoTime() - start) / 1_000_000);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    catalog.createTable(TableIdentifier.of("db", "events"), KafkaTopologies.SCHEMA, PartitionSpec.unpartitioned());
  }

  Table table() {
    return TestCatalogs.load(catalogProperties).loadTable(TableIdentifier.of("db", "events"));
  }

  KafkaLedger ledger() {
    return KafkaLedger.of(name);
  }

  IcebergOptions options() {
    IcebergOptions.Builder options = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(FaultInjectingCatalog.properties(catalogProperties, faults))
        .withTable("db.events")
        .withCommitIntervalRecords(600)
        .withCommitIntervalMillis(1_000)
        .withTickIntervalSecs(1)
        .withCommitDeadlineMarginMillis(3_000);
    if (positions) {
      options.withSourcePositions("kafka", Map.of("bootstrap.servers", broker.bootstrapServers()));
    }
    return options.build();
  }

  TopologyBuilder topology(KafkaSpoutConfig<Long, Long> spoutConfig) {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("kafka", new KafkaSpout<>(spoutConfig), SPOUT_TASKS);
    builder.setBolt("iceberg", new IcebergBolt(options()), SINK_TASKS).fieldsGrouping("kafka", new Fields("topic", "partition"));
    return builder;
  }

  /**
   * Runs the topology until a third of the records are in the table, kills it, and waits until its
   * spout closed; returns the offsets the group had committed when the kill began. A kill in
   * LocalCluster lets the spout commit what was acked (at deactivate and close), which a crash (a
   * worker killed with kill -9) never does: those commits are undone, so the group holds what it
   * held when the kill began.
   */
  Map<TopicPartition, Long> killMidStream() throws Exception {
    OffsetCommits commits = OffsetCommits.of(group);
    KafkaSpoutConfig<Long, Long> spoutConfig = KafkaTopologies.spoutConfig(broker.bootstrapServers(), topic, group, name)
        .setOffsetCommitPeriodMs(3_600_000).build();
    cluster.submitTopology(name, LocalClusterRuns.config(), topology(spoutConfig).createTopology());
    Map<TopicPartition, Long> committedAtKill;
    int commitsBeforeKill;
    try {
      Deadline.await(Duration.ofSeconds(180), () -> KafkaTopologies.rowsInTable(table()) >= RECORDS / 3,
          () -> "a third of the records in the table");
      commitsBeforeKill = commits.commits.size();
      committedAtKill = commits.committed();
    } finally {
      KafkaTopologies.kill(cluster, name);
    }
    Deadline.await(Duration.ofSeconds(60), () -> commits.closed.get() == SPOUT_TASKS, () -> "the killed spout's consumers closed");
    assertThat(ledger().acked.size()).as("killed mid-stream").isLessThan((int) RECORDS);
    System.out.printf("offset commits before the kill %d, after it %d%n", commitsBeforeKill,
        commits.commits.size() - commitsBeforeKill);
    broker.resetGroupOffsets(group, committedAtKill);
    return committedAtKill;
  }

  /**
   * Submits the topology again under {@code newName} (the same name, or a versioned one as operators
   * redeploy), same consumer group, table and WAL namespace, until its spout saw every record acked.
   */
  void submitAgainAs(String newName) throws Exception {
    String ledgerKey = newName + "-again";
    KafkaSpoutConfig<Long, Long> spoutConfig = KafkaTopologies.spoutConfig(broker.bootstrapServers(), topic, group, ledgerKey)
        .setOffsetCommitPeriodMs(1_000).build();
    cluster.submitTopology(newName, LocalClusterRuns.config(), topology(spoutConfig).createTopology());
    try {
      Deadline.await(Duration.ofSeconds(180), () -> KafkaLedger.of(ledgerKey).acked.size() == RECORDS,
          () -> "every record acked again; acked " + KafkaLedger.of(ledgerKey).acked.size());
    } finally {
      KafkaTopologies.kill(cluster, newName);
    }
  }

  /**
   * A blue/green switch: topology {@code <name>-blue} streams until a third of the records are in
   * the table; {@code <name>-green}, another name on the same consumer group, table and WAL
   * namespace, starts beside it, reading the same partitions (storm-kafka-client assigns partitions
   * per topology); once green has acked records and two thirds are in, blue is killed, and green
   * runs until every record was acked by one or the other. Few tuples in flight, so blue is still
   * streaming when green joins.
   *
   * @return the ledgers of blue and green
   */
  List<KafkaLedger> blueGreen() throws Exception {
    String blue = name + "-blue";
    String green = name + "-green";
    Config conf = LocalClusterRuns.config();
    conf.setMaxSpoutPending(300);
    submit(blue, conf);
    try {
      Deadline.await(Duration.ofSeconds(180), () -> KafkaTopologies.rowsInTable(table()) >= RECORDS / 3,
          () -> "a third of the records in the table");
      submit(green, conf);
      Deadline.await(Duration.ofSeconds(120),
          () -> !KafkaLedger.of(green).acked.isEmpty() && KafkaTopologies.rowsInTable(table()) >= 2 * RECORDS / 3,
          () -> "green acking records beside blue, two thirds in the table; green acked " + KafkaLedger.of(green).acked.size());
    } finally {
      KafkaTopologies.kill(cluster, blue);
    }
    try {
      Deadline.await(Duration.ofSeconds(180), () -> ackedByEither(blue, green) == RECORDS,
          () -> "every record acked by blue or green; " + ackedByEither(blue, green));
    } finally {
      KafkaTopologies.kill(cluster, green);
    }
    return List.of(KafkaLedger.of(blue), KafkaLedger.of(green));
  }

  private void submit(String topologyName, Config conf) throws Exception {
    KafkaSpoutConfig<Long, Long> spoutConfig = KafkaTopologies.spoutConfig(broker.bootstrapServers(), topic, group, topologyName)
        .setOffsetCommitPeriodMs(1_000).build();
    cluster.submitTopology(topologyName, conf, topology(spoutConfig).createTopology());
  }

  private static int ackedByEither(String blue, String green) {
    java.util.Set<String> acked = new java.util.HashSet<>(KafkaLedger.of(blue).acked);
    acked.addAll(KafkaLedger.of(green).acked);
    return acked.size();
  }

  /** Runs the topology, doing {@code midStream} while it streams, until the spout saw every record acked. */
  void streamWith(MidStream midStream) throws Exception {
    Config conf = LocalClusterRuns.config();
    conf.setMessageTimeoutSecs(MESSAGE_TIMEOUT_SECS);
    conf.setMaxSpoutPending(PENDING);
    KafkaSpoutConfig<Long, Long> spoutConfig =
        KafkaTopologies.spoutConfig(broker.bootstrapServers(), topic, group, name).setOffsetCommitPeriodMs(1_000).build();
    cluster.submitTopology(name, conf, topology(spoutConfig).createTopology());
    try {
      Deadline.await(Duration.ofSeconds(60), () -> faults.realCommits.get() > 0, () -> "a first commit");
      if (midStream != MidStream.CATALOG_FAULTS) {
        slowCommit();
      }
      if (midStream != MidStream.A_SLOW_COMMIT) {
        catalogFaults();
      }
      Deadline.await(Duration.ofSeconds(180), () -> ledger().acked.size() == RECORDS,
          () -> "every record acked; acked " + ledger().acked.size() + ", retries " + ledger().retries.get());
    } finally {
      KafkaTopologies.kill(cluster, name);
    }
  }

  /**
   * The next commit lasts until the spout has replayed tuples after a message timeout (between one
   * and two timeouts after their emit), and some more: the tuples its batch holds replay.
   */
  private void slowCommit() throws Exception {
    AtomicBoolean started = new AtomicBoolean();
    faults.duringCommit = () -> {
      if (started.compareAndSet(false, true)) {
        try {
          int before = ledger().retries.get();
          Deadline.await(Duration.ofSeconds(4L * MESSAGE_TIMEOUT_SECS), () -> ledger().retries.get() > before,
              () -> "the spout replaying tuples after a message timeout");
          Thread.sleep(1_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (AssertionError e) {
          // No replay came: the test's own check of the spout's retries says so.
        }
      }
    };
    Deadline.await(Duration.ofSeconds(60), started::get, () -> "the slow commit");
  }

  /** Two commits fail before they apply, two lose their answers after they applied, one answers an error and applies late. */
  private void catalogFaults() throws Exception {
    inject(Faults.CommitFault.FAIL_BEFORE, 2);
    inject(Faults.CommitFault.UNKNOWN_AFTER, 2);
    faults.late.delayMillis = 200;
    inject(Faults.CommitFault.ERROR_APPLIED_LATE, 1);
    Deadline.await(Duration.ofSeconds(60), () -> faults.late.scheduled.get() == 1 && faults.late.settled(),
        () -> "the late commit reached the catalog");
  }

  private void inject(Faults.CommitFault fault, int times) throws Exception {
    int before = faults.injected.get();
    faults.inject(fault, times);
    Deadline.await(Duration.ofSeconds(60), () -> faults.injected.get() == before + times,
        () -> times + " × " + fault + " injected; " + (faults.injected.get() - before) + " so far");
  }
}
