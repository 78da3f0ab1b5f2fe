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
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.common.TopicPartition;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.KafkaBroker;
import org.apache.storm.iceberg.testing.KafkaLedger;
import org.apache.storm.iceberg.testing.KafkaTopologies;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestTiers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Exactly-once from a real Kafka: a KRaft broker in this JVM holds 30,000 records (their values are
 * ids 0..29,999) in four partitions; storm-kafka-client's KafkaSpout (at-least-once, two tasks)
 * feeds an IcebergBolt of three tasks, grouped by topic and partition, with source positions, on a
 * JDBC (SQLite) catalog that injects faults. Every id must be in the table exactly once, counted
 * row by row.
 */
@ExtendWith(SharedLocalCluster.class)
class KafkaExactlyOnceLocalClusterTest {
  static final int PARTITIONS = 4;
  static final long RECORDS = 30_000;
  static final int SPOUT_TASKS = 2;
  static final int SINK_TASKS = 3;
  /**
   * Short, so that one slow commit outlasts it (Storm replays between one and two timeouts after the
   * emit); {@link #PENDING} keeps what is in flight well within it, or replays would feed replays.
   */
  static final int MESSAGE_TIMEOUT_SECS = 8;
  static final int PENDING = 1_000;

  @TempDir static Path brokerDir;
  static KafkaBroker broker;
  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void startBroker(LocalCluster shared) throws Exception {
    cluster = shared;
    long start = System.nanoTime();
    broker = KafkaBroker.start(brokerDir);
    System.out.printf("Kafka broker serving in %d ms%n", (System.nanoTime() - start) / 1_000_000);
  }

  @AfterAll
  static void stopBroker() throws InterruptedException {
    if (broker != null) {
      LocalClusterRuns.awaitNoWorkers();
      broker.close();
    }
  }

  /** What goes wrong mid-stream. */
  enum MidStream {
    /** Both below, at once. */
    CATALOG_FAULTS_AND_A_SLOW_COMMIT,
    /** Commits fail before they apply, lose their answers after they applied, answer an error and apply late. */
    CATALOG_FAULTS,
    /** One commit outlasts the message timeout: the spout replays what its batch holds. */
    A_SLOW_COMMIT
  }

  /** Both tiers run every fault at once; each alone runs with {@code -Dtests.controls=true}. */
  @ParameterizedTest
  @EnumSource(MidStream.class)
  void faultsAndMessageTimeoutsMidStreamLeaveEveryRecordOnce(MidStream midStream) throws Exception {
    if (midStream != MidStream.CATALOG_FAULTS_AND_A_SLOW_COMMIT) {
      TestTiers.controlOnly("one of the faults the first case runs together, alone");
    }
    KafkaSinkRun run = new KafkaSinkRun(broker, cluster, dir, true);
    run.streamWith(midStream);
    Map<Long, Long> copies = KafkaTopologies.copiesById(run.table());
    System.out.printf("%s: spout retries %d, rows %d, ids %d, duplicates %d%n", midStream, run.ledger().retries.get(),
        copies.values().stream().mapToLong(Long::longValue).sum(), copies.size(), KafkaTopologies.duplicates(copies).size());
    assertThat(copies.keySet()).as("every id in the table")
        .containsExactlyElementsOf(LongStream.range(0, RECORDS).boxed().collect(Collectors.toList()));
    assertThat(KafkaTopologies.duplicates(copies)).as("ids in the table more than once").isEmpty();
    if (midStream != MidStream.CATALOG_FAULTS) {
      assertThat(run.ledger().retries.get()).as("the slow commit made the spout replay").isPositive();
    }
  }

  /** The power of the test above: the same run without source positions duplicates what the spout replayed. */
  @ParameterizedTest
  @EnumSource(value = MidStream.class, names = "CATALOG_FAULTS_AND_A_SLOW_COMMIT")
  void withoutSourcePositionsTheSameRunDuplicates(MidStream midStream) throws Exception {
    TestTiers.controlOnly("the test above without source positions: at-least-once duplicates");
    KafkaSinkRun run = new KafkaSinkRun(broker, cluster, dir, false);
    run.streamWith(midStream);
    Map<Long, Long> copies = KafkaTopologies.copiesById(run.table());
    System.out.printf("without source positions, %s: duplicates %d%n", midStream, KafkaTopologies.duplicates(copies).size());
    assertThat(copies.keySet()).hasSize((int) RECORDS);
    assertThat(KafkaTopologies.duplicates(copies)).as("ids in the table more than once").isNotEmpty();
  }

  /**
   * A topology killed mid-stream, after some of its commits landed and before its spout committed
   * the offsets they hold, then submitted again on the same consumer group, under its own name or a
   * new one (operators redeploy under versioned names): the spout reads again what the table holds,
   * and the sink skips it. Before positions left the topology's name out of their scope, the renamed
   * run wrote every committed record again (15,500 duplicates of 20,000 in the first report).
   */
  @ParameterizedTest
  @CsvSource({"true, false", "true, true", "false, true"})
  void aTopologyKilledBeforeItsSpoutCommittedAndSubmittedAgainWritesEveryRecordOnce(boolean positions, boolean renamed)
      throws Exception {
    if (positions && !renamed) {
      TestTiers.controlOnly("the renamed case covers a resubmission under the same name too: the scope has no name");
    } else if (positions) {
      TestTiers.longTierOnly("the quick tier proves Kafka exactly-once under faults and timeouts, and SourcePositionsTest"
          + " a renamed topology at task level; the kill runs in the long tier");
    } else {
      TestTiers.controlOnly("the test with source positions, without them: at-least-once duplicates");
    }
    KafkaSinkRun run = new KafkaSinkRun(broker, cluster, dir, positions);
    Map<TopicPartition, Long> committedAtKill = run.killMidStream();
    long rowsAtKill = KafkaTopologies.rowsInTable(run.table());
    long offsetsCommittedAtKill = committedAtKill.values().stream().mapToLong(Long::longValue).sum();
    assertThat(rowsAtKill).as("the table holds records whose offsets the group had not committed")
        .isGreaterThan(offsetsCommittedAtKill);
    String again = renamed ? run.name + "-v2" : run.name;
    run.submitAgainAs(again);
    Map<Long, Long> copies = KafkaTopologies.copiesById(run.table());
    System.out.printf("kill and resubmit (positions %s, renamed %s): rows at kill %d, offsets committed %d, re-emitted %d,"
            + " duplicates %d%n", positions, renamed, rowsAtKill, offsetsCommittedAtKill,
        KafkaLedger.of(again + "-again").emits.get(), KafkaTopologies.duplicates(copies).size());
    assertThat(KafkaLedger.of(again + "-again").emits.get()).as("the second run read again what the table held")
        .isGreaterThanOrEqualTo((int) (RECORDS - offsetsCommittedAtKill));
    assertThat(copies.keySet()).as("every id in the table")
        .containsExactlyElementsOf(LongStream.range(0, RECORDS).boxed().collect(Collectors.toList()));
    if (positions) {
      assertThat(KafkaTopologies.duplicates(copies)).as("ids in the table more than once").isEmpty();
    } else {
      assertThat(KafkaTopologies.duplicates(copies)).as("ids in the table more than once").isNotEmpty();
    }
  }

  /**
   * Blue/green: two topologies under different names on one consumer group and table overlap for a
   * while. storm-kafka-client assigns partitions to a topology's spout tasks itself, not through the
   * group's rebalancing, so both read every partition while they overlap: each record reaches the
   * table through two topologies at once. Each partition's offsets are validated at commit against
   * the sink's positions, whichever topology commits them, so every record lands once.
   */
  @Test
  void blueGreenTopologiesUnderTwoNamesOverlapAndEveryRecordLandsOnce() throws Exception {
    TestTiers.longTierOnly("SourcePositionsTest proves at task level that two tasks owning one partition commit it once");
    KafkaSinkRun run = new KafkaSinkRun(broker, cluster, dir, true);
    List<KafkaLedger> ledgers = run.blueGreen();
    KafkaLedger blue = ledgers.get(0);
    KafkaLedger green = ledgers.get(1);
    java.util.Set<String> ackedByBoth = new java.util.HashSet<>(blue.acked);
    ackedByBoth.retainAll(green.acked);
    Map<Long, Long> copies = KafkaTopologies.copiesById(run.table());
    System.out.printf("blue/green: blue acked %d, green acked %d, both %d, green's assignments %s, duplicates %d%n",
        blue.acked.size(), green.acked.size(), ackedByBoth.size(), green.assignments, KafkaTopologies.duplicates(copies).size());
    assertThat(blue.acked).as("blue streamed").isNotEmpty();
    assertThat(green.acked).as("green streamed").isNotEmpty();
    assertThat(ackedByBoth).as("records both topologies read and acked: one wrote each, the other skipped it").isNotEmpty();
    assertThat(copies.keySet()).as("every id in the table")
        .containsExactlyElementsOf(LongStream.range(0, RECORDS).boxed().collect(Collectors.toList()));
    assertThat(KafkaTopologies.duplicates(copies)).as("ids in the table more than once").isEmpty();
  }
}
