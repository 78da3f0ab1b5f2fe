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

import java.net.URLEncoder;
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
 * A {@link MaintenanceLease} on Storm's own ZooKeeper (through the Curator Storm ships): a table's
 * lease is an ephemeral znode named after the table and holding its owner. A live owner's lease is
 * never taken: creating the node fails while it exists. A crashed owner's lease expires with its
 * ZooKeeper session. An owner whose session is suspended or lost stops holding the lease at once
 * ({@link Held#valid()}), since another may take it from then on.
 */
public final class ZooKeeperLease implements MaintenanceLease {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperLease.class);
  /** Where the leases live, under Storm's ZooKeeper root for none of its own. */
  public static final String ROOT = "/storm-iceberg/maintenance-leases";

  private final CuratorFramework client;
  private final String root;
  private final AtomicBoolean sessionLost = new AtomicBoolean();

  private ZooKeeperLease(CuratorFramework client, String root) {
    this.client = client;
    this.root = root;
  }

  /**
   * Connects to ZooKeeper ({@code host:port,host:port}); leases live under {@code root}.
   *
   * @param sessionTimeout how long a crashed owner's leases outlive it
   */
  public static ZooKeeperLease connect(String connectString, String root, Duration sessionTimeout) {
    CuratorFramework client = CuratorFrameworkFactory.builder()
        .connectString(connectString)
        .sessionTimeoutMs((int) sessionTimeout.toMillis())
        .connectionTimeoutMs(15_000)
        .retryPolicy(new ExponentialBackoffRetry(500, 3))
        .build();
    ZooKeeperLease lease = new ZooKeeperLease(client, root);
    client.getConnectionStateListenable().addListener((c, state) -> {
      if (state == ConnectionState.LOST || state == ConnectionState.SUSPENDED) {
        lease.sessionLost.set(true);
      }
    });
    client.start();
    return lease;
  }

  private final class ZooKeeperHeld implements Held {
    private final String path;

    private ZooKeeperHeld(String path) {
      this.path = path;
    }

    /** False once the ZooKeeper session was suspended or lost. */
    @Override
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

  /** @throws IllegalStateException when ZooKeeper cannot be reached: nobody can tell whether another maintainer runs */
  @Override
  public Held tryAcquire(String table, String owner) {
    sessionLost.set(false);
    String path = root + "/" + URLEncoder.encode(table, StandardCharsets.UTF_8);
    try {
      client.blockUntilConnected(15, java.util.concurrent.TimeUnit.SECONDS);
      client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, owner.getBytes(StandardCharsets.UTF_8));
      return new ZooKeeperHeld(path);
    } catch (KeeperException.NodeExistsException held) {
      try {
        return ownNode(path) ? new ZooKeeperHeld(path) : null;
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

  @Override
  public String holder(String table) {
    try {
      return new String(client.getData().forPath(root + "/" + URLEncoder.encode(table, StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    } catch (KeeperException.NoNodeException free) {
      return null;
    } catch (Exception e) {
      throw new IllegalStateException("Cannot read the maintenance lease of " + table + " on ZooKeeper: " + e.getMessage(), e);
    }
  }

  /** Closes the connection: every lease still held is released with the session. */
  @Override
  public void close() {
    client.close();
  }
}
