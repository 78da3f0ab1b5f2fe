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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import org.apache.iceberg.Table;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.iceberg.examples.IcebergKafkaExampleTopology;
import org.apache.storm.iceberg.testing.KafkaBroker;
import org.apache.storm.iceberg.testing.KafkaTopologies;
import org.apache.storm.utils.NimbusClient;

/**
 * The three {@code kill -9}s of {@link RealClusterKafkaIT}, and what the table and the consumer
 * group held at each: the worker that runs sink tasks only, the worker that also runs the spout,
 * then the first again. Each kill waits for a commit of one of the victim's sink tasks since the
 * last restart (so the victim holds the stream's tuples), and each waits for the Supervisor to
 * restart the victim. With the changelog sink, each victim runs tasks of it too: they die with the
 * worker, whatever they hold (waiting for their commits as well would only wait out the time a
 * restarted changelog task holds changes back behind the gap its predecessor left).
 */
final class KafkaKills {
  static final String SPOUT = IcebergKafkaExampleTopology.SPOUT;
  static final String SINK = IcebergKafkaExampleTopology.SINK;
  static final String CHANGES_SINK = IcebergKafkaExampleTopology.CHANGES_SINK;

  private final ClusterSession session;
  private final KafkaBroker broker;
  private final Table table;
  /** Whether the topology has the changelog sink. */
  private final boolean changelog;
  private final String topic;
  private final long records;
  private final List<String> kills = new ArrayList<>();
  private final List<Long> rowsAtKills = new ArrayList<>();
  private int spoutPort = -1;
  private int sinkOnlyPort = -1;
  /** Rows the table held beyond the group's committed offsets when the spout's worker died: read again. */
  private long heldBeyondCommittedAtSpoutKill = -1;

  KafkaKills(ClusterSession session, KafkaBroker broker, Table table, boolean changelog, String topic, long records) {
    this.session = session;
    this.broker = broker;
    this.table = table;
    this.changelog = changelog;
    this.topic = topic;
    this.records = records;
  }

  /** Kills the sink-only worker, the spout's worker, then the sink-only one again; {@code since}: the submission. */
  void killThreeTimes(NimbusClient nimbus, Map<Integer, Set<String>> componentsPerPort, long since) throws Exception {
    for (Map.Entry<Integer, Set<String>> worker : componentsPerPort.entrySet()) {
      if (worker.getValue().contains(SPOUT)) {
        spoutPort = worker.getKey();
      } else if (worker.getValue().contains(SINK)) {
        sinkOnlyPort = worker.getKey();
      }
    }
    assertThat(spoutPort != -1 && sinkOnlyPort != -1 && componentsPerPort.get(spoutPort).contains(SINK))
        .as("one worker runs the spout and sink tasks, the other sink tasks without the spout: %s", componentsPerPort).isTrue();
    long lastRestart = since;
    for (int port : List.of(sinkOnlyPort, spoutPort, sinkOnlyPort)) {
      lastRestart = killAfterACommit(nimbus, port, lastRestart);
    }
  }

  /**
   * Kills the worker on {@code port} once one of its sink tasks committed since {@code since} (and,
   * for the spout's worker, once the table holds records beyond the group's committed offsets, which
   * the restarted spout reads again); returns when the Supervisor restarted it.
   */
  private long killAfterACommit(NimbusClient nimbus, int port, long since) throws Exception {
    Set<String> taskIndices = sinkTaskIndices(nimbus, port, SINK);
    Set<String> changesIndices = changelog ? sinkTaskIndices(nimbus, port, CHANGES_SINK) : Set.of();
    boolean spout = port == spoutPort;
    long[] rowsAndCommitted = session.await("a commit of sink task " + taskIndices + " on port " + port + " since the last restart"
        + (spout ? ", and rows in the table beyond the group's committed offsets" : ""), Duration.ofMinutes(2), () -> {
          table.refresh();
          for (var snapshot : table.snapshots()) {
            if (snapshot.timestampMillis() >= since && taskIndices.contains(snapshot.summary().get("storm.iceberg.task-index"))) {
              long rows = KafkaTopologies.rowsInTable(table);
              // Read after the rows: what the group committed is then no more than what the table held.
              long committed = committedOffsets();
              return !spout || rows > committed ? Optional.of(new long[] {rows, committed}) : Optional.empty();
            }
          }
          return Optional.empty();
        });
    long rows = rowsAndCommitted[0];
    long committed = rowsAndCommitted[1];
    long victim = session.await("the worker on port " + port, Duration.ofMinutes(1),
        () -> Optional.ofNullable(session.workers.poll().get(port)));
    StormWorkers.killMinus9(victim);
    rowsAtKills.add(rows);
    if (spout) {
      heldBeyondCommittedAtSpoutKill = rows - committed;
    }
    String kill = "port " + port + (spout ? " (spout and sink" : " (sink only") + " tasks " + taskIndices
        + (changelog ? ", changelog sink tasks " + changesIndices : "") + ") at " + rows + " rows, group offsets " + committed;
    kills.add(kill);
    ClusterSession.log("kill -9 of worker pid " + victim + " on " + kill);
    session.await("the Supervisor to restart the worker on port " + port, Duration.ofMinutes(2),
        () -> Optional.ofNullable(session.workers.poll().get(port)).filter(pid -> pid != victim));
    return System.currentTimeMillis();
  }

  /** The sum of the offsets the spout's consumer group committed on the topic: how many records it has seen acked. */
  long committedOffsets() throws Exception {
    try (Admin admin = broker.admin()) {
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin.listConsumerGroupOffsets(IcebergKafkaExampleTopology.GROUP).partitionsToOffsetAndMetadata().get();
      return offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
          .mapToLong(e -> e.getValue().offset()).sum();
    } catch (ExecutionException noGroupYet) {
      return 0;
    }
  }

  /** Checks that each kill fell mid-stream and cost what it should. */
  void assertKilledMidStream() {
    assertThat(kills).as("kills").hasSize(3);
    assertThat(rowsAtKills).as("rows in the table at each kill: the stream still ran").allSatisfy(rows -> assertThat(rows).isLessThan(records));
    assertThat(heldBeyondCommittedAtSpoutKill)
        .as("records the table held beyond the group's committed offsets when the spout's worker died (read again)").isPositive();
    assertThat(session.workers.seen().get(sinkOnlyPort)).as("worker pids on the sink-only port (killed twice)").hasSizeGreaterThanOrEqualTo(3);
    assertThat(session.workers.seen().get(spoutPort)).as("worker pids on the spout's port (killed once)").hasSizeGreaterThanOrEqualTo(2);
  }

  String report() {
    return kills + "; records read again after the spout's worker died: at least " + heldBeyondCommittedAtSpoutKill;
  }

  /** The task indices (as the sink's snapshots record them) of {@code component}'s tasks on {@code port}. */
  private static Set<String> sinkTaskIndices(NimbusClient nimbus, int port, String component) throws Exception {
    List<ExecutorSummary> sinks = new ArrayList<>();
    for (ExecutorSummary executor : nimbus.getClient().getTopologyInfoByName(IcebergKafkaExampleTopology.NAME).get_executors()) {
      if (executor.get_component_id().equals(component)) {
        sinks.add(executor);
      }
    }
    sinks.sort(Comparator.comparingInt(e -> e.get_executor_info().get_task_start()));
    Set<String> indices = new TreeSet<>();
    for (int index = 0; index < sinks.size(); index++) {
      if (sinks.get(index).get_port() == port) {
        indices.add(String.valueOf(index));
      }
    }
    assertThat(indices).as("%s tasks on port %d", component, port).isNotEmpty();
    return indices;
  }
}
