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

package org.apache.storm.iceberg.bench;

import java.time.Duration;
import java.util.UUID;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.trident.Stream;
import org.apache.storm.trident.TridentTopology;

/**
 * Runs a topology fed by a {@link CountingSpout} (or, for Trident, a {@link CountingTridentSpout})
 * in a LocalCluster until every row is acked.
 */
final class ClusterRuns {
  static final String SPOUT = "events";
  private static final Duration DEADLINE = Duration.ofMinutes(5);

  private ClusterRuns() {}

  /** Builds the topology behind a new spout, runs it to the last ack, kills it, returns what the spout saw. */
  static CountingSpout.Run run(
      LocalCluster cluster, long rows, BenchData data, int maxPending, java.util.function.Consumer<TopologyBuilder> sink)
      throws Exception {
    return run(cluster, rows, data, 0, maxPending, sink);
  }

  /**
   * As above, each tuple carrying {@code recordsPerTuple} rows ({@link CountingSpout#ROWS_FIELD}; 0 for
   * one row a tuple, its columns as fields); {@code maxPending} counts tuples.
   */
  static CountingSpout.Run run(
      LocalCluster cluster, long rows, BenchData data, int recordsPerTuple, int maxPending,
      java.util.function.Consumer<TopologyBuilder> sink)
      throws Exception {
    return run(cluster, rows, data, recordsPerTuple, maxPending, conf -> {}, sink);
  }

  /**
   * As above, {@code settings} changing the topology's Config last (after max spout pending, the
   * message timeout and the one acker, so it may override them): {@link StormSettings}' variants.
   */
  static CountingSpout.Run run(
      LocalCluster cluster, long rows, BenchData data, int recordsPerTuple, int maxPending,
      java.util.function.Consumer<Config> settings, java.util.function.Consumer<TopologyBuilder> sink)
      throws Exception {
    String key = UUID.randomUUID().toString().substring(0, 8);
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout(SPOUT, new CountingSpout(key, rows, data.columns, data.spec.isUnpartitioned() ? 1 : 16, recordsPerTuple), 1);
    sink.accept(builder);
    Config conf = new Config();
    conf.setMaxSpoutPending(maxPending);
    conf.setMessageTimeoutSecs(120);
    conf.setNumAckers(1);
    settings.accept(conf);
    return await(cluster, "bench-" + key, conf, builder.createTopology(), CountingSpout.run(key), rows, () -> {}, () -> {});
  }

  /**
   * Builds a Trident topology behind a new {@link CountingTridentSpout} of {@code batch} rows a
   * transaction, runs it until every transaction is committed, kills it, returns what the spout saw.
   * {@code atTenth} runs once when a tenth of the rows are committed, {@code atEnd} when all are,
   * before the topology is killed.
   */
  static CountingSpout.Run runTrident(
      LocalCluster cluster, long rows, BenchData data, int batch, java.util.function.Consumer<Stream> sink, Runnable atTenth,
      Runnable atEnd)
      throws Exception {
    String key = UUID.randomUUID().toString().substring(0, 8);
    TridentTopology trident = new TridentTopology();
    sink.accept(trident.newStream("bench-" + key,
        new CountingTridentSpout(key, rows, data.columns, data.spec.isUnpartitioned() ? 1 : 16, batch)));
    Config conf = new Config();
    // Transactions in flight, not tuples: one committing while the next is written.
    conf.setMaxSpoutPending(2);
    conf.setMessageTimeoutSecs(120);
    conf.setNumAckers(1);
    // Start the next batch as soon as one may start (the default waits 500 ms between batches).
    conf.put(Config.TOPOLOGY_TRIDENT_BATCH_EMIT_INTERVAL_MILLIS, 10);
    return await(cluster, "bench-" + key, conf, trident.build(), CountingTridentSpout.run(key), rows, atTenth, atEnd);
  }

  private static CountingSpout.Run await(
      LocalCluster cluster, String name, Config conf, StormTopology topology, CountingSpout.Run run, long rows, Runnable atTenth,
      Runnable atEnd)
      throws Exception {
    cluster.submitTopology(name, conf, topology);
    boolean tenthSeen = false;
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    try {
      while (run.acked.get() < rows) {
        if (!tenthSeen && run.acked.get() >= rows / 10) {
          tenthSeen = true;
          atTenth.run();
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(name + ": acked " + run.acked.get() + " of " + rows + " in " + DEADLINE);
        }
        Thread.sleep(20);
      }
      run.doneCpuNanos = CountingSpout.cpuNanos();
      run.doneJitMillis = CountingSpout.jitMillis();
      atEnd.run();
    } finally {
      KillOptions kill = new KillOptions();
      kill.set_wait_secs(0);
      cluster.killTopologyWithOpts(name, kill);
      while (cluster.getTopologySummaries().stream().anyMatch(t -> t.get_name().equals(name))) {
        Thread.sleep(100);
      }
    }
    return run;
  }
}
