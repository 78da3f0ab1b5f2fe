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
 * 30,000 records (values: ids 0..29,999; keys: id % 1,000) in 8 partitions; the examples' {@code
 * IcebergKafkaExampleTopology --changelog}, submitted in the shaded jar (which ships
 * storm-kafka-client and kafka-clients), reads them with {@code KafkaSpout} (at-least-once) into 4
 * {@code IcebergBolt} tasks that append them and 2 that keep them as a changelog (a key's row holds
 * its newest value; every value divisible by 7 deletes its key), on 2 workers, all grouped by topic
 * and partition, with source positions, through a JdbcCatalog on PostgreSQL. Mid-stream, three
 * workers are killed with {@code kill -9} (tasks of both sinks with each), each after one of its
 * append tasks committed since the last restart: the worker that runs sink tasks only, then the
 * one that also runs the spout (once the table holds records past the group's committed offsets,
 * which the restarted spout then reads again), then the first again. Once the group's offsets reach the end of every partition,
 * every id must be in the append table exactly once, counted row by row, and the changelog table,
 * read back with its deletes applied, must equal a model of the source, key by key.
 */
class RealClusterKafkaIT {
  static final int PARTITIONS = 8;
  static final long RECORDS = 30_000;
  /** Record {@code id}'s key is {@code id % KEYS}: a multiple of {@link #PARTITIONS}, so a key's records share a partition. */
  static final long KEYS = 1_000;
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
    assertOneSnapshotPerCommitId(run.snapshots);

    ChangesTable.Comparison changes = run.changes();
    assertThat(changes.wrong()).as("keys whose row holds another value than the model's: table value instead of the model's").isEmpty();
    assertThat(changes.missing()).as("keys the model holds and the table lacks").isEmpty();
    assertThat(changes.extra()).as("keys the table holds and the model deleted").isEmpty();
    assertThat(changes.twice()).as("keys in more than one row, with their values").isEmpty();
    assertThat(changes.rows()).as("changelog rows").isEqualTo(changes.modelRows()).isLessThan(KEYS);
    assertThat(changes.equalityDeletes()).as("equality deletes committed").isPositive();
    assertOneSnapshotPerCommitId(changes.snapshots());
  }

  private static void assertOneSnapshotPerCommitId(List<Snapshot> snapshots) {
    assertThat(snapshots).allSatisfy(s ->
        assertThat(s.summary()).as("summary of snapshot %s", s.snapshotId()).containsKey("storm.iceberg.commit-id"));
    assertThat(snapshots.stream().collect(Collectors.groupingBy(s -> s.summary().get("storm.iceberg.commit-id"), Collectors.counting())))
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

  /**
   * Streams the topic through the topology while killing its workers; returns what the tables hold
   * then. With source positions the topology has the changelog sink too (it needs them).
   */
  private KafkaRun stream(boolean positions) throws Exception {
    long started = System.nanoTime();
    String topic = "events-" + UUID.randomUUID().toString().substring(0, 8);
    broker.createTopic(topic, PARTITIONS);
    broker.produceIds(topic, PARTITIONS, RECORDS, KEYS);
    Catalog catalog = CatalogUtil.buildIcebergCatalog("storm_iceberg", cluster.catalogProperties(), new org.apache.hadoop.conf.Configuration());
    TableIdentifier tableName = TableIdentifier.parse(IcebergKafkaExampleTopology.table(positions));
    // Created here, before the sink tasks would race to create them.
    Table table = catalog.createTable(tableName, IcebergKafkaExampleTopology.SCHEMA, PartitionSpec.unpartitioned());
    Table changes = positions ? catalog.createTable(TableIdentifier.parse(IcebergKafkaExampleTopology.CHANGES_TABLE),
        IcebergKafkaExampleTopology.CHANGES_SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2")) : null;
    KafkaKills kills = new KafkaKills(session, broker, table, positions, topic, RECORDS);
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
    KafkaRun run = new KafkaRun(KafkaTopologies.copiesById(table), snapshots(table),
        changes == null ? null : ChangesTable.compare(changes, ChangesTable.model(RECORDS, KEYS)));
    ClusterSession.log(String.format("real cluster, Kafka (%s): %d records in %d partitions; table: %d rows, %d ids, %d ids twice or more,"
            + " %d missing, %d snapshots; %s; kills: %s; worker pids per port %s; %d s",
        positions ? "source positions" : "at-least-once", RECORDS, PARTITIONS, run.rows(), run.copies.size(), run.duplicates().size(),
        run.missing().size(), run.snapshots.size(),
        changes == null ? "no changelog" : "changelog of " + KEYS + " keys: " + run.changes + "; " + ChangesTable.sinkLog(cluster),
        kills.report(), session.workers.seen(), Duration.ofNanos(System.nanoTime() - started).toSeconds()));
    kills.assertKilledMidStream();
    return run;
  }

  /** Runs what {@code storm jar <jar> IcebergKafkaExampleTopology cluster <warehouse> --bootstrap-servers ... -c ...} runs. */
  private void submit(String topic, boolean positions) throws Exception {
    List<String> args = new ArrayList<>(List.of("cluster", cluster.warehouse().toString(),
        "--bootstrap-servers", broker.bootstrapServers(), "--topic", topic));
    args.add(positions ? "--changelog" : "--at-least-once");
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

  /** What the tables hold at the end: rows per id (every row counted) and its snapshots; the changelog against its model (or null). */
  record KafkaRun(Map<Long, Long> copies, List<Snapshot> snapshots, ChangesTable.Comparison changes) {
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
