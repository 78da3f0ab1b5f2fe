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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.IcebergSink;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.storm.iceberg.bench.rows.UpsertKeys;

/**
 * Flink's {@link IcebergSink} in upsert mode ({@code upsert(true)}, equality field {@code c0})
 * against its own append, on the rows {@code RowLevelCost} (bench) writes through our sink: the same
 * {@link UpsertKeys} and {@code BenchRows} values, so the same changes and the same number of
 * distinct keys. Each repetition runs both modes on the same rows in one process, in alternating
 * order, so the ratio upsert/append of a repetition is Flink's own, paired as {@code RowLevelCost}
 * pairs ours. The upsert table has {@code c0} required and as its identifier field; the append
 * table has {@code c0} required and no identifier field, since Flink's sink takes a table's
 * identifier fields as equality fields and would then key and track every row even in append mode.
 *
 * <p>The job is {@link FlinkPeer}'s: a MiniCluster of parallelism 1, a checkpoint (an Iceberg
 * commit) every second, HadoopCatalog on local disk, Parquet; timed from the first row made until
 * a checkpoint after the last row has committed, in wall and in process CPU time. In upsert mode
 * Flink keys the stream by {@code c0} before the writer, as its sink does for equality fields, and
 * writes an equality delete and the row for every change. The table of each warm-up repetition is
 * read back with deletes applied and checked: one row per key, the key's values.
 *
 * <p>Arguments: rows per run, repetitions, results CSV file ({@code -}: stdout only), column counts,
 * update percentages, format versions (defaults 200000 2 - 5,50 10,90 2). Repetition 0 warms the
 * JIT and is not reported.
 */
public final class FlinkUpsertPeer {
  static final String SUITE = "FlinkUpsertPeer";

  private FlinkUpsertPeer() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 200_000;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    Path out = args.length > 2 && !args[2].equals("-") ? Path.of(args[2]) : null;
    String columnCounts = args.length > 3 ? args[3] : "5,50";
    String updates = args.length > 4 ? args[4] : "10,90";
    String versions = args.length > 5 ? args[5] : "2";
    for (String columns : columnCounts.split(",")) {
      for (String percent : updates.split(",")) {
        for (String version : versions.split(",")) {
          measure(out, rows, reps, Integer.parseInt(columns.trim()), Integer.parseInt(percent.trim()), Integer.parseInt(version.trim()));
        }
      }
    }
  }

  private static void measure(Path out, long rows, int reps, int columns, int updatePercent, int version) throws Exception {
    String params = "columns=" + columns + " rows=" + rows + " updates=" + updatePercent + "% format=v" + version + " checkpoint=1s";
    for (int rep = 0; rep <= reps; rep++) {
      double[] append = null;
      double[] upsert = null;
      for (int v = 0; v < 2; v++) {
        if ((v + rep) % 2 == 0) {
          append = run(rows, columns, updatePercent, version, false, false);
        } else {
          upsert = run(rows, columns, updatePercent, version, true, rep == 0);
        }
      }
      if (rep > 0) {
        FlinkPeer.report(out, SUITE, params, "flink-IcebergSink append records/s", rep, append[0], "records/s");
        FlinkPeer.report(out, SUITE, params, "flink-IcebergSink upsert records/s", rep, upsert[0], "records/s");
        FlinkPeer.report(out, SUITE, params, "flink-IcebergSink append per-cpu-s", rep, append[1], "records/cpu-s");
        FlinkPeer.report(out, SUITE, params, "flink-IcebergSink upsert per-cpu-s", rep, upsert[1], "records/cpu-s");
        FlinkPeer.report(out, SUITE, params, "flink-IcebergSink upsert/append per cpu-s", rep, upsert[1] / append[1], "ratio");
        FlinkPeer.report(out, SUITE, params, "flink-IcebergSink upsert rows-committed-pct", rep, upsert[2], "%");
      }
    }
  }

  /**
   * Runs one job; returns changes committed per second and per process CPU second, and the share of
   * the changes the table's snapshots added (every one, since {@link RowsUntilCommitted} waits for
   * their commit). With {@code check}, reads the table back and throws unless it holds the model.
   */
  static double[] run(long rows, int columns, int updatePercent, int version, boolean upsert, boolean check) throws Exception {
    Path dir = Files.createTempDirectory("bench-flink-upsert");
    try {
      Schema schema = FlinkRows.keyed(columns, upsert);
      org.apache.hadoop.conf.Configuration hadoop = new org.apache.hadoop.conf.Configuration();
      // The same local file system as the Storm contenders (no .crc files): see LocalFileSystem.
      org.apache.storm.iceberg.bench.rows.LocalFileSystem.hadoopConfiguration().forEach(hadoop::set);
      String warehouse = dir.resolve("warehouse").toUri().toString();
      TableIdentifier id = TableIdentifier.of("db", "events");
      try (HadoopCatalog catalog = new HadoopCatalog(hadoop, warehouse)) {
        catalog.createTable(id, schema, PartitionSpec.unpartitioned(), Map.of(TableProperties.FORMAT_VERSION, Integer.toString(version)));
      }
      CatalogLoader loader = CatalogLoader.hadoop("bench", hadoop, Map.of("warehouse", warehouse));

      Configuration conf = new Configuration();
      // A failure is a broken benchmark: end the job rather than restart it.
      conf.setString("restart-strategy.type", "none");
      StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, conf);
      env.enableCheckpointing(1_000);
      FlinkPeer.FIRST_ROW_NANOS.set(0);
      DataStream<RowData> stream =
          env.addSource(new RowsUntilCommitted(rows), "rows", org.apache.flink.api.common.typeinfo.Types.LONG)
              .map(new Changes(columns, updatePercent))
              .returns(InternalTypeInfo.of(FlinkSchemaUtil.convert(schema)));
      IcebergSink.Builder sink = IcebergSink.forRowData(stream).tableLoader(TableLoader.fromCatalog(loader, id));
      if (upsert) {
        sink.equalityFieldColumns(List.of("c0")).upsert(true);
      }
      sink.append();
      env.execute("flink-upsert-peer");
      long end = System.nanoTime();
      long cpuEnd = FlinkPeer.cpuNanos();

      Table table = loader.loadCatalog().loadTable(id);
      long written = 0;
      for (Snapshot snapshot : table.snapshots()) {
        written += Long.parseLong(snapshot.summary().getOrDefault("added-records", "0"));
      }
      if (check) {
        UpsertReadBack.check(table, columns, upsert ? distinctKeys(rows, updatePercent) : rows);
      }
      return new double[] {
        written * 1e9 / (end - FlinkPeer.FIRST_ROW_NANOS.get()),
        written * 1e9 / (cpuEnd - FlinkPeer.FIRST_ROW_CPU_NANOS.get()),
        100.0 * written / rows
      };
    } finally {
      try (Stream<Path> paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static long distinctKeys(long rows, int updatePercent) {
    UpsertKeys keys = new UpsertKeys(updatePercent);
    for (long i = 0; i < rows; i++) {
      keys.next();
    }
    return keys.distinctKeys();
  }

  /**
   * The {@code i}-th number from the source becomes the {@code i}-th change: the row of the next key
   * {@link UpsertKeys} draws. Draws in arrival order, which is the source's at parallelism 1.
   */
  static final class Changes implements MapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    private final int columns;
    private final UpsertKeys keys;

    Changes(int columns, int updatePercent) {
      this.columns = columns;
      this.keys = new UpsertKeys(updatePercent);
    }

    @Override
    public RowData map(Long index) {
      if (FlinkPeer.FIRST_ROW_NANOS.get() == 0 && FlinkPeer.FIRST_ROW_NANOS.compareAndSet(0, System.nanoTime())) {
        FlinkPeer.FIRST_ROW_CPU_NANOS.set(FlinkPeer.cpuNanos());
      }
      return FlinkRows.row(keys.next(), columns);
    }
  }
}
