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
import java.util.List;
import java.util.stream.Collectors;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.utils.NimbusClient;
import org.junit.jupiter.api.Test;

/**
 * The examples' shaded topology jar on a real Storm cluster that {@code cluster.sh start} left
 * running (ZooKeeper, Nimbus, Supervisor, PostgreSQL; all on 127.0.0.1): submitted as {@code storm
 * jar} does, writing through a JdbcCatalog on PostgreSQL. While it streams, the worker that runs
 * only sink tasks is killed with {@code kill -9}; the Supervisor restarts it, the spout replays
 * what timed out, and in the end every id is in the table: no row is lost. Duplicates from the
 * replay are allowed, counted and reported.
 */
class RealClusterIT {
  static final String TOPOLOGY = "iceberg-example";
  static final String MAIN_CLASS = "org.apache.storm.iceberg.examples.IcebergBoltExampleTopology";
  static final TableIdentifier TABLE = TableIdentifier.parse("examples.events");
  static final String CATALOG_NAME = "storm_iceberg"; // IcebergOptions.DEFAULT_CATALOG_NAME: the examples' catalog name
  static final String SPOUT = "events";
  static final String SINK = "iceberg";
  static final int MESSAGE_TIMEOUT_SECS = 15;

  private final RealCluster cluster = RealCluster.fromSystemProperties();
  private final long events = Long.getLong("cluster.events", 30_000);
  private final ClusterSession session = new ClusterSession(cluster, TOPOLOGY);
  private final StormWorkers workers = session.workers;

  @Test
  void everyIdIsInTheTableAfterASinkWorkerIsKilledWithKillMinus9() throws Exception {
    long started = System.nanoTime();
    try {
      // The catalog exists before any topology writes to it, as in production: creating its
      // tables here keeps the workers' tasks from racing to create them.
      Catalog catalog = CatalogUtil.buildIcebergCatalog(CATALOG_NAME, cluster.catalogProperties(), new org.apache.hadoop.conf.Configuration());
      EventsTable table = new EventsTable(catalog, TABLE);
      try (NimbusClient nimbus = await("Nimbus leading, with a Supervisor of 2 free slots", Duration.ofMinutes(2), session::nimbusWithTwoFreeSlots)) {
        submit();
        Map<Integer, Set<String>> componentsPerPort = await("the topology on 2 workers", Duration.ofMinutes(2), () -> session.assignment(nimbus));
        int victimPort = componentsPerPort.entrySet().stream()
            .filter(e -> e.getValue().contains(SINK) && !e.getValue().contains(SPOUT))
            .map(Map.Entry::getKey).findFirst()
            .orElseThrow(() -> new AssertionError("no worker runs sink tasks without the spout: " + componentsPerPort));
        long victim = await("the worker on port " + victimPort, Duration.ofMinutes(2), () -> Optional.ofNullable(workers.poll().get(victimPort)));

        // The victim's own first commit proves it receives the stream, so the kill finds its next
        // batch open (the spout's local sink task can commit before the remote one has any tuple).
        String victimTaskIndex = String.valueOf(sinkTaskIndex(nimbus, victimPort));
        EventsTable.Count beforeKill = await("the first commit of the sink task (index " + victimTaskIndex + ") on port " + victimPort,
            Duration.ofMinutes(2), () -> {
          EventsTable.Count count = table.count(events);
          boolean victimCommitted = count.snapshots().stream()
              .anyMatch(s -> victimTaskIndex.equals(s.summary().get("storm.iceberg.task-index")));
          return victimCommitted ? Optional.of(count) : Optional.empty();
        });
        assertThat(beforeKill.complete()).as("the stream must still run when the worker is killed; raise cluster.events").isFalse();
        StormWorkers.killMinus9(victim);
        log("killed worker pid " + victim + " on port " + victimPort + " (components " + componentsPerPort.get(victimPort)
            + ") with kill -9; the table then held " + beforeKill);

        long restarted = await("the Supervisor to restart the worker on port " + victimPort, Duration.ofMinutes(2),
            () -> Optional.ofNullable(workers.poll().get(victimPort)).filter(pid -> pid != victim));
        log("worker on port " + victimPort + " restarted as pid " + restarted);

        long[] ackedAndFailed = await("the spout to see all " + events + " ids acked", Duration.ofMinutes(4), () -> spoutAcks(nimbus));
        EventsTable.Count after = table.count(events);
        report(started, after, ackedAndFailed);

        // The replays are what the spout emitted beyond the ids.
        assertThat(ackedAndFailed[2] - events).as("ids the spout emitted again: the kill must cost tuples in flight").isPositive();
        assertThat(after.firstMissing()).as("ids missing from the table").isEmpty();
        assertThat(after.complete()).as("every id is in the table: %s", after).isTrue();
        assertThat(after.outOfRange()).as("rows with ids the spout never sent").isZero();
        assertThat(after.snapshots()).allSatisfy(snapshot ->
            assertThat(snapshot.summary()).as("summary of snapshot %s", snapshot.snapshotId()).containsKey("storm.iceberg.commit-id"));
        assertThat(after.snapshots().stream()
                .collect(Collectors.groupingBy(s -> s.summary().get("storm.iceberg.commit-id"), Collectors.counting())))
            .as("snapshots per commit id").allSatisfy((id, count) -> assertThat(count).as(id).isEqualTo(1L));
        assertThat(workers.seen().get(victimPort)).as("worker pids on the killed worker's port").hasSizeGreaterThanOrEqualTo(2);
        assertThat(workers.seen()).as("worker pids per port: the spout's worker never restarted")
            .allSatisfy((port, pids) -> assertThat(port == victimPort || pids.size() == 1).isTrue());
        session.kill(nimbus);
      }
    } catch (Throwable failure) {
      session.printLogs();
      throw failure;
    }
  }

  /** Runs what {@code storm jar <jar> IcebergBoltExampleTopology cluster <warehouse> <events> ... -c ...} runs. */
  private void submit() throws Exception {
    List<String> args = new ArrayList<>(List.of("cluster", cluster.warehouse().toString(), Long.toString(events)));
    cluster.catalogProperties().forEach((key, value) -> args.addAll(List.of("--catalog-property", key + "=" + value)));
    Map<String, String> options = new TreeMap<>(Map.of(
        "topology.workers", "2",
        // Tuples the killed worker held time out and replay after this long: shorter than the example's 60 s.
        "topology.message.timeout.secs", Integer.toString(MESSAGE_TIMEOUT_SECS),
        // Exact spout ack counts in the topology's stats, to know when every id is acked.
        "topology.stats.sample.rate", "1.0",
        // Spread the stream evenly over both workers' sink tasks. Load-aware shuffling keeps tuples on
        // the spout's own worker while its sink task keeps up, and then the killed worker holds
        // nothing in flight and the kill tests nothing.
        "topology.disable.loadaware.messaging", "true",
        // Fewer pending tuples than a batch's 5,000 records: batches seal on their 2 s age, so at
        // any moment each sink task holds an open batch of un-acked tuples for the kill to cost.
        "topology.max.spout.pending", "2000"));
    session.submit(MAIN_CLASS, args, options);
  }

  /** The task index (position among the sink's tasks, as its snapshots record it) of the sink task on {@code port}. */
  private int sinkTaskIndex(NimbusClient nimbus, int port) throws Exception {
    List<ExecutorSummary> sinks = new ArrayList<>();
    for (ExecutorSummary executor : nimbus.getClient().getTopologyInfoByName(TOPOLOGY).get_executors()) {
      if (executor.get_component_id().equals(SINK)) {
        sinks.add(executor);
      }
    }
    sinks.sort(java.util.Comparator.comparingInt(e -> e.get_executor_info().get_task_start()));
    for (int index = 0; index < sinks.size(); index++) {
      if (sinks.get(index).get_port() == port) {
        return index;
      }
    }
    throw new AssertionError("no " + SINK + " task on port " + port);
  }

  /** {acked, failed, emitted} of the spout (all time), once acked reaches {@code events}. */
  private Optional<long[]> spoutAcks(NimbusClient nimbus) throws Exception {
    long acked = 0;
    long failed = 0;
    long emitted = 0;
    for (ExecutorSummary executor : nimbus.getClient().getTopologyInfoByName(TOPOLOGY).get_executors()) {
      if (executor.get_component_id().equals(SPOUT) && executor.is_set_stats() && executor.get_stats().get_specific().is_set_spout()) {
        var spout = executor.get_stats().get_specific().get_spout();
        acked += spout.get_acked().getOrDefault(":all-time", Map.of()).values().stream().mapToLong(Long::longValue).sum();
        failed += spout.get_failed().getOrDefault(":all-time", Map.of()).values().stream().mapToLong(Long::longValue).sum();
        emitted += executor.get_stats().get_emitted().getOrDefault(":all-time", Map.of()).getOrDefault("default", 0L);
      }
    }
    return acked >= events ? Optional.of(new long[] {acked, failed, emitted}) : Optional.empty();
  }

  private void report(long started, EventsTable.Count after, long[] ackedAndFailed) {
    log(String.format(
        "real cluster: %d ids sent, %d acked, %d failed (timed out or failed), %d emitted again (replays); table: %s; worker restarts %d (pids per port %s); %d s",
        events, ackedAndFailed[0], ackedAndFailed[1], ackedAndFailed[2] - events, after, workers.restarts(), workers.seen(),
        Duration.ofNanos(System.nanoTime() - started).toSeconds()));
  }

  private <T> T await(String what, Duration timeout, Callable<Optional<T>> probe) throws Exception {
    return session.await(what, timeout, probe);
  }

  private static void log(String message) {
    ClusterSession.log(message);
  }
}
