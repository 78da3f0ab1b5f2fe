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
import java.security.Permission;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.iceberg.kernel.task.ShutdownGuard;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A topology killed (wait 0) while its IcebergBolt commits to a JdbcCatalog on SQLite. Storm 2.8
 * interrupts the executor thread, waits 100 ms, disconnects the executor's error reporting and
 * calls cleanup on another thread while the commit still runs. An error reported then, or thrown
 * out of execute, makes Storm halt the process: here, this JVM. So the test refuses
 * {@code System.exit} for its duration (a SecurityManager, which Java 17 still allows) and counts
 * the attempts, and it reads Storm's own error-report log: nothing may be reported, no exit
 * attempted, and a second topology in the same cluster must run and commit.
 */
@ExtendWith(SharedLocalCluster.class)
// Long tier, checked before the class starts its cluster: a cluster started only to be closed costs
// seconds. Quick tier's proof: StaleWalEntriesTest covers a task dead mid-commit at kernel level in the quick tier.
@EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
class KillMidCommitLocalClusterTest {
  static final TableIdentifier EVENTS = TableIdentifier.of("db", "events");
  static LocalCluster cluster;

  /** How long the first commit is held on the executor thread, against cleanup's wait. */
  enum Hold {
    /**
     * Until Storm interrupts the executor thread, then a quarter of cleanup's wait: cleanup lets the
     * commit end, then closes the catalog.
     */
    PAST_THE_INTERRUPT_BUT_SHORTER_THAN_CLEANUP_WAITS,
    /** Until the catalog is closed under it: cleanup gives up waiting and abandons the commit. */
    UNTIL_THE_CATALOG_IS_CLOSED
  }

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }


  @ParameterizedTest
  @EnumSource(Hold.class)
  void killingATopologyMidCommitReportsNothingAndTheNextTopologyInTheJvmCommits(Hold hold) throws Exception {
    Map<String, String> jdbc = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(jdbc);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(EVENTS, TestTables.SCHEMA, PartitionSpec.unpartitioned());

    Faults faults = Faults.create();
    CountDownLatch inFlight = new CountDownLatch(1);
    AtomicBoolean held = new AtomicBoolean();
    AtomicBoolean released = new AtomicBoolean();
    faults.duringCommit =
        () -> {
          if (held.compareAndSet(false, true)) {
            inFlight.countDown();
            if (hold == Hold.UNTIL_THE_CATALOG_IS_CLOSED) {
              holdIgnoringInterrupts(() -> faults.catalogsClosed.get() > 0);
            } else {
              holdPastTheInterrupt(ShutdownGuard.CLOSE_WAIT_MILLIS / 4);
            }
            released.set(true);
          }
        };
    String killed = "killed-" + UUID.randomUUID().toString().substring(0, 8);
    String component = "sink-" + killed;

    List<Integer> exits = new CopyOnWriteArrayList<>();
    SecurityManager previous = refuseExits(exits);
    try (LogCapture logs = new LogCapture("", null)) {
      cluster.submitTopology(killed, LocalClusterRuns.config(), topology(killed, component, FaultInjectingCatalog.properties(jdbc, faults), 100_000));
      assertThat(inFlight.await(120, TimeUnit.SECONDS)).as("a commit is in flight").isTrue();
      KillOptions now = new KillOptions();
      now.set_wait_secs(0);
      cluster.killTopologyWithOpts(killed, now);

      Deadline.await(Duration.ofSeconds(60), () -> released.get() && !executorThreadAlive(component)
              && (hold != Hold.UNTIL_THE_CATALOG_IS_CLOSED || logs.lines.stream().anyMatch(line -> line.startsWith("INFO A commit abandoned"))),
          () -> "the held commit to return (" + released.get() + ") and the executor thread of " + component + " to end: "
              + executorThreadStacks(component));

      assertThat(exits).as("Storm tried to halt the JVM").isEmpty();
      assertThat(logs.lines).as("errors reported to Storm (its ReportError logs each one as 'Error')")
          .noneMatch(line -> line.startsWith("ERROR Error") || line.contains("Halting process"));
      if (hold == Hold.UNTIL_THE_CATALOG_IS_CLOSED) {
        assertThat(logs.lines).as("the abandoned commit met the closed pool").anyMatch(line -> line.contains("Cannot get a client from a closed pool"));
        // It runs on the task's commit thread (#21): abandoned, it is never settled, so nothing is reported.
        assertThat(logs.lines).as("and its failure was not reported, only logged")
            .anyMatch(line -> line.startsWith("INFO A commit abandoned while the task stopped ended"));
      } else {
        // Storm's interrupt usually fails the commit itself (Hadoop's local file system cannot create
        // a file on an interrupted thread); what cleanup owes is not to close the catalog under it.
        assertThat(logs.lines).as("cleanup waited for the commit before closing the catalog")
            .noneMatch(line -> line.contains("Cannot get a client from a closed pool"));
      }
    } finally {
      restore(previous);
    }

    // The JVM, and the cluster in it, lives on: the next topology runs and commits.
    String next = "next-" + UUID.randomUUID().toString().substring(0, 8);
    LocalClusterRuns.runUntilAllAcked(cluster, next, topology(next, "sink-" + next, jdbc, 500), next, 500);
    assertThat(TestTables.snapshots(table).stream().filter(s -> next.equals(s.summary().get("storm.iceberg.topology")))
        .mapToLong(s -> Long.parseLong(s.summary().get("added-records"))).sum()).isGreaterThanOrEqualTo(500);
  }

  private static org.apache.storm.generated.StormTopology topology(
      String ledgerKey, String component, Map<String, String> catalogProperties, long events) {
    IcebergOptions options =
        new IcebergOptions.Builder()
            .withCatalogName("test")
            .withCatalogProperties(catalogProperties)
            .withTable("db.events")
            .withCommitIntervalRecords(50)
            .withCommitIntervalMillis(2_000)
            .withTickIntervalSecs(1)
            .withCommitRetryBackoffMillis(10) // an abandoned commit settles quickly on its own thread
            .build();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(ledgerKey, events), 1);
    builder.setBolt(component, new IcebergBolt(options), 1).shuffleGrouping("events");
    return builder.createTopology();
  }

  /** Storm names an executor's thread after its component: "Thread-N-&lt;component&gt;-executor[...]". */
  private static boolean executorThreadAlive(String component) {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.isAlive() && t.getName().contains(component + "-executor"));
  }

  private static String executorThreadStacks(String component) {
    StringBuilder stacks = new StringBuilder();
    Thread.getAllStackTraces().forEach((t, stack) -> {
      if (t.getName().contains(component + "-executor")) {
        stacks.append(t.getName()).append(' ').append(t.getState()).append('\n');
        for (StackTraceElement e : stack) {
          stacks.append("  at ").append(e).append('\n');
        }
      }
    });
    return stacks.toString();
  }

  /** Blocks like a slow catalog call deaf to interrupts, until {@code done} (at most 30 s), keeping any interrupt. */
  private static void holdIgnoringInterrupts(java.util.function.BooleanSupplier done) {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    boolean interrupted = false;
    while (System.nanoTime() < end && !done.getAsBoolean()) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Holds until Storm interrupts this thread (at most 30 s), then {@code millis} more, deaf to it; keeps the interrupt. */
  private static void holdPastTheInterrupt(long millis) {
    try {
      Thread.sleep(30_000);
    } catch (InterruptedException e) {
      long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
      holdIgnoringInterrupts(() -> System.nanoTime() > end);
      Thread.currentThread().interrupt();
    }
  }

  @SuppressWarnings("removal")
  private static void restore(SecurityManager previous) {
    if (System.getSecurityManager() != previous) {
      System.setSecurityManager(previous);
    }
  }

  /**
   * Refuses {@code System.exit} (recording its status) while the topology is killed. Java 18 and
   * later refuse a SecurityManager unless started with {@code -Djava.security.manager=allow}; there
   * the test goes on without one, and a halt ends the test JVM, failing the build all the same.
   */
  @SuppressWarnings("removal")
  private static SecurityManager refuseExits(List<Integer> exits) {
    SecurityManager previous = System.getSecurityManager();
    try {
      installExitRefusal(exits);
    } catch (UnsupportedOperationException e) {
      System.err.println("KillMidCommitLocalClusterTest: no SecurityManager on this JVM (" + e.getMessage() + ")");
    }
    return previous;
  }

  @SuppressWarnings("removal")
  private static void installExitRefusal(List<Integer> exits) {
    System.setSecurityManager(
        new SecurityManager() {
          @Override
          public void checkPermission(Permission permission) {}

          @Override
          public void checkPermission(Permission permission, Object context) {}

          @Override
          public void checkExit(int status) {
            exits.add(status);
            throw new SecurityException("the test refuses System.exit(" + status + ")");
          }
        });
  }
}
