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

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.storm.iceberg.spi.SecretProperties;
import org.apache.storm.iceberg.spi.Redaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link MaintenanceLease} in the JDBC catalog's own database: a row per table in {@value
 * LeaseRows#TABLE} (created if absent) holding its owner and when it expires. Taking a lease is one
 * statement whose row count decides a race (an update of an expired row, or an insert the primary
 * key refuses to a second maintainer). A daemon thread renews every held lease every third of its
 * duration; a lease not renewed (its owner crashed) expires after its duration and the next
 * maintainer takes it. A live owner's lease is never taken.
 *
 * <p>{@link Held#valid()} turns false once a renewal fails or finds the row gone or another's, and
 * also once two renewals in a row are late (a third of the duration before expiry by this host's
 * clock): the clocks of the maintainers must agree to well within a third of the duration (NTP).
 *
 * <p>Connects as Iceberg's {@code JdbcCatalog} does: {@code uri}, and the {@code jdbc.}-prefixed
 * properties less their prefix ({@code jdbc.user}, {@code jdbc.password}, ...), one short
 * connection per statement. Neither the uri nor a secret-named property's value ever appears in a
 * log line, an exception message or {@link #toString()}.
 */
public final class JdbcLease implements MaintenanceLease {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcLease.class);
  private static final String JDBC_CATALOG = "org.apache.iceberg.jdbc.JdbcCatalog";
  private static final String PREFIX = "jdbc.";

  private final String uri;
  private final Properties connection;
  private final Map<String, String> secrets;
  private final LeaseRows rows;
  private final long durationMillis;
  private final LongSupplier clock;
  private final ScheduledExecutorService renewals;
  private final Set<JdbcHeld> held = ConcurrentHashMap.newKeySet();

  private JdbcLease(String uri, Properties connection, Map<String, String> secrets, String catalogName, Duration duration,
      LongSupplier clock) {
    this.uri = uri;
    this.connection = connection;
    this.secrets = secrets;
    this.durationMillis = duration.toMillis();
    this.rows = new LeaseRows(catalogName, (int) Math.max(1, durationMillis / 3_000));
    this.clock = clock;
    this.renewals = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "storm-iceberg-lease-renewal");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Whether {@code catalogProperties} build a JDBC catalog ({@code type=jdbc}, or {@code catalog-impl} JdbcCatalog). */
  public static boolean isJdbcCatalog(Map<String, String> catalogProperties) {
    return "jdbc".equalsIgnoreCase(catalogProperties.get("type")) || JDBC_CATALOG.equals(catalogProperties.get("catalog-impl"));
  }

  /**
   * Connects to the database of the JDBC catalog {@code catalogName} and creates the lease table if absent.
   *
   * @param catalogProperties the catalog's properties, secret references already resolved
   * @param duration how long a crashed owner's lease outlives its last renewal
   * @throws IllegalArgumentException when the properties are not a JDBC catalog's
   * @throws IllegalStateException when the database cannot be reached
   */
  public static JdbcLease connect(String catalogName, Map<String, String> catalogProperties, Duration duration) {
    return connect(catalogName, catalogProperties, duration, System::currentTimeMillis);
  }

  static JdbcLease connect(String catalogName, Map<String, String> catalogProperties, Duration duration, LongSupplier clock) {
    String uri = catalogProperties.get("uri");
    if (!isJdbcCatalog(catalogProperties) || uri == null) {
      throw new IllegalArgumentException("The JDBC maintenance lease needs a JDBC catalog (type=jdbc and its uri), got catalog"
          + " properties " + new java.util.TreeSet<>(catalogProperties.keySet()) + "; use the zookeeper lease for other catalogs");
    }
    Properties connection = new Properties();
    catalogProperties.forEach((key, value) -> {
      if (key.startsWith(PREFIX)) {
        connection.setProperty(key.substring(PREFIX.length()), value);
      }
    });
    Map<String, String> secrets = new java.util.HashMap<>();
    catalogProperties.forEach((key, value) -> {
      if (SecretProperties.isSecret(key) && value != null && !value.isEmpty()) {
        secrets.put(key, value);
      }
    });
    JdbcLease lease = new JdbcLease(uri, connection, Map.copyOf(secrets), catalogName, duration, clock);
    lease.run("create the maintenance lease table", LeaseRows::createIfAbsent);
    return lease;
  }

  @Override
  public Held tryAcquire(String table, String owner) {
    long now = clock.getAsLong();
    long expiresAt = now + durationMillis;
    boolean taken = run("take the maintenance lease of " + table, c -> rows.take(c, table, owner, now, expiresAt));
    if (!taken) {
      return null;
    }
    JdbcHeld lease = new JdbcHeld(table, owner, expiresAt);
    held.add(lease);
    lease.renewal = renewals.scheduleWithFixedDelay(lease::renew, durationMillis / 3, durationMillis / 3, TimeUnit.MILLISECONDS);
    return lease;
  }

  @Override
  public String holder(String table) {
    LeaseRows.Row row = run("read the maintenance lease of " + table, c -> rows.read(c, table));
    return row == null || row.expiresAt() <= clock.getAsLong() ? null : row.owner();
  }

  /** Stops renewing and releases every lease still held. */
  @Override
  public void close() {
    held.forEach(JdbcHeld::close);
    renewals.shutdownNow();
  }

  /** The catalog whose leases these are; never the uri or a credential. */
  @Override
  public String toString() {
    return "JdbcLease{table=" + LeaseRows.TABLE + ", durationMillis=" + durationMillis + "}";
  }

  private final class JdbcHeld implements Held {
    private final String table;
    private final String owner;
    private volatile long expiresAt;
    private volatile boolean lost;
    private volatile ScheduledFuture<?> renewal;

    JdbcHeld(String table, String owner, long expiresAt) {
      this.table = table;
      this.owner = owner;
      this.expiresAt = expiresAt;
    }

    /** False once lost, or once the last renewal is older than two thirds of the duration. */
    @Override
    public boolean valid() {
      if (!lost && clock.getAsLong() >= expiresAt - durationMillis / 3) {
        lost = true;
        LOG.warn("The maintenance lease of {} was not renewed in time; it is no longer held", table);
      }
      return !lost;
    }

    void renew() {
      if (!valid()) {
        stopRenewing();
        return;
      }
      long next = clock.getAsLong() + durationMillis;
      try {
        if (run("renew the maintenance lease of " + table, c -> rows.renew(c, table, owner, next))) {
          expiresAt = next;
          return;
        }
        LOG.warn("The maintenance lease of {} is no longer {}'s: another maintainer took it", table, owner);
      } catch (IllegalStateException e) {
        LOG.warn("Could not renew the maintenance lease of {}; it is no longer held", table, Redaction.of(e));
      }
      lost = true;
      stopRenewing();
    }

    private void stopRenewing() {
      ScheduledFuture<?> scheduled = renewal;
      if (scheduled != null) {
        scheduled.cancel(false);
      }
    }

    @Override
    public void close() {
      stopRenewing();
      held.remove(this);
      lost = true;
      try {
        run("release the maintenance lease of " + table, c -> rows.release(c, table, owner));
      } catch (IllegalStateException e) {
        LOG.debug("Could not release the maintenance lease of {}; it expires", table, Redaction.of(e));
      }
    }
  }

  private interface Work<T> {
    T on(Connection connection) throws SQLException;
  }

  private <T> T run(String what, Work<T> work) {
    try (Connection c = DriverManager.getConnection(uri, connection)) {
      c.setAutoCommit(true);
      return work.on(c);
    } catch (SQLException e) {
      IllegalStateException failure = new IllegalStateException("Cannot " + what + " in the JDBC catalog's database: "
          + redact(e.getMessage()) + " (SQLState " + e.getSQLState() + ")");
      failure.setStackTrace(e.getStackTrace()); // not the cause: its message may name the uri or a credential
      throw failure;
    }
  }

  /** {@code message} with the uri and every secret value replaced. */
  private String redact(String message) {
    if (message == null) {
      return "no message";
    }
    String redacted = message.replace(uri, "<the catalog's uri>");
    for (Map.Entry<String, String> secret : secrets.entrySet()) {
      redacted = redacted.replace(secret.getValue(), "<" + secret.getKey() + ">");
    }
    return redacted;
  }
}
