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


package org.apache.storm.iceberg.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.storm.iceberg.maintenance.JdbcLease;
import org.apache.storm.iceberg.maintenance.MaintenanceLease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JDBC maintenance lease on a real PostgreSQL (long tier: {@code .ci/run} installs it), whose
 * row locks, not SQLite's single writer, decide the races: eight maintainers racing for a free lease
 * and for one a crashed owner left behind, with a password that appears in no message.
 */
@EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
class JdbcLeasePostgresTest {
  static final String PASSWORD = "pg-L3ASE-pass";
  static final String TABLE = "db.events";

  @TempDir Path dir;

  @Test
  void exactlyOneOfEightRacersWinsAFreeLeaseAndOneACrashedOwnerLeft() throws Exception {
    try (PostgresServer postgres = PostgresServer.start(dir, PASSWORD)) {
      Map<String, String> catalog = Map.of("type", "jdbc", "uri", postgres.jdbcUri(), "jdbc.user", PostgresServer.USER,
          "jdbc.password", PASSWORD);
      List<JdbcLease> racers = new ArrayList<>();
      ExecutorService threads = Executors.newFixedThreadPool(8);
      try {
        for (int i = 0; i < 8; i++) {
          racers.add(JdbcLease.connect("storm_iceberg", catalog, Duration.ofSeconds(30)));
        }
        assertThat(winners(racers, threads, "free")).as("racing for a free lease").isEqualTo(1);
        racers.forEach(JdbcLease::close); // releases the winner's lease
        racers.clear();

        try (Connection c = DriverManager.getConnection(postgres.jdbcUri(), PostgresServer.USER, PASSWORD);
            PreparedStatement crashed = c.prepareStatement("INSERT INTO storm_iceberg_maintenance_lease"
                + " (catalog_name, table_name, owner, expires_at) VALUES ('storm_iceberg', ?, 'crashed', ?)")) {
          crashed.setString(1, TABLE);
          crashed.setLong(2, System.currentTimeMillis() - 1);
          assertThat(crashed.executeUpdate()).as("the row a crashed owner left").isEqualTo(1);
        }
        for (int i = 0; i < 8; i++) {
          racers.add(JdbcLease.connect("storm_iceberg", catalog, Duration.ofSeconds(30)));
        }
        assertThat(racers.get(0).holder(TABLE)).as("an expired lease has no holder").isNull();
        assertThat(winners(racers, threads, "expired")).as("racing for a crashed owner's expired lease").isEqualTo(1);
        assertThat(racers.get(0).holder(TABLE)).startsWith("expired-racer-");
      } finally {
        threads.shutdownNow();
        racers.forEach(JdbcLease::close);
      }

      Map<String, String> wrong = new HashMap<>(catalog);
      wrong.put("jdbc.password", "pg-WR0NG-pass");
      assertThatThrownBy(() -> JdbcLease.connect("storm_iceberg", wrong, Duration.ofSeconds(30)))
          .hasMessageContaining("password authentication failed for user \"postgres\"")
          .hasMessageNotContaining("pg-WR0NG-pass").hasMessageNotContaining(PASSWORD);
    }
  }

  private static int winners(List<JdbcLease> racers, ExecutorService threads, String round) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<MaintenanceLease.Held>> attempts = new ArrayList<>();
    for (int i = 0; i < racers.size(); i++) {
      JdbcLease racer = racers.get(i);
      String owner = round + "-racer-" + i;
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
}
