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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.iceberg.IcebergBolt;
import org.apache.storm.iceberg.IcebergCommitterBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.iceberg.kernel.metrics.RegistryCapture;

/**
 * Load held over time: a LocalCluster topology, one {@link PacedSpout} task into one sink task (or,
 * for the split sink, one {@link IcebergWriterBolt} task into one {@link IcebergCommitterBolt}),
 * first unthrottled for a short while to measure its peak rate, then for {@code minutes} at {@value
 * #LOAD} of that peak, on a fresh HadoopCatalog table. Every interval (a minute by default) it
 * records a {@link SoakInterval}; at the end it checks each figure for flatness ({@link
 * SoakInterval.Metric}), then stops the spout, waits for every tuple in flight to be acked, and
 * checks that the table holds every acked row. 5 columns, unpartitioned; the sink seals every
 * {@value #BATCH} records or every second, the split sink's committer commits every second.
 *
 * <p>Arguments: minutes (default 10), seconds the peak is measured over, after as many of warm-up
 * (default 20), seconds an interval (default 60), sinks (default {@code iceberg-bolt,split-sink}).
 */
public final class Soak {
  static final double LOAD = 0.8;
  static final int BATCH = 50_000;
  private static final long DRAIN_MILLIS = 180_000;

  private Soak() {}

  public static void main(String[] args) throws Exception {
    double minutes = args.length > 0 ? Double.parseDouble(args[0]) : 10;
    int peakSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int intervalSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 60;
    String[] sinks = (args.length > 3 ? args[3] : "iceberg-bolt,split-sink").split(",");
    Results results = new Results();
    LocalCluster cluster = new LocalCluster();
    try {
      for (String sink : sinks) {
        soak(cluster, results, sink, minutes, peakSeconds, intervalSeconds);
      }
    } catch (Exception | Error failure) {
      // LocalCluster's uncaught-exception handler only logs, and without a logger binding says nothing.
      failure.printStackTrace();
      System.exit(1);
    }
    // Every figure is written. LocalCluster.close() can take minutes while tasks still hold catalog
    // connections, which would only lengthen the run; the JVM ends here instead.
    System.exit(0);
  }

  /**
   * Measures {@code sink}'s peak, soaks it at {@value #LOAD} of it and writes every interval's
   * figures and the verdicts to {@code results}; returns whether every figure stayed flat.
   */
  static boolean soak(LocalCluster cluster, Results results, String sink, double minutes, int peakSeconds, int intervalSeconds)
      throws Exception {
    BenchData data = new BenchData(5, 1);
    double peak = run(cluster, data, sink, 0, 0, peakSeconds, null);
    String params = "sink=" + sink;
    results.add("Soak", params, "peak records/s", 0, peak, "records/s");
    results.add("Soak", params, "target records/s", 0, LOAD * peak, "records/s");
    int count = Math.max(2, (int) Math.round(minutes * 60 / intervalSeconds));
    List<SoakInterval> intervals = new ArrayList<>();
    run(cluster, data, sink, LOAD * peak, count, intervalSeconds, intervals);
    if (intervals.stream().skip(1).mapToDouble(SoakInterval::commitsPerSecond).sum() == 0) {
      throw new IllegalStateException("Soak " + sink + ": no commit timed after the first interval (is "
          + RegistryCapture.class.getSimpleName() + " reading the sink's metrics?): " + intervals);
    }
    for (SoakInterval interval : intervals) {
      for (SoakInterval.Metric metric : SoakInterval.Metric.values()) {
        results.add("Soak", params, metric.label, interval.index(), metric.value.applyAsDouble(interval), metric.label);
      }
      results.add("Soak", params, "load-average", interval.index(), interval.loadAverage(), "load-average");
    }
    boolean allFlat = true;
    for (SoakInterval.Metric metric : SoakInterval.Metric.values()) {
      boolean flat = metric.flat(intervals, LOAD * peak);
      allFlat &= flat;
      results.add("Soak", params, "flat " + metric.label, 0, flat ? 1 : 0, metric.rule());
    }
    System.out.println("Soak " + sink + ": " + (allFlat ? "flat" : "NOT flat"));
    return allFlat;
  }

  /**
   * Runs one topology on a fresh table. With {@code intervals} null, unthrottled: waits {@code
   * seconds} after the first ack, then returns the ack rate over the next {@code seconds}. Otherwise
   * at {@code rate} a second for {@code count} intervals of {@code seconds}, added to {@code
   * intervals}; returns the rate the spout offered.
   */
  private static double run(
      LocalCluster cluster, BenchData data, String sink, double rate, int count, int seconds, List<SoakInterval> intervals)
      throws Exception {
    String key = UUID.randomUUID().toString().substring(0, 8);
    String name = "soak-" + key;
    try (TempTables tables = new TempTables("bench-soak")) {
      Map<String, String> catalogProperties = tables.hadoop();
      Catalog catalog = CatalogUtil.buildIcebergCatalog("bench", catalogProperties, TempTables.hadoopConf());
      // Created up front, so that the writer and the committer do not race to auto-create it.
      Table table = catalog.createTable(TableIdentifier.of("db", "events"), data.schema, data.spec, Map.of("format-version", "2"));
      TopologyBuilder builder = new TopologyBuilder();
      builder.setSpout(ClusterRuns.SPOUT, new PacedSpout(key, data.columns, rate), 1);
      addSink(builder, sink, data, catalogProperties);
      Config conf = new Config();
      conf.setMaxSpoutPending(2 * BATCH);
      conf.setMessageTimeoutSecs(120);
      conf.setNumAckers(1);
      RegistryCapture.install(conf);
      PacedSpout.Pace pace = PacedSpout.pace(key);
      cluster.submitTopology(name, conf, builder.createTopology());
      try {
        awaitFirstAck(pace, name);
        double measured = intervals == null ? peak(pace, seconds) : soak(pace, name, count, seconds, intervals);
        drain(pace, name);
        checkCommitted(table, pace, name);
        return measured;
      } finally {
        kill(cluster, name);
      }
    }
  }

  private static void addSink(TopologyBuilder builder, String sink, BenchData data, Map<String, String> catalog) {
    IcebergOptions writer =
        data.sinkOptions(catalog).withCommitIntervalRecords(BATCH).withCommitIntervalMillis(1_000).withTickIntervalSecs(1).build();
    switch (sink) {
      case "iceberg-bolt":
        builder.setBolt("sink", new IcebergBolt(writer), 1).shuffleGrouping(ClusterRuns.SPOUT);
        return;
      case "split-sink":
        IcebergOptions committer = data.sinkOptions(catalog).withGroupCommitIntervalMillis(1_000).withTickIntervalSecs(1).build();
        builder.setBolt("writer", new IcebergWriterBolt(writer), 1).shuffleGrouping(ClusterRuns.SPOUT);
        builder.setBolt("committer", new IcebergCommitterBolt(committer), 1).globalGrouping("writer");
        return;
      default:
        throw new IllegalArgumentException("Unknown sink " + sink + ": name iceberg-bolt or split-sink");
    }
  }

  private static double peak(PacedSpout.Pace pace, int seconds) throws InterruptedException {
    Thread.sleep(seconds * 1000L);
    long before = pace.acked.get();
    long start = System.nanoTime();
    Thread.sleep(seconds * 1000L);
    long acked = pace.acked.get() - before;
    if (acked == 0) {
      throw new IllegalStateException("No tuple acked in " + seconds + " s of the peak measurement: measure over more seconds than a commit takes");
    }
    return acked * 1e9 / (System.nanoTime() - start);
  }

  private static double soak(PacedSpout.Pace pace, String name, int count, int seconds, List<SoakInterval> intervals)
      throws InterruptedException {
    SoakSampler sampler = new SoakSampler(name, pace);
    sampler.start();
    for (int i = 1; i <= count; i++) {
      SoakInterval interval = sampler.next(i, seconds);
      System.out.println(name + " " + interval);
      intervals.add(interval);
    }
    return pace.ratePerSecond;
  }

  private static void awaitFirstAck(PacedSpout.Pace pace, String name) throws InterruptedException {
    long deadline = System.currentTimeMillis() + DRAIN_MILLIS;
    while (pace.acked.get() == 0) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(name + ": no tuple acked in " + DRAIN_MILLIS + " ms");
      }
      Thread.sleep(50);
    }
  }

  /** Stops the spout's new rows and waits until every row it emitted is acked (failed ones replay). */
  private static void drain(PacedSpout.Pace pace, String name) throws InterruptedException {
    pace.stopped = true;
    long deadline = System.currentTimeMillis() + DRAIN_MILLIS;
    while (pace.inFlight() > 0) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(name + ": " + pace.inFlight() + " rows still unacked " + DRAIN_MILLIS + " ms after the spout stopped");
      }
      Thread.sleep(50);
    }
  }

  /** Every acked row is in the table (at least once: a replayed row may be there twice). */
  private static void checkCommitted(Table table, PacedSpout.Pace pace, String name) {
    table.refresh();
    Snapshot current = table.currentSnapshot();
    long rows = current == null ? 0 : Long.parseLong(current.summary().getOrDefault("total-records", "0"));
    if (rows < pace.acked.get()) {
      throw new IllegalStateException(name + ": the table holds " + rows + " rows, but " + pace.acked.get() + " were acked");
    }
  }

  private static void kill(LocalCluster cluster, String name) throws Exception {
    KillOptions kill = new KillOptions();
    kill.set_wait_secs(0);
    cluster.killTopologyWithOpts(name, kill);
    while (cluster.getTopologySummaries().stream().anyMatch(t -> t.get_name().equals(name))) {
      Thread.sleep(100);
    }
  }
}
