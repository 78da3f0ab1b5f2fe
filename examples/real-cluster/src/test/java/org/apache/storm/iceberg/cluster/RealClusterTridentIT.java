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

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.Config;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.trident.topology.state.TransactionalState;
import org.apache.storm.utils.NimbusClient;
import org.junit.jupiter.api.Test;

/**
 * The examples' Trident topology ({@code IcebergTridentExampleTopology}: a transactional spout into
 * {@code IcebergTrident.persist}, state type TRANSACTIONAL) on the real cluster. The worker that
 * runs the committing state is killed with SIGKILL (kill -9) the moment the catalog shows a new
 * commit of the table: after the commit and, unless Trident's coordinator was quicker (then the
 * test kills again at a later commit, a few times at most), before Trident recorded the
 * transaction committed, as its record in ZooKeeper shows. The Supervisor restarts the worker,
 * Trident replays the transaction after its timeout, the state finds it in the table and skips it,
 * and in the end every id is in the table exactly once: zero missing, zero duplicates, counted.
 */
class RealClusterTridentIT {
  static final String TOPOLOGY = "iceberg-trident-example";
  static final String MAIN_CLASS = "org.apache.storm.iceberg.examples.IcebergTridentExampleTopology";
  static final TableIdentifier TABLE = TableIdentifier.parse("examples.events_trident");
  static final String CATALOG_NAME = "storm_iceberg";
  static final int MESSAGE_TIMEOUT_SECS = 20;
  /** Transactions committed before the kill: the stream runs steadily by then. */
  static final int COMMITS_BEFORE_KILL = 3;
  /** Kills at most, each at a commit, until one falls between the table's commit and Trident's record. */
  static final int KILL_ATTEMPTS = 3;

  private final RealCluster cluster = RealCluster.fromSystemProperties();
  private final long events = Long.getLong("cluster.trident.events", 120_000);
  private final ClusterSession session = new ClusterSession(cluster, TOPOLOGY);
  /** The transaction the table held but Trident had not recorded committed when a kill fell. */
  private long killedTxid = -1;

  @Test
  void everyIdIsInTheTableExactlyOnceAfterTheCommittingWorkerIsKilledRightAfterACommit() throws Exception {
    long started = System.nanoTime();
    try {
      Catalog catalog = CatalogUtil.buildIcebergCatalog(CATALOG_NAME, cluster.catalogProperties(), new org.apache.hadoop.conf.Configuration());
      EventsTable table = new EventsTable(catalog, TABLE);
      try (NimbusClient nimbus = session.await("Nimbus leading, with a Supervisor of 2 free slots", Duration.ofMinutes(3),
          session::nimbusWithTwoFreeSlots)) {
        String streamId = "events-" + runId(submit());
        Map<Integer, Set<String>> componentsPerPort = session.await("the topology on 2 workers", Duration.ofMinutes(2),
            () -> session.assignment(nimbus));
        EventsTable.Count first = session.await(COMMITS_BEFORE_KILL + " transactions in the table", Duration.ofMinutes(2),
            () -> Optional.of(table.count(events)).filter(c -> c.snapshots().size() >= COMMITS_BEFORE_KILL));
        assertThat(first.complete()).as("the stream must still run at the kill; raise cluster.trident.events").isFalse();
        // The committing state's task, as its snapshots name it, and the worker that runs it.
        Map<String, String> summary = first.snapshots().get(0).summary();
        String committer = summary.get("storm.iceberg.component");
        int victimPort = portOfTask(nimbus, committer, Integer.parseInt(summary.get("storm.iceberg.task-index")));
        ClusterSession.log("the committing state is task " + summary.get("storm.iceberg.task-index") + " of " + committer
            + ", on port " + victimPort);
        ClusterSession.log("components per worker port: " + componentsPerPort);
        // Kill at a commit until a kill falls between the table's commit and Trident's record of it:
        // then Trident replays a transaction the table already holds.
        boolean betweenCommits = false;
        for (int attempt = 1; attempt <= KILL_ATTEMPTS && !betweenCommits; attempt++) {
          betweenCommits = killAtNextCommit(table, streamId, victimPort, componentsPerPort.get(victimPort), attempt);
        }
        assertThat(betweenCommits)
            .as("one of %d kills fell between the table's commit and Trident's commit record", KILL_ATTEMPTS).isTrue();

        EventsTable.Count complete = session.await("every id in the table", Duration.ofMinutes(5),
            () -> Optional.of(table.count(events)).filter(EventsTable.Count::complete));
        // Trident may replay the killed transaction after the table is complete: wait until its
        // coordinator has committed past the newest transaction the table holds.
        long last = maxTxid(complete.snapshots());
        session.await("Trident's coordinator past transaction " + last, Duration.ofMinutes(2),
            () -> Optional.of(currentTransaction(streamId)).filter(next -> next > last + 1));
        EventsTable.Count after = table.count(events);
        List<String> replays = replays();
        ClusterSession.log(String.format("real cluster, Trident: %d ids sent; table: %s; transactions replayed: %s;"
                + " worker restarts %d (pids per port %s); %d s",
            events, after, replays, session.workers.restarts(), session.workers.seen(),
            Duration.ofNanos(System.nanoTime() - started).toSeconds()));

        assertThat(after.firstMissing()).as("ids missing from the table").isEmpty();
        assertThat(after.complete()).as("every id is in the table: %s", after).isTrue();
        assertThat(after.duplicates()).as("rows beyond one per id: %s", after).isZero();
        assertThat(after.outOfRange()).as("rows with ids the spout never sent").isZero();
        assertThat(after.rows()).as("rows").isEqualTo(events);
        List<String> txids = after.snapshots().stream().map(s -> s.summary().get("storm.iceberg.trident-txid")).toList();
        assertThat(txids).as("one snapshot per transaction, each an append").doesNotContainNull().doesNotHaveDuplicates();
        assertThat(after.snapshots()).allSatisfy(s -> assertThat(s.operation()).isEqualTo("append"));
        assertThat(session.workers.seen().get(victimPort)).as("worker pids on the killed worker's port").hasSizeGreaterThanOrEqualTo(2);
        assertThat(replays).as("transactions the spout replayed").anyMatch(l -> l.startsWith("Replaying transaction " + killedTxid + " "));
        session.kill(nimbus);
      }
    } catch (Throwable failure) {
      session.printLogs();
      throw failure;
    }
  }

  /** The slot port of the {@code taskIndex}th task (by task id) of {@code component}. */
  private int portOfTask(NimbusClient nimbus, String component, int taskIndex) throws Exception {
    List<ExecutorSummary> tasks = new ArrayList<>();
    for (ExecutorSummary executor : nimbus.getClient().getTopologyInfoByName(TOPOLOGY).get_executors()) {
      if (executor.get_component_id().equals(component)) {
        tasks.add(executor);
      }
    }
    tasks.sort(java.util.Comparator.comparingInt(e -> e.get_executor_info().get_task_start()));
    if (taskIndex >= tasks.size()) {
      throw new AssertionError("no task " + taskIndex + " of " + component + " among " + tasks);
    }
    return tasks.get(taskIndex).get_port();
  }

  /** Runs {@code storm jar <jar> IcebergTridentExampleTopology cluster <warehouse> <events> --variant whole-stream ...}. */
  private String submit() throws Exception {
    List<String> args = new ArrayList<>(List.of("cluster", cluster.warehouse().toString(), Long.toString(events), "--variant", "whole-stream"));
    cluster.catalogProperties().forEach((key, value) -> args.addAll(List.of("--catalog-property", key + "=" + value)));
    Map<String, String> options = new TreeMap<>(Map.of(
        "topology.workers", "2",
        // A transaction the killed worker held times out and replays after this long.
        "topology.message.timeout.secs", Integer.toString(MESSAGE_TIMEOUT_SECS)));
    return session.submit(MAIN_CLASS, args, options);
  }

  private static String runId(String submitOutput) {
    Matcher run = Pattern.compile("\\(run ([0-9a-f-]+)\\)").matcher(submitOutput);
    if (!run.find()) {
      throw new AssertionError("no run id in the submitter's output:\n" + submitOutput);
    }
    return run.group(1);
  }

  /**
   * Kills the worker on {@code port} the moment the table's next commit shows, waits for the
   * Supervisor to restart it, and says whether the kill fell between that commit and Trident's
   * record of it (the coordinator still names the committed transaction as the next to commit).
   */
  private boolean killAtNextCommit(EventsTable table, String streamId, int port, Set<String> components, int attempt)
      throws Exception {
    long victim = session.await("the worker on port " + port, Duration.ofMinutes(2),
        () -> Optional.ofNullable(session.workers.poll().get(port)));
    long reactionNanos = sigkillAtNextCommit(victim);
    long committed = maxTxid(table.count(events).snapshots());
    long recordedNext = currentTransaction(streamId);
    boolean between = recordedNext <= committed;
    ClusterSession.log(String.format(
        "kill %d: SIGKILL to worker pid %d on port %d (components %s) %.1f ms after the catalog showed a new commit; the"
            + " table's newest transaction is %d, Trident's coordinator records %d as the next to commit: %s",
        attempt, victim, port, components, reactionNanos / 1e6, committed, recordedNext, between
            ? "the kill fell between the table's commit and Trident's commit record"
            : "Trident recorded the commit before the kill"));
    if (between) {
      killedTxid = committed;
    }
    long restarted = session.await("the Supervisor to restart the worker on port " + port, Duration.ofMinutes(2),
        () -> Optional.ofNullable(session.workers.poll().get(port)).filter(pid -> pid != victim));
    ClusterSession.log("worker on port " + port + " restarted as pid " + restarted);
    return between;
  }

  /**
   * Watches the table's row in the JdbcCatalog (one indexed query a millisecond or so) and sends
   * SIGKILL, what {@code kill -9} sends, to {@code pid} the moment its metadata location changes: the
   * state's commit has just been applied, and the worker is still finishing it. Returns how long the
   * signal took after the change was seen.
   */
  private long sigkillAtNextCommit(long pid) throws Exception {
    String url = "jdbc:postgresql://127.0.0.1:" + cluster.postgresPort + "/" + RealCluster.DB_NAME;
    try (Connection connection = DriverManager.getConnection(url, RealCluster.DB_USER, RealCluster.DB_PASSWORD);
        PreparedStatement query = connection.prepareStatement(
            "SELECT metadata_location FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?")) {
      query.setString(1, CATALOG_NAME);
      query.setString(2, TABLE.namespace().toString());
      query.setString(3, TABLE.name());
      String before = metadataLocation(query);
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (System.nanoTime() < deadline) {
        if (!metadataLocation(query).equals(before)) {
          long seen = System.nanoTime();
          ProcessHandle worker = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError("worker " + pid + " is gone"));
          assertThat(worker.destroyForcibly()).as("SIGKILL sent to %s", pid).isTrue();
          long reaction = System.nanoTime() - seen;
          worker.onExit().get();
          return reaction;
        }
      }
      throw new AssertionError("no commit of " + TABLE + " within 2 minutes");
    }
  }

  private static String metadataLocation(PreparedStatement query) throws Exception {
    try (ResultSet row = query.executeQuery()) {
      if (!row.next()) {
        throw new AssertionError("no row of " + TABLE + " in the catalog");
      }
      return row.getString(1);
    }
  }

  /** The newest Trident transaction among {@code snapshots}. */
  private static long maxTxid(List<Snapshot> snapshots) {
    return snapshots.stream().mapToLong(s -> Long.parseLong(s.summary().get("storm.iceberg.trident-txid"))).max().orElse(0);
  }

  /** The transaction Trident's coordinator will commit next, from its record in ZooKeeper. */
  private long currentTransaction(String streamId) {
    Map<String, Object> conf = new java.util.HashMap<>(org.apache.storm.utils.Utils.readDefaultConfig());
    conf.put(Config.STORM_ZOOKEEPER_SERVERS, List.of("127.0.0.1"));
    conf.put(Config.STORM_ZOOKEEPER_PORT, cluster.zookeeperPort);
    TransactionalState state = TransactionalState.newCoordinatorState(conf, streamId);
    try {
      Object current = state.getData("currtx");
      return current == null ? 1 : ((Number) current).longValue();
    } finally {
      state.close();
    }
  }

  /** The spout's log lines of replayed transactions, from every worker's log. */
  private List<String> replays() throws Exception {
    List<String> lines = new ArrayList<>();
    for (Path file : cluster.logFiles()) {
      if (file.getFileName().toString().startsWith("worker")) {
        try (Stream<String> all = Files.lines(file)) {
          all.filter(l -> l.contains("Replaying transaction")).map(l -> l.substring(l.indexOf("Replaying"))).forEach(lines::add);
        }
      }
    }
    return lines;
  }
}
