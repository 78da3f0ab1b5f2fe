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

package org.apache.storm.iceberg.kernel;

import org.apache.storm.iceberg.testing.SeededRuns;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.spi.TableRouter;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.MemoryWalStoreFactory;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.SteppedCommitThread;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

/**
 * Random fault schedules against a routing task writing 3 tables (id mod 3), even seeds with only
 * 1 or 2 tables open at once (so tables are evicted and reopened): at each step it sends an
 * event (a replay first), ticks, crashes the task, arms a commit fault on one table, or lets the
 * task's commit thread (a {@link SteppedCommitThread} shared by the tables, each table bounded by a
 * random max-pending-commits of 1 to 3) run some of the commits waiting; the executor settles them
 * at its next call. A crash may come after some commits ran and before the executor settled them:
 * the task either stops in order (settling them) or is killed (acking nothing more: those commits'
 * rows may then land twice, once more from the replay, as at-least-once allows).
 *
 * <p>At each step: a tuple failed is always of a table a fault was armed on since it was sent.
 * After each schedule: every id in its own table once (twice only if it was in flight when a task
 * was killed), every snapshot of a table adds ids the task acked together for that table at one
 * step (several of its batches may be acked at one step), or ids in flight at a kill (no batch split
 * across steps, none partly in the table), and no WAL entry is left. 4
 * schedules in the quick tier (about 2 s each), 100 in the long tier, {@code -Droutedschedules=N}.
 */
class RoutedSchedulesTest {
  static final int TABLES = 3;
  static final Faults.CommitFault[] FAULTS = {Faults.CommitFault.FAIL_BEFORE, Faults.CommitFault.UNKNOWN_AFTER,
      Faults.CommitFault.UNKNOWN_NOT_APPLIED, Faults.CommitFault.UNKNOWN_STALE_AFTER_RETRY};

  static final class ModuloRouter implements TableRouter {
    @Override
    public String route(org.apache.storm.tuple.ITuple tuple) {
      return "db.t" + tuple.getLongByField("id") % TABLES;
    }
  }

  @Test
  void noRoutedScheduleLosesAnIdPutsOneInAnotherTableOrCommitsPartOfABatch() {
    int count = Integer.getInteger("routedschedules", TestTiers.isLongTier() ? 100 : 4);
    // Schedules are independent (own catalog, faults and WAL space), so both cores run them.
    int faults = SeededRuns.sum(1, count, this::runSchedule);
    assertThat(faults).as("the schedules armed faults").isPositive();
  }

  private int runSchedule(long seed) {
    Random random = new Random(seed);
    String key = UUID.randomUUID().toString();
    Faults faults = Faults.create();
    Map<String, String> properties = FaultInjectingCatalog.sharedInMemory(key, faults);
    org.apache.iceberg.CatalogUtil.buildIcebergCatalog("test", properties, new org.apache.hadoop.conf.Configuration());
    Catalog catalog = FaultInjectingCatalog.sharedWithoutFaults(key);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    for (int t = 0; t < TABLES; t++) {
      catalog.createTable(TableIdentifier.of("db", "t" + t), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
          Map.of(TableProperties.COMMIT_NUM_RETRIES, "1", TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "1",
              TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "2"));
    }
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(properties)
        .withTableRouter(new ModuloRouter()).withWalStore("test-memory", Map.of("space", key, "fault-key", faults.key))
        .withCommitRetries(2).withCommitRetryBackoffMillis(0)
        .withCommitIntervalRecords(2 + random.nextInt(8)).withCommitIntervalMillis(1_000)
        .withMaxPendingCommits(1 + random.nextInt(3))
        // Even seeds keep 2 (seed 2, 6, ...) or 1 (seed 4, 8, ...) of the 3 tables open, so tables are evicted and reopened.
        .withMaxOpenTables(seed % 2 == 0 ? (int) (seed / 2 % 2) + 1 : TABLES).build();
    AtomicLong clock = new AtomicLong(1_000_000);
    RecordingCollector recorder = new RecordingCollector();
    Tuples tuples = new Tuples(TestTables.FIELDS);
    int idCount = 10 + random.nextInt(30);
    ArrayDeque<Long> toSend = new ArrayDeque<>();
    for (long id = 0; id < idCount; id++) {
      toSend.add(id);
    }
    Map<Tuple, Long> inFlight = new LinkedHashMap<>();
    Set<Long> acked = new HashSet<>();
    List<Set<Long>> ackedTogether = new ArrayList<>();
    // The tables faults were armed on, in order, and for each tuple in flight the first arm it may meet.
    List<String> arms = new ArrayList<>();
    Map<Tuple, Integer> firstArm = new java.util.IdentityHashMap<>();
    Set<Long> inFlightAtKill = new HashSet<>();
    int armed = 0;
    SteppedCommitThread[] commitThread = {new SteppedCommitThread()};
    RoutedSinkTask sink = open(options, recorder, clock, commitThread[0]);
    for (int step = 0; acked.size() < idCount && step < 5_000; step++) {
      int acksBefore = recorder.acked.size();
      int failsBefore = recorder.failed.size();
      int roll = random.nextInt(100);
      if (roll < 8) {
        faults.onlyTable = "db.t" + random.nextInt(TABLES);
        arms.add(faults.onlyTable);
        faults.inject(FAULTS[random.nextInt(FAULTS.length)], 1);
        armed++;
      } else if (roll < 10) {
        // Commits that ran, unsettled, when the task goes down (most crashes with commits waiting).
        int queued = commitThread[0].queued();
        runCommits(commitThread[0], queued == 0 || random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(queued));
        if (random.nextInt(3) == 0) {
          sink.abandon(); // killed: nothing more is acked, whatever the commit thread did
          inFlightAtKill.addAll(inFlight.values());
        } else {
          sink.close(); // stopped: commits that ran are settled; those not started never start
        }
        settleStep(seed, recorder, acksBefore, failsBefore, inFlight, acked, ackedTogether, arms, firstArm, toSend);
        toSend.addAll(inFlight.values());
        inFlight.clear();
        commitThread[0] = new SteppedCommitThread();
        sink = open(options, recorder, clock, commitThread[0]);
        continue;
      } else if (roll < 20 && commitThread[0].queued() > 0) {
        runCommits(commitThread[0], 1 + random.nextInt(commitThread[0].queued()));
      } else if (roll < 25 || toSend.isEmpty()) {
        clock.addAndGet(600);
        sink.execute(tuples.tick());
      } else {
        long id = toSend.poll();
        Tuple event = tuples.tuple(id, "eu", Instant.parse("2026-11-01T10:00:00Z"), "payload-" + id);
        inFlight.put(event, id);
        firstArm.put(event, Math.max(0, arms.size() - 1));
        sink.execute(event);
      }
      settleStep(seed, recorder, acksBefore, failsBefore, inFlight, acked, ackedTogether, arms, firstArm, toSend);
    }
    faults.clear();
    sink.close();
    assertThat(acked).as("schedule %d: every id acked", seed).hasSize(idCount);
    for (int t = 0; t < TABLES; t++) {
      check(seed, catalog.loadTable(TableIdentifier.of("db", "t" + t)), t, idCount, ackedTogether, inFlightAtKill);
    }
    checkWalEntries(seed, key);
    FaultInjectingCatalog.dropShared(key);
    MemoryWalStoreFactory.drop(key);
    return armed;
  }

  /** The acks and fails of one step: acks are whole batches per table; a failed tuple is of a table a fault was armed on. */
  private static void settleStep(long seed, RecordingCollector recorder, int acksBefore, int failsBefore,
      Map<Tuple, Long> inFlight, Set<Long> acked, List<Set<Long>> ackedTogether, List<String> arms,
      Map<Tuple, Integer> firstArm, ArrayDeque<Long> toSend) {
    Map<Long, Set<Long>> byTable = new LinkedHashMap<>();
    for (Tuple tuple : recorder.acked.subList(acksBefore, recorder.acked.size())) {
      Long id = inFlight.remove(tuple);
      assertThat(id).as("schedule %d: an ack for a tuple not in flight", seed).isNotNull();
      assertThat(acked.add(id)).as("schedule %d: id %d acked twice", seed, id).isTrue();
      byTable.computeIfAbsent(id % TABLES, t -> new HashSet<>()).add(id);
    }
    ackedTogether.addAll(byTable.values());
    for (Tuple tuple : recorder.failed.subList(failsBefore, recorder.failed.size())) {
      Long id = inFlight.remove(tuple);
      if (id != null) {
        List<String> armedSince = arms.subList(Math.min(firstArm.remove(tuple), arms.size()), arms.size());
        assertThat(armedSince).as("schedule %d: id %d failed, but no fault was armed on its table since it was sent",
            seed, id).contains("db.t" + id % TABLES);
        toSend.add(id);
      }
    }
  }

  private static void runCommits(SteppedCommitThread thread, int count) {
    for (int i = 0; i < count; i++) {
      thread.runNext();
    }
  }

  private static void check(long seed, Table table, int t, int idCount, List<Set<Long>> ackedTogether, Set<Long> inFlightAtKill) {
    List<Long> expected = new ArrayList<>();
    for (long id = t; id < idCount; id += TABLES) {
      expected.add(id);
    }
    List<Long> ids = TestTables.ids(table);
    assertThat(new java.util.TreeSet<>(ids)).as("schedule %d: the ids in %s", seed, table.name()).containsExactlyElementsOf(expected);
    List<Long> twice = new ArrayList<>(ids);
    expected.forEach(twice::remove);
    assertThat(inFlightAtKill).as("schedule %d: ids in %s more than once, only if in flight when a task was killed", seed,
        table.name()).containsAll(twice);
    for (Snapshot snapshot : TestTables.snapshots(table)) {
      Set<Long> added = new HashSet<>(TestTables.ids(table, snapshot.snapshotId()));
      if (snapshot.parentId() != null) {
        TestTables.ids(table, snapshot.parentId()).forEach(added::remove);
      }
      if (!inFlightAtKill.containsAll(added)) {
        // Several of a table's commits may end between two executor calls and be acked at one step,
        // so a snapshot is one batch within the ids acked together, never split across steps.
        assertThat(ackedTogether).as("schedule %d: snapshot %d of %s adds %s, acked together", seed,
            snapshot.snapshotId(), table.name(), added).anyMatch(together -> together.containsAll(added));
      }
    }
  }

  /**
   * The WAL entries a routing task leaves: none here. Every fault these schedules arm ends settled
   * (landed, or proven not applied), and the entry of a settled commit is deleted; a crash closes the
   * task between steps, never mid-commit. (A commit whose outcome stays unknown would keep its entry,
   * its tuples failed; docs/RELIABILITY.md.)
   */
  private static void checkWalEntries(long seed, String key) {
    assertThat(MemoryWalStoreFactory.entries(key).keySet()).as("schedule %d: WAL entries left", seed).isEmpty();
  }

  private static RoutedSinkTask open(IcebergOptions options, RecordingCollector recorder, AtomicLong clock,
      SteppedCommitThread commitThread) {
    return RoutedSinkTask.open(settings(options),
        TaskEnvironment.detached(SinkTaskTest.TASK, recorder.collector(), clock::get), () -> commitThread, SinkTasks::open);
  }
}
