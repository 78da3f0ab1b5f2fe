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

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * One maintainer per table, across topologies and cron runs: a lock per table with an owner id that
 * outlives no crashed owner for long. Contract of every implementation:
 *
 * <ul>
 *   <li>While a live owner holds a table's lease, {@link #tryAcquire} by any other owner returns null,
 *       however long the owner holds it.
 *   <li>Two owners racing for a free lease never both get it.
 *   <li>A crashed owner's lease frees itself after a bounded time (the implementation's expiry).
 *   <li>{@link Held#valid()} turns false, and stays false, as soon as the owner can no longer be sure
 *       it holds the lease; a maintainer checks it before each step and stops once it is false.
 * </ul>
 *
 * Owner ids name one maintainer each: two maintainers must not share one ({@link #owner} makes them
 * from the process and what runs in it).
 */
public interface MaintenanceLease extends AutoCloseable {
  /** Where a maintainer's leases live. */
  enum Kind {
    /** Ephemeral znodes on Storm's own ZooKeeper: {@link ZooKeeperLease}. */
    ZOOKEEPER,
    /** Rows in a table of the JDBC catalog's own database: {@link JdbcLease}. */
    JDBC,
    /** No lease: nothing else maintains the tables. */
    NONE;

    /** The kind named {@code zookeeper}, {@code jdbc} or {@code none} (any case). */
    public static Kind named(String name) {
      for (Kind kind : values()) {
        if (kind.name().equalsIgnoreCase(name)) {
          return kind;
        }
      }
      throw new IllegalArgumentException("Unknown maintenance lease '" + name + "': give zookeeper, jdbc or none");
    }

    /** The kind's name as options and flags spell it. */
    public String flag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** A table's lease, held until closed. */
  interface Held extends AutoCloseable {
    /** Whether the lease is still this owner's; once false, never true again. */
    boolean valid();

    /** Releases the lease if it is still this owner's; never throws (an unreleased lease expires). */
    @Override
    void close();
  }

  /**
   * Takes {@code table}'s lease for {@code owner}, or returns null when another owner holds it.
   *
   * @throws IllegalStateException when the lease's store cannot be reached: nobody can tell whether another maintainer runs
   */
  Held tryAcquire(String table, String owner);

  /** Who holds {@code table}'s lease, or null when nobody does. */
  String holder(String table);

  /** Closes the connection; leases still held are released or expire. */
  @Override
  void close();

  /** An owner id naming this process: host, process id and {@code what}. */
  static String owner(String what) {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "unknown-host";
    }
    return what + "@" + host + ":" + ProcessHandle.current().pid();
  }
}
