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

import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * IcebergBolt's routing task with its commit threads, on a real HadoopCatalog and the real clock:
 * a table whose every commit is slow (its TableOperations delay each commit) holds neither the
 * executor nor the other tables' acks, and an evicted table's commit in flight ends and is settled
 * before the table closes.
 */
class RoutedCommitIsolationTest {
  static final long SLOW_COMMIT_MILLIS = 2_000;

  @TempDir Path dir;
  final Tuples tuples = new Tuples(TestTables.FIELDS);

  Tuple event(long id, String region) {
    return tuples.tuple(id, region, Instant.parse("2026-11-01T10:00:00Z"), "payload-" + id);
  }

  /** Makes every commit to {@code table} take {@code millis} more. */
  static void slow(RoutingFixture fixture, String table, long millis) {
    fixture.faults.duringTableCommit = name -> {
      if (name.equals(table)) {
        try {
          Thread.sleep(millis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
  }

  @Test
  void aSlowTableHoldsNeitherTheExecutorNorTheOtherTablesAcks() throws InterruptedException {
    RoutingFixture fixture = new RoutingFixture(dir);
    RoutedSinkTask sink = RoutedSinkTask.openPipelined(settings(fixture.options("db.events_{region}")
        .withCommitIntervalRecords(5).withCommitIntervalMillis(200).build()), fixture.env(Map.of(), System::currentTimeMillis));
    Map<Long, Long> writtenAt = new HashMap<>();
    Map<Long, Long> ackedAt = new HashMap<>();
    List<Long> fast = new ArrayList<>();
    // The three tables open (and are created) before the clock starts.
    sink.execute(event(-1, "eu"));
    sink.execute(event(-2, "us"));
    sink.execute(event(-3, "slow"));
    sink.execute(tuples.tick());
    slow(fixture, "db.events_slow", SLOW_COMMIT_MILLIS);
    long longestCall = 0;
    long started = System.currentTimeMillis();
    long lastSlow = 0;
    // 1.2 s of traffic: eu and us as fast as the executor takes them, the slow table every 500 ms
    // (3 a commit: it never seals on its own threshold, only in the seals the others start).
    for (long id = 0; System.currentTimeMillis() - started < 1_200; id++) {
      boolean slowNow = System.currentTimeMillis() - lastSlow >= 500;
      lastSlow = slowNow ? System.currentTimeMillis() : lastSlow;
      String region = slowNow ? "slow" : id % 2 == 0 ? "eu" : "us";
      if (!slowNow) {
        fast.add(id);
      }
      long call = System.currentTimeMillis();
      writtenAt.put(id, call);
      sink.execute(event(id, region));
      long now = System.currentTimeMillis();
      longestCall = Math.max(longestCall, now - call);
      fixture.recorder.ackedIds().forEach(acked -> ackedAt.putIfAbsent(acked, now));
      Thread.sleep(5);
    }
    Deadline.await(Duration.ofSeconds(20), () -> {
      sink.execute(tuples.tick());
      fixture.recorder.ackedIds().forEach(acked -> ackedAt.putIfAbsent(acked, System.currentTimeMillis()));
      return ackedAt.keySet().containsAll(writtenAt.keySet());
    }, () -> ackedAt.size() + " acked of " + writtenAt.size());
    sink.close();

    assertThat(longestCall).as("the longest executor call, with every commit to one table taking %d ms", SLOW_COMMIT_MILLIS)
        .isLessThan(SLOW_COMMIT_MILLIS / 2);
    long slowestFastAck = fast.stream().mapToLong(id -> ackedAt.get(id) - writtenAt.get(id)).max().orElseThrow();
    System.out.printf("eu and us: %d tuples, slowest acked %d ms after it was written; longest executor call %d ms;"
        + " the slow table: %d commits%n", fast.size(), slowestFastAck, longestCall, TestTables.snapshots(fixture.table("db", "events_slow")).size());
    assertThat(slowestFastAck).as("the other tables' slowest ack after its write").isLessThan(SLOW_COMMIT_MILLIS);
    assertThat(fixture.recorder.failed).isEmpty();
    List<Long> inTables = new ArrayList<>(TestTables.ids(fixture.table("db", "events_eu")));
    inTables.addAll(TestTables.ids(fixture.table("db", "events_us")));
    inTables.addAll(TestTables.ids(fixture.table("db", "events_slow")));
    inTables.removeIf(id -> id < 0);
    assertThat(inTables).containsExactlyInAnyOrderElementsOf(writtenAt.keySet());
  }

  @Test
  void anEvictedTablesCommitsInFlightAndWaitingEndAndAreSettledBeforeTheTableCloses() {
    RoutingFixture fixture = new RoutingFixture(dir);
    slow(fixture, "db.events_eu", 300);
    RoutedSinkTask sink = RoutedSinkTask.openPipelined(settings(fixture.options("db.events_{region}")
        .withCommitIntervalRecords(2).withMaxPendingCommits(2).withMaxOpenTables(1).build()),
        fixture.env(Map.of(), System::currentTimeMillis));
    for (long id = 1; id <= 4; id++) {
      sink.execute(event(id, "eu")); // two seals: one commit runs, the next waits for it
    }
    assertThat(fixture.recorder.acked).as("acked once the commits end").isEmpty();

    sink.execute(event(5, "us")); // evicts eu

    assertThat(fixture.recorder.ackedIds()).containsExactly(1L, 2L, 3L, 4L);
    assertThat(TestTables.ids(fixture.table("db", "events_eu"))).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
    assertThat(TestTables.snapshots(fixture.table("db", "events_eu"))).hasSize(2);
    assertThat(fixture.recorder.failed).isEmpty();
    assertThat(sink.openTables()).containsExactly("db.events_us");
    sink.close();
    assertThat(fixture.faults.catalogsClosed.get()).isEqualTo(fixture.faults.catalogsOpened.get());
  }

  @Test
  void thePendingGaugesCoverTheBatchesOfEveryTable() {
    RoutingFixture fixture = new RoutingFixture(dir);
    org.apache.storm.iceberg.testing.SteppedCommitThread commitThread = new org.apache.storm.iceberg.testing.SteppedCommitThread();
    RoutedSinkTask sink = RoutedSinkTask.open(settings(fixture.options("db.events_{region}").withCommitIntervalRecords(2).build()),
        fixture.env(Map.of(), fixture.clock::get), () -> commitThread, SinkTasks::open);
    sink.execute(event(1, "eu"));
    sink.execute(event(2, "eu")); // sealed: its commit waits for the commit thread
    fixture.clock.addAndGet(5_000);
    sink.execute(event(3, "us"));
    sink.execute(event(4, "us")); // sealed too, 5 s younger
    fixture.clock.addAndGet(1_000);

    assertThat(fixture.registry.getGauges().get("iceberg-oldest-pending-age-ms").getValue()).isEqualTo(6_000L);
    assertThat(fixture.registry.getGauges().get("iceberg-pending-data-files").getValue()).isEqualTo(2);
    commitThread.runAll();
    sink.execute(tuples.tick());
    assertThat(fixture.recorder.ackedIds()).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
    assertThat(fixture.registry.getGauges().get("iceberg-oldest-pending-age-ms").getValue()).isEqualTo(0L);
    sink.close();
  }

  @Test
  void aWaitOnOneTablesCommitDatesTheNextBatchOfEveryTable() {
    RoutingFixture fixture = new RoutingFixture(dir);
    boolean[] first = {true};
    org.apache.storm.iceberg.testing.SteppedCommitThread commitThread = new org.apache.storm.iceberg.testing.SteppedCommitThread(
        new org.apache.storm.iceberg.testing.SteppedCommitThread.Observer() {
          @Override
          public void before(int commit) {
            if (first[0]) {
              first[0] = false;
              fixture.clock.addAndGet(3_000); // the first commit takes 3 s
            }
          }

          @Override
          public void after(int commit) {}
        });
    RoutedSinkTask sink = RoutedSinkTask.open(settings(fixture.options("db.events_{region}").withCommitIntervalRecords(2).build()),
        fixture.env(Map.of(), fixture.clock::get), () -> commitThread, SinkTasks::open);
    sink.execute(event(1, "eu"));
    sink.execute(event(2, "eu")); // sealed: its commit waits for the commit thread
    fixture.clock.addAndGet(1_000);
    sink.execute(event(3, "eu"));
    sink.execute(event(4, "eu")); // sealed again, at eu's bound: the executor waits 3 s for the first commit
    assertThat(commitThread.executorWaits).isEqualTo(1);
    sink.execute(event(5, "us")); // taken right after the wait: it waited since the wait began, 3 s ago

    commitThread.runAll();
    sink.execute(tuples.tick());
    assertThat(fixture.recorder.ackedIds()).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
    assertThat(fixture.registry.getGauges().get("iceberg-oldest-pending-age-ms").getValue())
        .as("the age of us's batch, from the wait on eu's commit").isEqualTo(3_000L);
    sink.close();
  }
}
