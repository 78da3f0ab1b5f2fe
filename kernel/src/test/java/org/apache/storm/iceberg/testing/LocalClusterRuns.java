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

package org.apache.storm.iceberg.testing;

import java.time.Duration;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.kernel.metrics.RegistryCapture;

/** Runs a topology in a LocalCluster until its {@link ReplayingSpout} has seen every id acked. */
public final class LocalClusterRuns {
  private LocalClusterRuns() {}

  /**
   * Waits until every worker of the JVM's LocalCluster has shut down. A test whose topologies read a
   * server it started (a Kafka broker) calls this before stopping the server: a topology's kill
   * returns before its worker is gone, and a worker still closing when its server is stopped fails
   * its close (a Kafka spout's offset commit times out), on which Storm's supervisor halts the JVM.
   */
  public static void awaitNoWorkers() throws InterruptedException {
    Deadline.await(Duration.ofSeconds(120), () -> org.apache.storm.ProcessSimulator.getAllProcessHandles().isEmpty(),
        () -> "every killed topology's worker to shut down; still running: " + org.apache.storm.ProcessSimulator.getAllProcessHandles().size());
  }

  /** The topology config the tests run with: ample pending tuples and timeout for every batch. */
  public static Config config() {
    Config conf = new Config();
    conf.setMaxSpoutPending(5_000);
    conf.setMessageTimeoutSecs(60);
    RegistryCapture.install(conf);
    return conf;
  }

  public static void runUntilAllAcked(
      LocalCluster cluster, String name, StormTopology topology, String ledgerKey, long events) throws Exception {
    runUntilAllAcked(cluster, name, config(), topology, ledgerKey, events);
  }

  /** As above, with the topology config {@code conf} (start from {@link #config()}). */
  public static void runUntilAllAcked(
      LocalCluster cluster, String name, Config conf, StormTopology topology, String ledgerKey, long events) throws Exception {
    runUntilAllAcked(cluster, name, topology, conf, ledgerKey, events, () -> {});
  }

  /** What a test does while its topology runs, before it waits for every id to be acked. */
  public interface WhileRunning {
    void run() throws Exception;
  }

  /** Runs with {@code conf}, doing {@code whileRunning} first, until every id is acked. */
  public static void runUntilAllAcked(LocalCluster cluster, String name, StormTopology topology, Config conf,
      String ledgerKey, long events, WhileRunning whileRunning) throws Exception {
    cluster.submitTopology(name, conf, topology);
    ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(ledgerKey);
    try {
      whileRunning.run();
      Deadline.await(
          Duration.ofSeconds(180),
          () -> ledger.acked.size() == events,
          () -> "all " + events + " ids acked; acked " + ledger.acked.size() + ", fails " + ledger.failCount.get());
    } finally {
      KillOptions kill = new KillOptions();
      kill.set_wait_secs(0);
      cluster.killTopologyWithOpts(name, kill);
    }
  }
}
