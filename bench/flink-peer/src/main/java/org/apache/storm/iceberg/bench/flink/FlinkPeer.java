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

package org.apache.storm.iceberg.bench.flink;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkSink;
import org.apache.iceberg.flink.sink.IcebergSink;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * Flink's {@link IcebergSink} writing the rows the Storm benchmarks write (5 columns; values from
 * the shared {@code BenchRows}, through {@link FlinkRows}, as this module has no Storm on its classpath)
 * into the same kind of table: a HadoopCatalog on local disk, format version 2, Parquet, unpartitioned
 * or bucket(16, c0). Flink runs in a local MiniCluster with parallelism 1 (one slot: source, mapper
 * and writer chained; the committer beside them) and checkpoints every second, each checkpoint one
 * Iceberg commit; the source stays up until every row is committed ({@link RowsUntilCommitted}).
 * Timed from the first row made to the job's end (the last commit landed), and in
 * process CPU seconds over the same span, so "rows per CPU second" compares the peers per core.
 *
 * <p>Flink on Java 17 needs {@code --add-opens java.base/java.util=ALL-UNNAMED} (and java.lang), as
 * Flink's own launch scripts pass; bench/run.sh does.
 *
 * <p>Arguments: rows per run, repetitions, results CSV file (defaults 500000 3, stdout only).
 */
public final class FlinkPeer {
  static final int COLUMNS = 5;
  static final AtomicLong FIRST_ROW_NANOS = new AtomicLong();
  static final AtomicLong FIRST_ROW_CPU_NANOS = new AtomicLong();
  /* The warm half, as EndToEnd measures Storm's: from the middle row's emit to the job's end. */
  static volatile long middleRow;
  static final AtomicLong WARM_NANOS = new AtomicLong();
  static final AtomicLong WARM_CPU_NANOS = new AtomicLong();
  static final AtomicLong WARM_JIT_MILLIS = new AtomicLong();

  private FlinkPeer() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 500_000;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path out = args.length > 2 ? Path.of(args[2]) : null;
    for (int partitions : new int[] {1, 16}) {
      String params = "columns=5 partitions=" + partitions + " rows=" + rows + " checkpoint=1s";
      // Repetition 0 warms the JIT and is not reported.
      for (int rep = 0; rep <= reps; rep++) {
        for (boolean v2 : new boolean[] {true, false}) {
          double[] rate = run(rows, partitions, v2);
          String variant = v2 ? "flink-IcebergSink" : "flink-FlinkSink";
          if (rep > 0) {
            report(out, "FlinkPeer", params, variant, rep, rate[0], "records/s");
            report(out, "FlinkPeer", params, variant + " per-cpu-s", rep, rate[1], "records/cpu-s");
            report(out, "FlinkPeer", params, variant + " rows-committed-pct", rep, rate[2], "%");
            report(out, "FlinkPeer", params, variant + " warm", rep, rate[3], "records/s");
            report(out, "FlinkPeer", params, variant + " warm per-cpu-s", rep, rate[4], "records/cpu-s");
            report(out, "FlinkPeer", params, variant + " warm jit-ms", rep, rate[5], "ms");
          }
        }
      }
    }
  }

  /**
   * Runs one job through IcebergSink ({@code v2}) or the older FlinkSink; returns rows committed per
   * second and per process CPU second, the share of the rows the table holds when the job ends
   * (every row, since {@link RowsUntilCommitted} waits for a checkpoint after its last row), and the
   * warm half's rows per second, per process CPU second and JIT milliseconds.
   */
  static double[] run(long rows, int partitions, boolean v2) throws Exception {
    Path dir = Files.createTempDirectory("bench-flink");
    try {
      Schema schema = FlinkRows.schema(COLUMNS);
      PartitionSpec spec = partitions <= 1 ? PartitionSpec.unpartitioned() : PartitionSpec.builderFor(schema).bucket("c0", partitions).build();
      org.apache.hadoop.conf.Configuration hadoop = new org.apache.hadoop.conf.Configuration();
      // The same local file system as the Storm contenders (no .crc files): see LocalFileSystem.
      org.apache.storm.iceberg.bench.rows.LocalFileSystem.hadoopConfiguration().forEach(hadoop::set);
      String warehouse = dir.resolve("warehouse").toUri().toString();
      TableIdentifier id = TableIdentifier.of("db", "events");
      try (HadoopCatalog catalog = new HadoopCatalog(hadoop, warehouse)) {
        catalog.createTable(id, schema, spec, Map.of("format-version", "2"));
      }
      CatalogLoader loader = CatalogLoader.hadoop("bench", hadoop, Map.of("warehouse", warehouse));

      Configuration conf = new Configuration();
      // A failure is a broken benchmark: end the job rather than restart it.
      conf.setString("restart-strategy.type", "none");
      StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, conf);
      env.enableCheckpointing(1_000);
      RowType rowType = FlinkSchemaUtil.convert(schema);
      FIRST_ROW_NANOS.set(0);
      WARM_NANOS.set(0);
      middleRow = rows / 2;
      DataStream<RowData> stream =
          env.addSource(new RowsUntilCommitted(rows), "rows", org.apache.flink.api.common.typeinfo.Types.LONG)
              .map(FlinkPeer::row)
              .returns(InternalTypeInfo.of(rowType));
      if (v2) {
        IcebergSink.forRowData(stream).tableLoader(TableLoader.fromCatalog(loader, id)).append();
      } else {
        FlinkSink.forRowData(stream).tableLoader(TableLoader.fromCatalog(loader, id)).append();
      }
      env.execute("flink-peer");
      long end = System.nanoTime();
      long cpuEnd = cpuNanos();
      long jitEnd = jitMillis();

      Table table = loader.loadCatalog().loadTable(id);
      long written = 0;
      for (Snapshot snapshot : table.snapshots()) {
        written += Long.parseLong(snapshot.summary().getOrDefault("added-records", "0"));
      }
      return new double[] {
        written * 1e9 / (end - FIRST_ROW_NANOS.get()), written * 1e9 / (cpuEnd - FIRST_ROW_CPU_NANOS.get()), 100.0 * written / rows,
        (written - middleRow) * 1e9 / (end - WARM_NANOS.get()), (written - middleRow) * 1e9 / (cpuEnd - WARM_CPU_NANOS.get()),
        jitEnd - WARM_JIT_MILLIS.get()
      };
    } finally {
      try (Stream<Path> paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** Row {@code row} as the Storm benchmarks write it, in Flink's internal row format; the first row starts the clocks. */
  private static RowData row(long row) {
    if (FIRST_ROW_NANOS.get() == 0 && FIRST_ROW_NANOS.compareAndSet(0, System.nanoTime())) {
      FIRST_ROW_CPU_NANOS.set(cpuNanos());
    }
    if (row == middleRow && WARM_NANOS.get() == 0) {
      WARM_JIT_MILLIS.set(jitMillis());
      WARM_CPU_NANOS.set(cpuNanos());
      WARM_NANOS.set(System.nanoTime());
    }
    return FlinkRows.row(row, COLUMNS);
  }

  static long jitMillis() {
    return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
  }

  static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static void report(Path out, String suite, String params, String variant, int rep, double value, String unit) throws IOException {
    String line = String.format(Locale.ROOT, "%s,%s,%s,%d,%.3f,%s%n", suite, params.replace(',', ';'), variant, rep, value, unit);
    System.out.print(line);
    if (out != null) {
      Files.writeString(out, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
  }
}
