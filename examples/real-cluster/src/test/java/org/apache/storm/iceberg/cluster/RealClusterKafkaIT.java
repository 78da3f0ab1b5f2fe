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

package org.apache.storm.iceberg.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.examples.IcebergKafkaExampleTopology;
import org.apache.storm.iceberg.testing.KafkaBroker;
import org.apache.storm.iceberg.testing.KafkaTopologies;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.utils.NimbusClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once from Kafka on the real cluster: a KRaft broker in this JVM (on 127.0.0.1) holds
 * 30,000 records (values: ids 0..29,999) in 8 partitions; the examples' {@code
 * IcebergKafkaExampleTopology}, submitted in the shaded jar (which ships storm-kafka-client and
 * kafka-clients), reads them with {@code KafkaSpout} (at-least-once) into 4 {@code IcebergBolt}
 * tasks on 2 workers, grouped by topic and partition, with source positions, through a JdbcCatalog
 * on PostgreSQL. Mid-stream, three workers are killed with {@code kill -9}, each after one of its
 * sink tasks committed since the last restart: the worker that runs sink tasks only, then the one
 * that also runs the spout (once the table holds records past the group's committed offsets, which
 * the restarted spout then reads again), then the first again. Once the group's offsets reach
 * the end of every partition, every id must be in the table exactly once, counted row by row.
 */
class RealClusterKafkaIT {
  static final int PARTITIONS = 8;
  static final long RECORDS = 30_000;
  /** A killed worker's tuples replay after this long; it also bounds a batch's age at commit. */
  static final int MESSAGE_TIMEOUT_SECS = 10;
  /** Few enough that the stream outlasts three kills and their restarts. */
  static final int MAX_SPOUT_PENDING = 2_000;

  @TempDir static Path brokerDir;
  static KafkaBroker broker;

  private final RealCluster cluster = RealCluster.fromSystemProperties();
  private final ClusterSession session = new ClusterSession(cluster, IcebergKafkaExampleTopology.NAME);

  @BeforeAll
  static void startBroker() throws Exception {
    broker = KafkaBroker.start(brokerDir);
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void everyRecordIsInTheTableOnceAfterThreeSinkWorkersAndTheSpoutsAreKilledWithKillMinus9() throws Exception {
    KafkaRun run = stream(true);
    assertThat(run.missing()).as("ids missing from the table (first 20)").isEmpty();
    assertThat(run.duplicates()).as("ids in the table more than once, with their row counts (%d ids)", run.duplicates().size()).isEmpty();
    assertThat(run.outOfRange()).as("rows whose id the topic never held").isEmpty();
    assertThat(run.rows()).as("rows").isEqualTo(RECORDS);
    assertThat(run.snapshots).allSatisfy(s ->
        assertThat(s.summary()).as("summary of snapshot %s", s.snapshotId()).containsKey("storm.iceberg.commit-id"));
    assertThat(run.snapshots.stream().collect(Collectors.groupingBy(s -> s.summary().get("storm.iceberg.commit-id"), Collectors.counting())))
        .as("snapshots per commit id").allSatisfy((id, count) -> assertThat(count).as(id).isEqualTo(1L));
  }

  /** The power of the test above: the same kills without source positions write records twice. */
  @Test
  void withoutSourcePositionsTheSameKillsWriteRecordsTwice() throws Exception {
    TestTiers.controlOnly("the real-cluster Kafka run without source positions: at-least-once duplicates");
    KafkaRun run = stream(false);
    assertThat(run.missing()).as("ids missing from the table (first 20)").isEmpty();
    assertThat(run.duplicates()).as("ids in the table more than once").isNotEmpty();
  }

  /** Streams the topic through the topology while killing its workers; returns what the table holds then. */
  private KafkaRun stream(boolean positions) throws Exception {
    long started = System.nanoTime();
    String topic = "events-" + UUID.randomUUID().toString().substring(0, 8);
    broker.createTopic(topic, PARTITIONS);
    broker.produceIds(topic, PARTITIONS, RECORDS);
    Catalog catalog = CatalogUtil.buildIcebergCatalog("storm_iceberg", cluster.catalogProperties(), new org.apache.hadoop.conf.Configuration());
    TableIdentifier tableName = TableIdentifier.parse(IcebergKafkaExampleTopology.table(positions));
    // Created here, before the 4 tasks would race to create it.
    Table table = catalog.createTable(tableName, IcebergKafkaExampleTopology.SCHEMA, PartitionSpec.unpartitioned());
    KafkaKills kills = new KafkaKills(session, broker, table, topic, RECORDS);
    try (NimbusClient nimbus = session.await("Nimbus leading, with a Supervisor of 2 free slots", Duration.ofMinutes(3),
        session::nimbusWithTwoFreeSlots)) {
      long submitted = System.currentTimeMillis();
      submit(topic, positions);
      Map<Integer, Set<String>> componentsPerPort = session.await("the topology on 2 workers", Duration.ofMinutes(2),
          () -> session.assignment(nimbus));
      kills.killThreeTimes(nimbus, componentsPerPort, submitted);
      session.await("the group's offsets at the end of every partition (every record acked)", Duration.ofMinutes(4),
          () -> Optional.of(kills.committedOffsets()).filter(committed -> committed == RECORDS));
      session.kill(nimbus);
      session.await("the topology's workers gone", Duration.ofMinutes(2), () -> Optional.of(session.workers.poll()).filter(Map::isEmpty));
    } catch (Throwable failure) {
      session.printLogs();
      throw failure;
    }
    KafkaRun run = new KafkaRun(KafkaTopologies.copiesById(table), snapshots(table));
    ClusterSession.log(String.format("real cluster, Kafka (%s): %d records in %d partitions; table: %d rows, %d ids, %d ids twice or more,"
            + " %d missing, %d snapshots; kills: %s; worker pids per port %s; %d s",
        positions ? "source positions" : "at-least-once", RECORDS, PARTITIONS, run.rows(), run.copies.size(), run.duplicates().size(),
        run.missing().size(), run.snapshots.size(), kills.report(), session.workers.seen(),
        Duration.ofNanos(System.nanoTime() - started).toSeconds()));
    kills.assertKilledMidStream();
    return run;
  }

  /** Runs what {@code storm jar <jar> IcebergKafkaExampleTopology cluster <warehouse> --bootstrap-servers ... -c ...} runs. */
  private void submit(String topic, boolean positions) throws Exception {
    List<String> args = new ArrayList<>(List.of("cluster", cluster.warehouse().toString(),
        "--bootstrap-servers", broker.bootstrapServers(), "--topic", topic));
    if (!positions) {
      args.add("--at-least-once");
    }
    cluster.catalogProperties().forEach((key, value) -> args.addAll(List.of("--catalog-property", key + "=" + value)));
    Map<String, String> options = new TreeMap<>(Map.of(
        "topology.workers", "2",
        "topology.message.timeout.secs", Integer.toString(MESSAGE_TIMEOUT_SECS),
        "topology.max.spout.pending", Integer.toString(MAX_SPOUT_PENDING)));
    session.submit(IcebergKafkaExampleTopology.class.getName(), args, options);
  }

  private static List<Snapshot> snapshots(Table table) {
    table.refresh();
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    return snapshots;
  }

  /** What the table holds at the end: rows per id (every row counted) and its snapshots. */
  record KafkaRun(Map<Long, Long> copies, List<Snapshot> snapshots) {
    long rows() {
      return copies.values().stream().mapToLong(Long::longValue).sum();
    }

    Map<Long, Long> duplicates() {
      return KafkaTopologies.duplicates(copies);
    }

    List<Long> missing() {
      return LongStream.range(0, RECORDS).filter(id -> !copies.containsKey(id)).limit(20).boxed().toList();
    }

    List<Long> outOfRange() {
      return copies.keySet().stream().filter(id -> id < 0 || id >= RECORDS).toList();
    }
  }
}
