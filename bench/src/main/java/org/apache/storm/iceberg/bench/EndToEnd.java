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

/**
 * Records per second through a whole topology in LocalCluster: one {@link CountingSpout} task into
 * one {@link IcebergBolt} task (commits every {@code batch} records to a HadoopCatalog on local disk),
 * against the same spout into one {@link AckingBolt} task. Same max-spout-pending, one acker, same
 * message timeout; timed from the first emit to the last ack. The ratio is the sink's share of the
 * cost of a topology that does nothing else. Also given per CPU second of the whole process (every
 * thread: spout, bolt, acker, Storm's own), the per-core figure compared with {@code FlinkPeer}.
 * Then IcebergBolt again, behind a spout whose tuples carry 1, 10 and 100 records each, mapped by
 * a multi-record mapper ({@link BenchRowsMapper}): what carrying many records a tuple saves of
 * Storm's per-tuple cost. Each repetition runs every variant on the same rows. The acking bolt and
 * IcebergBolt are also measured over their warm half ({@code warm}: from the middle tuple's emit to
 * the last ack), with the JIT's compile time in that half ({@code warm jit-ms}), as the Flink peer
 * measures its own.
 *
 * <p>Arguments: rows per run, records per batch, repetitions (defaults 500000 50000 3). A fourth,
 * {@code acking-bolt} or {@code iceberg-bolt}, runs only that sink and prints its figures instead of
 * writing them: a process to profile one topology in (see BENCHMARKS.md). A fifth, 1 (the default) or
 * 16, sets the table's partitions for that run.
 */
public final class EndToEnd {
  /** Records a tuple carries in the multi-record variants. */
  private static final int[] RECORDS_PER_TUPLE = {1, 10, 100};

  private EndToEnd() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 500_000;
    int batch = args.length > 1 ? Integer.parseInt(args[1]) : 50_000;
    int reps = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Results results = new Results();
    LocalCluster cluster = new LocalCluster();
    if (args.length > 3) {
      int partitions = args.length > 4 ? Integer.parseInt(args[4]) : 1;
      if (partitions != 1 && partitions != 16) {
        throw new IllegalArgumentException("the fifth argument is the table's partitions, 1 or 16 as the measured runs use, not " + partitions);
      }
      profileOne(cluster, args[3], new BenchData(5, partitions), rows, batch, reps);
    } else {
      for (int partitions : new int[] {1, 16}) {
        // Repetition 0 warms the JIT and is not reported.
        for (int rep = 0; rep <= reps; rep++) {
          measure(cluster, rep > 0 ? results : null, new BenchData(5, partitions), rows, batch, rep);
        }
      }
    }
    // Every figure is written. LocalCluster.close() can take minutes while tasks still hold catalog
    // connections, which would only lengthen the run; the JVM ends here instead.
    System.exit(0);
  }

  /** One repetition: the acking bolt, then IcebergBolt, behind the same spout; reported unless {@code results} is null. */
  static void measure(LocalCluster cluster, Results results, BenchData data, long rows, int batch, int rep) throws Exception {
    String params = "columns=" + data.columns + " partitions=" + (data.spec.isUnpartitioned() ? 1 : 16) + " rows=" + rows + " batch=" + batch;
    CountingSpout.Run noop = run(cluster, "acking-bolt", data, rows, batch, 2 * batch, conf -> {});
    CountingSpout.Run sink = run(cluster, "iceberg-bolt", data, rows, batch, 2 * batch, conf -> {});
    if (results != null) {
      results.add("EndToEnd", params, "acking-bolt", rep, noop.recordsPerSecond(), "records/s");
      results.add("EndToEnd", params, "iceberg-bolt", rep, sink.recordsPerSecond(), "records/s");
      results.add("EndToEnd", params, "acking-bolt per-cpu-s", rep, noop.recordsPerCpuSecond(), "records/cpu-s");
      results.add("EndToEnd", params, "iceberg-bolt per-cpu-s", rep, sink.recordsPerCpuSecond(), "records/cpu-s");
      noop.reportWarm(results, "EndToEnd", params, "acking-bolt", rep);
      sink.reportWarm(results, "EndToEnd", params, "iceberg-bolt", rep);
    }
    for (int perTuple : RECORDS_PER_TUPLE) {
      CountingSpout.Run many = manyRecords(cluster, data, rows, batch, perTuple);
      if (results != null) {
        String variant = "iceberg-bolt " + perTuple + " records/tuple";
        results.add("EndToEnd", params, variant, rep, many.recordsPerSecond(), "records/s");
        results.add("EndToEnd", params, variant + " per-cpu-s", rep, many.recordsPerCpuSecond(), "records/cpu-s");
      }
    }
  }

  /** Runs one sink alone, {@code reps} times after a warm-up, and prints its figures. */
  private static void profileOne(LocalCluster cluster, String sink, BenchData data, long rows, int batch, int reps)
      throws Exception {
    if (!sink.equals("acking-bolt") && !sink.equals("iceberg-bolt")) {
      throw new IllegalArgumentException("the fourth argument names the sink to run alone: acking-bolt or iceberg-bolt, not " + sink);
    }
    for (int rep = 0; rep <= reps; rep++) {
      CountingSpout.Run run = run(cluster, sink, data, rows, batch, 2 * batch, conf -> {});
      System.out.printf("%s rep %d: %.0f records/s, %.0f records/cpu-s%n", sink, rep, run.recordsPerSecond(), run.recordsPerCpuSecond());
    }
  }

  /**
   * One run of one sink, {@code acking-bolt} or {@code iceberg-bolt} (one task, a fresh table committed every
   * {@code batch} records), behind a new spout of one record a tuple, {@code settings} applied to the topology's
   * Config last: the run EndToEnd and {@link StormSettings} share.
   */
  static CountingSpout.Run run(
      LocalCluster cluster, String sink, BenchData data, long rows, int batch, int maxPending,
      java.util.function.Consumer<org.apache.storm.Config> settings)
      throws Exception {
    if (sink.equals("acking-bolt")) {
      return ClusterRuns.run(cluster, rows, data, 0, maxPending, settings,
          b -> b.setBolt("sink", new AckingBolt(), 1).shuffleGrouping(ClusterRuns.SPOUT));
    }
    try (TempTables tables = new TempTables("bench-e2e")) {
      IcebergOptions options = data.sinkOptions(tables.hadoop()).withCommitIntervalRecords(batch).build();
      return ClusterRuns.run(cluster, rows, data, 0, maxPending, settings,
          b -> b.setBolt("sink", new IcebergBolt(options), 1).shuffleGrouping(ClusterRuns.SPOUT));
    }
  }

  /** IcebergBolt behind tuples of {@code perTuple} records each, as many records pending as above. */
  private static CountingSpout.Run manyRecords(LocalCluster cluster, BenchData data, long rows, int batch, int perTuple)
      throws Exception {
    try (TempTables tables = new TempTables("bench-e2e-many")) {
      IcebergOptions options = data.sinkOptions(tables.hadoop()).withCommitIntervalRecords(batch)
          .withMultiRecordMapper(new BenchRowsMapper()).build();
      return ClusterRuns.run(cluster, rows, data, perTuple, Math.max(1, 2 * batch / perTuple),
          b -> b.setBolt("sink", new IcebergBolt(options), 1).shuffleGrouping(ClusterRuns.SPOUT));
    }
  }
}
