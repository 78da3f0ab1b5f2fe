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
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.storm.shade.org.apache.curator.framework.state.ConnectionState;
import org.apache.storm.shade.org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.storm.shade.org.apache.zookeeper.CreateMode;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One maintainer per table, across topologies and cron runs: a table's lease is an ephemeral znode
 * on Storm's own ZooKeeper (through the Curator Storm ships), named after the table and holding its
 * owner. A live owner's lease is never taken: creating the node fails while it exists. A crashed
 * owner's lease expires with its ZooKeeper session. An owner whose session is lost stops holding the
 * lease at once ({@link Held#valid()}), since another may take it from then on.
 */
public final class MaintenanceLease implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceLease.class);
  /** Where the leases live, under Storm's ZooKeeper root for none of its own. */
  public static final String ROOT = "/storm-iceberg/maintenance-leases";

  private final CuratorFramework client;
  private final String root;
  private final AtomicBoolean sessionLost = new AtomicBoolean();

  private MaintenanceLease(CuratorFramework client, String root) {
    this.client = client;
    this.root = root;
  }

  /**
   * Connects to ZooKeeper ({@code host:port,host:port}); leases live under {@code root}.
   *
   * @param sessionTimeout how long a crashed owner's leases outlive it
   */
  public static MaintenanceLease connect(String connectString, String root, Duration sessionTimeout) {
    CuratorFramework client = CuratorFrameworkFactory.builder()
        .connectString(connectString)
        .sessionTimeoutMs((int) sessionTimeout.toMillis())
        .connectionTimeoutMs(15_000)
        .retryPolicy(new ExponentialBackoffRetry(500, 3))
        .build();
    MaintenanceLease lease = new MaintenanceLease(client, root);
    client.getConnectionStateListenable().addListener((c, state) -> {
      if (state == ConnectionState.LOST || state == ConnectionState.SUSPENDED) {
        lease.sessionLost.set(true);
      }
    });
    client.start();
    return lease;
  }

  /** A table's lease, held until closed. */
  public final class Held implements AutoCloseable {
    private final String path;

    private Held(String path) {
      this.path = path;
    }

    /** Whether the lease is still this owner's: false once the ZooKeeper session was suspended or lost. */
    public boolean valid() {
      return !sessionLost.get();
    }

    @Override
    public void close() {
      try {
        client.delete().forPath(path);
      } catch (Exception e) {
        // The session ending deletes it anyway.
        LOG.debug("Could not release maintenance lease {}", path, Redaction.of(e));
      }
    }
  }

  /**
   * Takes {@code table}'s lease for {@code owner}, or null when another owner holds it.
   *
   * @throws IllegalStateException when ZooKeeper cannot be reached: nobody can tell whether another maintainer runs
   */
  public Held tryAcquire(String table, String owner) {
    sessionLost.set(false);
    String path = root + "/" + URLEncoder.encode(table, StandardCharsets.UTF_8);
    try {
      client.blockUntilConnected(15, java.util.concurrent.TimeUnit.SECONDS);
      client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, owner.getBytes(StandardCharsets.UTF_8));
      return new Held(path);
    } catch (KeeperException.NodeExistsException held) {
      try {
        return ownNode(path) ? new Held(path) : null;
      } catch (Exception e) {
        throw new IllegalStateException("Cannot read the maintenance lease of " + table + " on ZooKeeper: " + e.getMessage(), e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted taking the maintenance lease of " + table, e);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot take the maintenance lease of " + table + " on ZooKeeper: " + e.getMessage(), e);
    }
  }

  /** Whether the node at {@code path} was made by this client's session (kept across a suspended connection). */
  private boolean ownNode(String path) throws Exception {
    org.apache.storm.shade.org.apache.zookeeper.data.Stat stat = client.checkExists().forPath(path);
    return stat != null && stat.getEphemeralOwner() == client.getZookeeperClient().getZooKeeper().getSessionId();
  }

  /** Who holds {@code table}'s lease, or null when nobody does. */
  public String holder(String table) {
    try {
      return new String(client.getData().forPath(root + "/" + URLEncoder.encode(table, StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    } catch (KeeperException.NoNodeException free) {
      return null;
    } catch (Exception e) {
      throw new IllegalStateException("Cannot read the maintenance lease of " + table + " on ZooKeeper: " + e.getMessage(), e);
    }
  }

  /** An owner id naming this process: host, process id and {@code what}. */
  public static String owner(String what) {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "unknown-host";
    }
    return what + "@" + host + ":" + ProcessHandle.current().pid();
  }

  /** Closes the connection: every lease still held is released with the session. */
  @Override
  public void close() {
    client.close();
  }
}
