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

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.storm.shade.org.apache.zookeeper.server.NIOServerCnxnFactory;
import org.apache.storm.zookeeper.Zookeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The maintenance lease on a real ZooKeeper (Storm's in-process one, as LocalCluster runs it): two
 * maintainers of one table, as two topologies or a topology and a cron run would be.
 */
class ZooKeeperLeaseTest {
  @TempDir Path dir;
  NIOServerCnxnFactory zooKeeper;
  String connect;

  @BeforeEach
  void startZooKeeper() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    zooKeeper = Zookeeper.mkInprocessZookeeper(dir.toString(), port);
    connect = "127.0.0.1:" + port;
  }

  @AfterEach
  void stopZooKeeper() {
    Zookeeper.shutdownInprocessZookeeper(zooKeeper);
  }

  @Test
  void aLiveOwnersLeaseIsNeverTakenAndIsFreeOnceReleased() {
    try (MaintenanceLease topology = ZooKeeperLease.connect(connect, ZooKeeperLease.ROOT, Duration.ofSeconds(10));
        MaintenanceLease cron = ZooKeeperLease.connect(connect, ZooKeeperLease.ROOT, Duration.ofSeconds(10))) {
      MaintenanceLease.Held held = topology.tryAcquire("db.events", "topology-a");
      assertThat(held).isNotNull();
      assertThat(held.valid()).isTrue();
      assertThat(cron.tryAcquire("db.events", "cron")).as("a live owner's lease").isNull();
      assertThat(cron.holder("db.events")).isEqualTo("topology-a");
      assertThat(cron.tryAcquire("db.other", "cron")).as("another table's lease").isNotNull();

      held.close();
      assertThat(cron.holder("db.events")).isNull();
      assertThat(cron.tryAcquire("db.events", "cron")).isNotNull();
      assertThat(topology.tryAcquire("db.events", "topology-a")).isNull();
    }
  }

  @Test
  void anOwnerWhoseSessionEndsLosesItsLeaseToTheNext() {
    MaintenanceLease gone = ZooKeeperLease.connect(connect, ZooKeeperLease.ROOT, Duration.ofSeconds(10));
    assertThat(gone.tryAcquire("db.events", "worker-that-dies")).isNotNull();
    try (MaintenanceLease next = ZooKeeperLease.connect(connect, ZooKeeperLease.ROOT, Duration.ofSeconds(10))) {
      assertThat(next.tryAcquire("db.events", "next")).isNull();
      gone.close(); // its session ends: a crashed worker's ends when its timeout passes
      assertThat(next.tryAcquire("db.events", "next")).isNotNull();
      assertThat(next.holder("db.events")).isEqualTo("next");
    }
  }

  @Test
  void aLeaseWhoseConnectionIsLostIsNoLongerValid() throws Exception {
    try (MaintenanceLease lease = ZooKeeperLease.connect(connect, ZooKeeperLease.ROOT, Duration.ofSeconds(10))) {
      MaintenanceLease.Held held = lease.tryAcquire("db.events", "owner");
      Zookeeper.shutdownInprocessZookeeper(zooKeeper);
      org.apache.storm.iceberg.testing.Deadline.await(Duration.ofSeconds(30), () -> !held.valid(), () -> "the lease to be invalid");
      zooKeeper = Zookeeper.mkInprocessZookeeper(dir.resolve("second").toString(), Integer.parseInt(connect.substring(connect.indexOf(':') + 1)));
    }
  }

  @Test
  void theBoltNeedsStormsZooKeeperForItsLease() {
    assertThat(TableMaintainer.zooKeeperOf(java.util.Map.of(org.apache.storm.Config.STORM_ZOOKEEPER_SERVERS,
        java.util.List.of("zk1", "zk2"), org.apache.storm.Config.STORM_ZOOKEEPER_PORT, 2181))).isEqualTo("zk1:2181,zk2:2181");
    assertThatThrownBy(() -> TableMaintainer.zooKeeperOf(java.util.Map.of()))
        .hasMessageStartingWith("The maintenance bolt's lease needs Storm's ZooKeeper, but storm.zookeeper.servers is not set");
  }
}
