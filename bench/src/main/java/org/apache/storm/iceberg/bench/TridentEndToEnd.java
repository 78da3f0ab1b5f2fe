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

import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.IcebergBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.trident.IcebergStateFactory;
import org.apache.storm.iceberg.trident.IcebergStateUpdater;
import org.apache.storm.iceberg.trident.IcebergTrident;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.tuple.Fields;

/**
 * Trident against the bolts, through whole topologies in one LocalCluster, each repetition running
 * four sinks back to back on the same rows (5 columns, a HadoopCatalog on local disk):
 *
 * <ul>
 *   <li>{@code acking-bolt}: {@link CountingSpout} into an {@link AckingBolt}, the baseline;
 *   <li>{@code iceberg-bolt}: {@link CountingSpout} into an {@link IcebergBolt} committing every
 *       {@code batch} records, as {@link EndToEnd} runs it;
 *   <li>{@code trident-state}: {@link CountingTridentSpout} ({@code batch} rows a transaction) into
 *       {@code partitionBy(c0).partitionPersist(IcebergStateFactory)}, one state partition;
 *   <li>{@code trident-persist}: the same spout into {@link IcebergTrident#persist}.
 * </ul>
 *
 * <p>One task of each component, one acker; timed from the first emit to the last ack (for Trident:
 * to the spout's ack of the last transaction, which Trident sends once the state committed it);
 * also per CPU second of the whole process. Repetition 0 warms the JIT and is not reported. Every
 * sink is also measured over its warm half ({@code warm}, {@code warm per-cpu-s}: from the middle
 * row's emit to the last ack), with the JIT's compile time in that half ({@code warm jit-ms}), as
 * {@link EndToEnd} measures the bolts.
 *
 * <p>Arguments: rows per run, rows per batch (and per transaction), repetitions (defaults 400000
 * 50000 3). {@code memory ROWS BATCH}: instead, the live heap (after full collections) of one long
 * run of each Trident sink, when a tenth of its rows are committed and when all are: a long Trident
 * run must keep bounded memory (run it with a small -Xmx).
 */
public final class TridentEndToEnd {
  private TridentEndToEnd() {}

  public static void main(String[] args) throws Exception {
    LocalCluster cluster = new LocalCluster();
    Results results = new Results();
    if (args.length > 0 && args[0].equals("memory")) {
      long rows = Long.parseLong(args[1]);
      int batch = Integer.parseInt(args[2]);
      for (boolean persist : new boolean[] {false, true}) {
        memory(cluster, results, new BenchData(5, 1), rows, batch, persist);
      }
    } else {
      long rows = args.length > 0 ? Long.parseLong(args[0]) : 400_000;
      int batch = args.length > 1 ? Integer.parseInt(args[1]) : 50_000;
      int reps = args.length > 2 ? Integer.parseInt(args[2]) : 3;
      for (int partitions : new int[] {1, 16}) {
        for (int rep = 0; rep <= reps; rep++) {
          measure(cluster, rep > 0 ? results : null, new BenchData(5, partitions), rows, batch, rep);
        }
      }
    }
    // Every figure is written; LocalCluster.close() can take minutes (see EndToEnd).
    System.exit(0);
  }

  /** One repetition of the four sinks; reported unless {@code results} is null. */
  static void measure(LocalCluster cluster, Results results, BenchData data, long rows, int batch, int rep) throws Exception {
    String params = "columns=" + data.columns + " partitions=" + (data.spec.isUnpartitioned() ? 1 : 16) + " rows=" + rows + " batch=" + batch;
    report(results, params, "acking-bolt", rep,
        ClusterRuns.run(cluster, rows, data, 2 * batch, b -> b.setBolt("sink", new AckingBolt(), 1).shuffleGrouping(ClusterRuns.SPOUT)));
    try (TempTables tables = new TempTables("bench-trident")) {
      IcebergOptions options = data.sinkOptions(tables.hadoop()).withCommitIntervalRecords(batch).build();
      report(results, params, "iceberg-bolt", rep,
          ClusterRuns.run(cluster, rows, data, 2 * batch, b -> b.setBolt("sink", new IcebergBolt(options), 1).shuffleGrouping(ClusterRuns.SPOUT)));
    }
    for (boolean persist : new boolean[] {false, true}) {
      try (TempTables tables = new TempTables("bench-trident")) {
        report(results, params, persist ? "trident-persist" : "trident-state", rep,
            trident(cluster, data, rows, batch, tridentOptions(data, tables), persist, () -> {}, () -> {}));
      }
    }
  }

  /** The live heap of one long run of a Trident sink, a tenth into it and at its end. */
  static void memory(LocalCluster cluster, Results results, BenchData data, long rows, int batch, boolean persist) throws Exception {
    String params = "columns=" + data.columns + " rows=" + rows + " batch=" + batch + " xmx=" + (Runtime.getRuntime().maxMemory() >> 20) + "m";
    String variant = persist ? "trident-persist" : "trident-state";
    long[] live = new long[2];
    HeapWatch watch = new HeapWatch();
    try (TempTables tables = new TempTables("bench-trident")) {
      CountingSpout.Run run = trident(cluster, data, rows, batch, tridentOptions(data, tables), persist,
          () -> live[0] = HeapWatch.liveBytes(), () -> live[1] = HeapWatch.liveBytes());
      results.add("TridentMemory", params, variant + " live-heap-at-10pct-MiB", 1, HeapWatch.mib(live[0]), "MiB");
      results.add("TridentMemory", params, variant + " live-heap-at-end-MiB", 1, HeapWatch.mib(live[1]), "MiB");
      results.add("TridentMemory", params, variant + " peak-heap-after-gc-MiB", 1, HeapWatch.mib(watch.peakAfterGcBytes()), "MiB");
      // What each further tuple left live: zero when memory is bounded.
      results.add("TridentMemory", params, variant + " growth-bytes-per-1000-tuples", 1,
          (live[1] - live[0]) * 1000.0 / (rows - rows / 10), "bytes");
      results.add("TridentMemory", params, variant + " records/s", 1, run.recordsPerSecond(), "records/s");
    }
  }

  private static IcebergOptions tridentOptions(BenchData data, TempTables tables) {
    return data.sinkOptions(tables.hadoop()).withTridentStateType(StateType.TRANSACTIONAL).build();
  }

  private static CountingSpout.Run trident(
      LocalCluster cluster, BenchData data, long rows, int batch, IcebergOptions options, boolean persist, Runnable atTenth,
      Runnable atEnd) throws Exception {
    return ClusterRuns.runTrident(cluster, rows, data, batch, stream -> {
      if (persist) {
        IcebergTrident.persist(stream, data.fields, options);
      } else {
        stream.partitionBy(new Fields("c0")).partitionPersist(new IcebergStateFactory(options), data.fields, new IcebergStateUpdater());
      }
    }, atTenth, atEnd);
  }

  private static void report(Results results, String params, String variant, int rep, CountingSpout.Run run) {
    if (results != null) {
      results.add("TridentEndToEnd", params, variant, rep, run.recordsPerSecond(), "records/s");
      results.add("TridentEndToEnd", params, variant + " per-cpu-s", rep, run.recordsPerCpuSecond(), "records/cpu-s");
      run.reportWarm(results, "TridentEndToEnd", params, variant, rep);
    }
  }
}
