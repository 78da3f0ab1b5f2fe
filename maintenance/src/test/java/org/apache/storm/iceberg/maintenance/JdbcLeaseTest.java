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


package org.apache.storm.iceberg.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.logging.log4j.Level;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The maintenance lease in a JdbcCatalog's own database (SQLite on a temp dir, the catalog's tables
 * beside it): maintainers are separate {@link JdbcLease}s, as two topologies or a topology and a
 * cron run would be. A crash is a clock moved past the lease's duration while its holder never renews.
 */
class JdbcLeaseTest {
  static final String TABLE = "db.events";

  @TempDir Path dir;
  Map<String, String> catalog;

  @BeforeEach
  void createCatalog() throws Exception {
    catalog = TestCatalogs.jdbcSqlite(dir);
    try (var ignored = (java.io.Closeable) TestCatalogs.load(catalog)) {
      // the catalog's own tables exist before the lease's
    }
  }

  JdbcLease lease(Duration duration, AtomicLong clock) {
    return JdbcLease.connect("storm_iceberg", catalog, duration, clock::get);
  }

  @Test
  void oneOfTwoMaintainersHoldsTheLeaseAndTheOtherTakesItOnceReleased() {
    try (JdbcLease topology = JdbcLease.connect("storm_iceberg", catalog, Duration.ofSeconds(30));
        JdbcLease cron = JdbcLease.connect("storm_iceberg", catalog, Duration.ofSeconds(30))) {
      MaintenanceLease.Held held = topology.tryAcquire(TABLE, "topology-a");
      assertThat(held).isNotNull();
      assertThat(held.valid()).isTrue();
      assertThat(cron.tryAcquire(TABLE, "cron")).as("a live owner's lease").isNull();
      assertThat(cron.holder(TABLE)).isEqualTo("topology-a");
      assertThat(cron.tryAcquire("db.other", "cron")).as("another table's lease").isNotNull();

      held.close();
      assertThat(held.valid()).as("a released lease").isFalse();
      assertThat(cron.holder(TABLE)).isNull();
      assertThat(cron.tryAcquire(TABLE, "cron")).isNotNull();
      assertThat(topology.tryAcquire(TABLE, "topology-a")).isNull();
      assertThat(topology.holder(TABLE)).isEqualTo("cron");
    }
  }

  @Test
  void ofMaintainersRacingForAFreeOrAnExpiredLeaseExactlyOneWins() throws Exception {
    AtomicLong clock = new AtomicLong(1_000_000);
    List<JdbcLease> racers = new ArrayList<>();
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      for (int i = 0; i < 8; i++) {
        racers.add(lease(Duration.ofMinutes(1), clock));
      }
      assertThat(winners(racers, threads)).as("racing for a free lease").isEqualTo(1);
      clock.addAndGet(Duration.ofMinutes(1).toMillis()); // the winner crashed: its lease expired unrenewed
      assertThat(winners(racers, threads)).as("racing for an expired lease").isEqualTo(1);
    } finally {
      threads.shutdownNow();
      racers.forEach(JdbcLease::close);
    }
  }

  private static int winners(List<JdbcLease> racers, ExecutorService threads) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<MaintenanceLease.Held>> attempts = new ArrayList<>();
    for (int i = 0; i < racers.size(); i++) {
      JdbcLease racer = racers.get(i);
      String owner = "racer-" + i + "-" + System.nanoTime();
      attempts.add(threads.submit(() -> {
        start.await();
        return racer.tryAcquire(TABLE, owner);
      }));
    }
    start.countDown();
    int won = 0;
    for (Future<MaintenanceLease.Held> attempt : attempts) {
      won += attempt.get() == null ? 0 : 1;
    }
    return won;
  }

  @Test
  void aCrashedHoldersLeaseExpiresAfterItsDurationAndTheNextTakesIt() {
    AtomicLong clock = new AtomicLong(1_000_000);
    try (JdbcLease crashed = lease(Duration.ofMinutes(1), clock); JdbcLease next = lease(Duration.ofMinutes(1), clock)) {
      MaintenanceLease.Held held = crashed.tryAcquire(TABLE, "worker-that-dies");
      assertThat(held).isNotNull();
      clock.addAndGet(Duration.ofMinutes(1).toMillis() - 1);
      assertThat(next.tryAcquire(TABLE, "next")).as("a millisecond before expiry").isNull();
      clock.addAndGet(1);
      assertThat(next.holder(TABLE)).as("an expired lease has no holder").isNull();
      assertThat(next.tryAcquire(TABLE, "next")).as("at expiry").isNotNull();
      assertThat(next.holder(TABLE)).isEqualTo("next");
      assertThat(held.valid()).as("the crashed holder's, by its own clock").isFalse();
    }
  }

  @Test
  void aLiveHolderWhoRenewsKeepsItsLeaseOverManyDurations() throws Exception {
    Duration duration = Duration.ofMillis(600);
    try (JdbcLease live = JdbcLease.connect("storm_iceberg", catalog, duration);
        JdbcLease other = JdbcLease.connect("storm_iceberg", catalog, duration)) {
      MaintenanceLease.Held held = live.tryAcquire(TABLE, "live");
      long end = System.nanoTime() + duration.multipliedBy(5).toNanos();
      int attempts = 0;
      while (System.nanoTime() < end) {
        assertThat(other.tryAcquire(TABLE, "other")).as("attempt %d, %d ms in", attempts, 3_000 - (end - System.nanoTime()) / 1_000_000)
            .isNull();
        assertThat(held.valid()).isTrue();
        attempts++;
        Thread.sleep(50);
      }
      assertThat(attempts).isGreaterThan(10);
      assertThat(other.holder(TABLE)).isEqualTo("live");
    }
  }

  @Test
  void aHolderLosesItsLeaseWhenItsRenewalFindsAnotherOwner() throws Exception {
    AtomicLong pausedClock = new AtomicLong(1_000_000);
    AtomicLong takersClock = new AtomicLong(1_000_000);
    try (JdbcLease paused = lease(Duration.ofMillis(1_500), pausedClock); JdbcLease taker = lease(Duration.ofMillis(1_500), takersClock)) {
      MaintenanceLease.Held held = paused.tryAcquire(TABLE, "paused");
      takersClock.addAndGet(1_500); // the holder's renewals stalled past its duration, as a long GC pause would
      assertThat(taker.tryAcquire(TABLE, "taker")).isNotNull();
      assertThat(held.valid()).as("by its own clock it still holds it, until it renews").isTrue();
      Deadline.await(Duration.ofSeconds(10), () -> !held.valid(), () -> "the paused holder's renewal to find the taker's row");
      assertThat(taker.holder(TABLE)).isEqualTo("taker");
      held.close();
      assertThat(taker.holder(TABLE)).as("releasing a lease no longer ours leaves the new owner's").isEqualTo("taker");
    }
  }

  @Test
  void aHolderWhoseRenewalsAreLateStopsHoldingBeforeItCouldBeTaken() {
    AtomicLong clock = new AtomicLong(1_000_000);
    try (JdbcLease lease = lease(Duration.ofMinutes(3), clock)) {
      MaintenanceLease.Held held = lease.tryAcquire(TABLE, "owner");
      clock.addAndGet(Duration.ofMinutes(2).toMillis() - 1);
      assertThat(held.valid()).isTrue();
      clock.addAndGet(1);
      assertThat(held.valid()).as("two thirds of the duration without a renewal").isFalse();
      clock.addAndGet(-Duration.ofMinutes(2).toMillis());
      assertThat(held.valid()).as("once false, never true again").isFalse();
    }
  }

  @Test
  void theUriAndThePasswordAppearInNoLogExceptionOrToString() throws Exception {
    String password = "pw-S3CRET-9";
    Map<String, String> unreachable = new HashMap<>(catalog);
    // DriverManager names the uri when no driver takes it: the uri may hold a password too
    unreachable.put("uri", "jdbc:nosuchdriver://db.example/iceberg?user=maintainer&password=" + password);
    unreachable.put("jdbc.user", "maintainer");
    unreachable.put("jdbc.password", password);
    Map<String, String> reachable = new HashMap<>(catalog);
    reachable.put("jdbc.password", password);
    List<String> seen = new ArrayList<>();
    try (LogCapture capture = new LogCapture("", Level.DEBUG)) {
      assertThatThrownBy(() -> JdbcLease.connect("storm_iceberg", unreachable, Duration.ofSeconds(30)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("Cannot create the maintenance lease table in the JDBC catalog's database: No suitable driver found for"
              + " <the catalog's uri> (SQLState 08001)")
          .satisfies(e -> seen.add(stackTrace(e)));
      try (JdbcLease lease = JdbcLease.connect("storm_iceberg", reachable, Duration.ofMillis(600))) {
        seen.add(lease.toString());
        MaintenanceLease.Held held = lease.tryAcquire(TABLE, "owner");
        java.nio.file.Files.delete(dir.resolve("catalog.db")); // the next renewal fails
        Deadline.await(Duration.ofSeconds(10), () -> !held.valid(), () -> "the failed renewal to end the lease");
      }
      seen.addAll(capture.lines);
    }
    assertThat(String.join("\n", seen)).contains("Could not renew the maintenance lease of db.events")
        .doesNotContain(password);
  }

  @Test
  void theBoltOpensTheLeaseItsOptionsName() {
    MaintenanceOptions jdbc = new MaintenanceOptions.Builder().withCatalogProperties(catalog)
        .withLease(MaintenanceLease.Kind.JDBC, Duration.ofSeconds(30)).build();
    try (MaintenanceLease lease = TableMaintainer.openLease(jdbc, Map.of(), catalog);
        JdbcLease other = JdbcLease.connect(MaintenanceOptions.DEFAULT_CATALOG_NAME, catalog, Duration.ofSeconds(30));
        JdbcLease anotherCatalog = JdbcLease.connect("another_catalog", catalog, Duration.ofSeconds(30))) {
      assertThat(lease).isInstanceOf(JdbcLease.class);
      assertThat(lease.tryAcquire(TABLE, "bolt")).isNotNull();
      assertThat(other.holder(TABLE)).as("the lease lives under the options' catalog name").isEqualTo("bolt");
      assertThat(anotherCatalog.holder(TABLE))
          .as("another catalog's table of the same name").isNull();
    }
    MaintenanceOptions none = new MaintenanceOptions.Builder().withCatalogProperties(catalog)
        .withLease(MaintenanceLease.Kind.NONE, Duration.ofSeconds(30)).build();
    assertThat(TableMaintainer.openLease(none, Map.of(), catalog)).isNull();
  }

  private static String stackTrace(Throwable error) {
    StringWriter text = new StringWriter();
    error.printStackTrace(new PrintWriter(text));
    return text.toString();
  }
}
