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
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * The SQL of {@link JdbcLease}: one row per leased table in {@value #TABLE}, keyed by catalog and
 * table name, holding the owner and the time (epoch millis) the lease expires unless renewed. Every
 * change is one statement, atomic on its own, whose affected row count says who won: the database's
 * row lock or primary key decides a race, never a read followed by a write. Internal to {@link JdbcLease}.
 */
final class LeaseRows {
  /** The lease table, beside the JDBC catalog's own tables. */
  static final String TABLE = "storm_iceberg_maintenance_lease";

  static final String CREATE = "CREATE TABLE " + TABLE + " (catalog_name VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT NULL,"
      + " owner VARCHAR(1024) NOT NULL, expires_at BIGINT NOT NULL, PRIMARY KEY (catalog_name, table_name))";
  /** Takes a row that expired, or that is already this owner's. */
  static final String TAKE = "UPDATE " + TABLE + " SET owner = ?, expires_at = ? WHERE catalog_name = ? AND table_name = ?"
      + " AND (expires_at <= ? OR owner = ?)";
  /** Takes a table nobody ever leased, or whose lease was released; the primary key refuses a second row. */
  static final String INSERT = "INSERT INTO " + TABLE + " (catalog_name, table_name, owner, expires_at) VALUES (?, ?, ?, ?)";
  /** Moves the expiry of a row still this owner's. */
  static final String RENEW = "UPDATE " + TABLE + " SET expires_at = ? WHERE catalog_name = ? AND table_name = ? AND owner = ?";
  static final String RELEASE = "DELETE FROM " + TABLE + " WHERE catalog_name = ? AND table_name = ? AND owner = ?";
  static final String READ = "SELECT owner, expires_at FROM " + TABLE + " WHERE catalog_name = ? AND table_name = ?";

  private final String catalog;
  private final int timeoutSeconds;

  LeaseRows(String catalog, int timeoutSeconds) {
    this.catalog = catalog;
    this.timeoutSeconds = timeoutSeconds;
  }

  /** Creates the lease table unless it exists (whether this call did); a maintainer creating it at the same time is no error. */
  static boolean createIfAbsent(Connection connection) throws SQLException {
    if (exists(connection)) {
      return false;
    }
    try (Statement create = connection.createStatement()) {
      create.execute(CREATE);
      return true;
    } catch (SQLException e) {
      if (!exists(connection)) {
        throw e;
      }
      return false;
    }
  }

  private static boolean exists(Connection connection) throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    for (String name : new String[] {TABLE, TABLE.toUpperCase(Locale.ROOT)}) {
      try (ResultSet tables = meta.getTables(null, null, name, null)) {
        if (tables.next()) {
          return true;
        }
      }
    }
    return false;
  }

  /** Takes {@code table}'s lease for {@code owner} until {@code expiresAt}: whether it did. */
  boolean take(Connection connection, String table, String owner, long now, long expiresAt) throws SQLException {
    if (update(connection, TAKE, owner, expiresAt, catalog, table, now, owner) == 1) {
      return true;
    }
    try {
      return update(connection, INSERT, catalog, table, owner, expiresAt) == 1;
    } catch (SQLException e) {
      if (read(connection, table) != null) {
        return false; // another maintainer's row came first: the primary key refused ours
      }
      throw e;
    }
  }

  /** Moves the expiry of {@code owner}'s lease: false when the row is no longer {@code owner}'s. */
  boolean renew(Connection connection, String table, String owner, long expiresAt) throws SQLException {
    return update(connection, RENEW, expiresAt, catalog, table, owner) == 1;
  }

  /** Deletes {@code owner}'s lease row: false when the row is no longer {@code owner}'s. */
  boolean release(Connection connection, String table, String owner) throws SQLException {
    return update(connection, RELEASE, catalog, table, owner) == 1;
  }

  /** The lease's row, or null when there is none. */
  Row read(Connection connection, String table) throws SQLException {
    try (PreparedStatement select = prepare(connection, READ, catalog, table); ResultSet rows = select.executeQuery()) {
      return rows.next() ? new Row(rows.getString(1), rows.getLong(2)) : null;
    }
  }

  /** A lease's row: its owner, and when it expires unless renewed. */
  record Row(String owner, long expiresAt) {}

  private int update(Connection connection, String sql, Object... values) throws SQLException {
    try (PreparedStatement statement = prepare(connection, sql, values)) {
      return statement.executeUpdate();
    }
  }

  private PreparedStatement prepare(Connection connection, String sql, Object... values) throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    try {
      statement.setQueryTimeout(timeoutSeconds);
      for (int i = 0; i < values.length; i++) {
        if (values[i] instanceof Long number) {
          statement.setLong(i + 1, number);
        } else {
          statement.setString(i + 1, (String) values[i]);
        }
      }
      return statement;
    } catch (SQLException e) {
      statement.close();
      throw e;
    }
  }
}
