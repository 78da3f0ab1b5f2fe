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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.TopicPartition;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.KafkaBroker;
import org.apache.storm.iceberg.testing.KafkaLedger;
import org.apache.storm.iceberg.testing.KafkaTopologies;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.OffsetCommits;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.kafka.spout.KafkaSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A Debezium-shaped change stream, end to end: JSON envelopes ({@code before}, {@code after},
 * {@code op}, {@code source.lsn}) of a keyed topic in a KRaft broker in this JVM, through
 * storm-kafka-client's KafkaSpout into a sink: an IcebergBolt in upsert mode, or the split sink
 * (IcebergWriterBolt tasks and one IcebergCommitterBolt) in changelog mode. A commit held past the
 * message timeout makes the spout replay, then the topology is killed before its spout committed its
 * offsets and submitted again under a new name. The table, read back with its deletes applied, must
 * equal the source database's final state, row for row. (IcebergBolt in changelog mode meets three
 * {@code kill -9}s on the real cluster, {@code RealClusterKafkaIT}.)
 */
@ExtendWith(SharedLocalCluster.class)
// Long tier, checked before the class starts its broker and cluster. Quick tier's proof:
// RowLevelChangesTest runs Debezium envelopes, replays and commit faults at task level.
@org.junit.jupiter.api.condition.EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
class ChangeStreamLocalClusterTest {
  static final int PARTITIONS = 4;
  static final int KEYS = 80;
  static final int EVENTS = 2_000;
  static final int MESSAGE_TIMEOUT_SECS = 8;
  static final Schema SCHEMA = new Schema(
      List.of(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "balance", Types.LongType.get())),
      Set.of(1));

  @TempDir static Path brokerDir;
  static KafkaBroker broker;
  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void startBroker(LocalCluster shared) throws Exception {
    cluster = shared;
    broker = KafkaBroker.start(brokerDir);
  }

  @AfterAll
  static void stopBroker() throws InterruptedException {
    if (broker != null) {
      LocalClusterRuns.awaitNoWorkers();
      broker.close();
    }
  }

  /** A source table's change events, as Debezium publishes them, and the state they leave. */
  record Source(List<Map.Entry<Long, String>> events, Map<Long, String> finalState) {
    static Source random(long seed) {
      Random random = new Random(seed);
      Map<Long, String> state = new TreeMap<>();
      List<Map.Entry<Long, String>> events = new ArrayList<>();
      for (int lsn = 0; lsn < EVENTS; lsn++) {
        long id = random.nextInt(KEYS);
        String before = state.containsKey(id) ? row(id, state.get(id)) : "null";
        String op;
        String after;
        if (!state.containsKey(id)) {
          op = random.nextInt(5) == 0 ? "r" : "c";
          state.put(id, "name-" + lsn);
          after = row(id, state.get(id));
        } else if (random.nextInt(4) == 0) {
          op = "d";
          state.remove(id);
          after = "null";
        } else {
          op = "u";
          state.put(id, "name-" + lsn);
          after = row(id, state.get(id));
        }
        events.add(Map.entry(id, "{\"before\":" + before + ",\"after\":" + after + ",\"op\":\"" + op
            + "\",\"ts_ms\":" + lsn + ",\"source\":{\"db\":\"bank\",\"lsn\":" + (100_000 + lsn) + "}}"));
      }
      return new Source(events, state);
    }

    private static String row(long id, String name) {
      return "{\"id\":" + id + ",\"name\":\"" + name + "\",\"balance\":" + (id * 7) + "}";
    }
  }

  /** The sink a case writes through. */
  enum Sink { ICEBERG_BOLT, SPLIT }

  static Stream<Arguments> cases() {
    return Stream.of(Arguments.of(WriteMode.UPSERT, Sink.ICEBERG_BOLT), Arguments.of(WriteMode.CHANGELOG, Sink.SPLIT));
  }

  @ParameterizedTest(name = "{0} through {1}")
  @MethodSource("cases")
  void aDebeziumTopicThroughKafkaSpoutWithReplaysAndARenamedRestartLeavesTheSourcesRows(WriteMode mode, Sink sink)
      throws Exception {
    String id = UUID.randomUUID().toString().substring(0, 8);
    String topic = "bank-accounts-" + id;
    String group = "cdc-" + id;
    Source source = Source.random(id.hashCode());
    broker.createTopic(topic, PARTITIONS);
    broker.produceKeyed(topic, PARTITIONS, source.events());

    Map<String, String> real = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(real);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bank"));
    Table table = catalog.createTable(TableIdentifier.of("bank", "accounts"), SCHEMA,
        mode == WriteMode.UPSERT ? PartitionSpec.builderFor(SCHEMA).bucket("id", 4).build() : PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, mode == WriteMode.UPSERT ? "3" : "2"));
    Faults faults = Faults.create();
    IcebergOptions options = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(FaultInjectingCatalog.properties(real, faults))
        .withTable("bank.accounts")
        .withRecordMapper("json", Map.of("field", "value", "row-path", "after,before"))
        .withWriteMode(mode)
        .withChangeFields("op", "source.lsn")
        .withSourcePositions("kafka", Map.of("bootstrap.servers", broker.bootstrapServers()))
        .withCommitIntervalRecords(300)
        .withCommitIntervalMillis(1_000)
        .withTickIntervalSecs(1)
        .withCommitDeadlineMarginMillis(3_000)
        // The committer's default interval (10 s) is refused under the 8 s message timeout.
        .withGroupCommitIntervalMillis(1_000)
        .build();
    Config conf = LocalClusterRuns.config();
    conf.setMessageTimeoutSecs(MESSAGE_TIMEOUT_SECS);
    conf.setMaxSpoutPending(500);

    // First run: a commit held past the message timeout makes the spout replay, then a kill before
    // the spout committed any offset.
    String first = "cdc-" + id;
    OffsetCommits commits = OffsetCommits.of(group);
    cluster.submitTopology(first, conf, topology(sink, options, topic, group, first, 3_600_000).createTopology());
    Map<TopicPartition, Long> killed;
    try {
      Deadline.await(Duration.ofSeconds(120), () -> faults.realCommits.get() > 0, () -> "a first commit");
      holdOneCommitUntilTheSpoutReplays(faults, KafkaLedger.of(first));
      Deadline.await(Duration.ofSeconds(60), () -> KafkaLedger.of(first).retries.get() > 0,
          () -> "the spout replaying the held batch's tuples after a message timeout");
      Deadline.await(Duration.ofSeconds(180), () -> KafkaLedger.of(first).acked.size() >= EVENTS / 2,
          () -> "half the events acked; " + KafkaLedger.of(first).acked.size());
      killed = commits.committed();
    } finally {
      KafkaTopologies.kill(cluster, first);
    }
    Map<TopicPartition, Long> committedAtKill = killed;
    // A kill in LocalCluster lets the spout commit what was acked as it closes, which kill -9 never
    // does: undo those commits once its consumers closed.
    Deadline.await(Duration.ofSeconds(60), () -> commits.closed.get() == 2, () -> "the killed spout's consumers closed");
    broker.resetGroupOffsets(group, committedAtKill);

    // Second run, under a new name: it reads again what the table holds, and skips it.
    String second = first + "-v2";
    cluster.submitTopology(second, conf, topology(sink, options, topic, group, second, 1_000).createTopology());
    try {
      Deadline.await(Duration.ofSeconds(240), () -> KafkaLedger.of(second).acked.size() == EVENTS,
          () -> "every event acked by the second run; acked " + KafkaLedger.of(second).acked.size() + ", emitted "
              + KafkaLedger.of(second).emits.get() + ", retried " + KafkaLedger.of(second).retries.get() + "; first run acked "
              + KafkaLedger.of(first).acked.size() + ", committed offsets at the kill " + committedAtKill);
    } finally {
      KafkaTopologies.kill(cluster, second);
    }

    Map<Long, String> rows = rows(table);
    System.out.printf("change stream (%s through %s): %d events, %d keys in the source, %d rows in the table, spout retries %d,"
            + " re-read after the restart %d%n", mode, sink, EVENTS, source.finalState().size(), rows.size(),
        KafkaLedger.of(first).retries.get(), KafkaLedger.of(second).emits.get());
    assertThat(KafkaLedger.of(first).retries.get()).as("the held commit made the spout replay").isPositive();
    assertThat(rows).as("the table, read back with its deletes applied, equals the source").isEqualTo(source.finalState());
    assertThat(scanTasksWithDeletes(table)).as("the reader had deletes to apply (merge on read)").isPositive();
  }

  private static TopologyBuilder topology(
      Sink sink, IcebergOptions options, String topic, String group, String ledgerKey, long commitPeriodMs) {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("kafka", new KafkaSpout<>(KafkaTopologies.jsonSpoutConfig(broker.bootstrapServers(), topic, group, ledgerKey)
        .setOffsetCommitPeriodMs(commitPeriodMs).build()), 2);
    if (sink == Sink.ICEBERG_BOLT) {
      builder.setBolt("iceberg", new IcebergBolt(options), 3).fieldsGrouping("kafka", new Fields("topic", "partition"));
    } else {
      // Writers and committer take the same options, as README says; only the committer commits.
      builder.setBolt("iceberg-writer", new IcebergWriterBolt(options), 3).fieldsGrouping("kafka", new Fields("topic", "partition"));
      builder.setBolt("iceberg-committer", new IcebergCommitterBolt(options), 1).globalGrouping("iceberg-writer");
    }
    return builder;
  }

  /** The next commit waits until the spout replayed tuples after a message timeout, then lands. */
  private static void holdOneCommitUntilTheSpoutReplays(Faults faults, KafkaLedger ledger) throws Exception {
    AtomicBoolean started = new AtomicBoolean();
    faults.duringCommit = () -> {
      if (started.compareAndSet(false, true)) {
        try {
          int before = ledger.retries.get();
          Deadline.await(Duration.ofSeconds(4L * MESSAGE_TIMEOUT_SECS), () -> ledger.retries.get() > before,
              () -> "the spout replaying after a message timeout");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (AssertionError e) {
          // No replay came: the test's check of the spout's retries says so.
        }
      }
    };
    Deadline.await(Duration.ofSeconds(60), started::get, () -> "the held commit");
  }

  private static Map<Long, String> rows(Table table) {
    table.refresh();
    Map<Long, String> rows = new TreeMap<>();
    Set<Long> seen = new HashSet<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        Long key = (Long) record.getField("id");
        assertThat(seen.add(key)).as("key %d once in the table", key).isTrue();
        rows.put(key, (String) record.getField("name"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static long scanTasksWithDeletes(Table table) throws IOException {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      long withDeletes = 0;
      for (FileScanTask task : tasks) {
        withDeletes += task.deletes().isEmpty() ? 0 : 1;
      }
      return withDeletes;
    }
  }
}
