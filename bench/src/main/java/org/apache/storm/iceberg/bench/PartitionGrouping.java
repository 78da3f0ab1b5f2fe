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

import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.IcebergCommitterBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergPartitionGrouping;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.iceberg.kernel.options.SinkSettings.CatalogTarget;
import org.apache.storm.iceberg.kernel.table.OpenedTable;

/**
 * {@link IcebergPartitionGrouping} against a shuffle, in LocalCluster: one {@link CountingSpout}
 * task into 8 {@link IcebergWriterBolt} tasks and one {@link IcebergCommitterBolt}, JdbcCatalog on
 * SQLite, 5 columns in {@code bucket(p, c0)}. Writers seal every 2 s, the committer commits every
 * 2 s, so each commit holds every writer's files. Per run: data files per commit (the snapshots'
 * {@code added-data-files}), data files per partition, records per second and per second of process
 * CPU, and the largest heap used after a collection during the run. Each repetition runs both
 * variants back to back, starting with the other variant each time.
 *
 * <p>Arguments: rows per run, repetitions, partition counts (defaults 256000 3 16,128).
 */
public final class PartitionGrouping {
  static final int WRITERS = 8;

  private PartitionGrouping() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 256_000;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    String[] partitionCounts = (args.length > 2 ? args[2] : "16,128").split(",");
    Results results = new Results();
    LocalCluster cluster = new LocalCluster();
    for (String p : partitionCounts) {
      BenchData data = new BenchData(5, Integer.parseInt(p));
      // Repetition 0 warms the JIT and is not reported.
      for (int rep = 0; rep <= reps; rep++) {
        for (int i = 0; i < 2; i++) {
          boolean grouped = (rep + i) % 2 == 0;
          measure(cluster, rep > 0 ? results : null, data, Integer.parseInt(p), rows, grouped, rep);
        }
      }
    }
    // Every figure is written; LocalCluster.close() can take minutes with catalogs still open.
    System.exit(0);
  }

  static void measure(LocalCluster cluster, Results results, BenchData data, int partitions, long rows, boolean grouped, int rep)
      throws Exception {
    try (TempTables tables = new TempTables("bench-grouping")) {
      Map<String, String> catalog = tables.jdbcSqlite("org.apache.iceberg.jdbc.JdbcCatalog");
      catalog.put("jdbc.busy_timeout", "2000");
      IcebergOptions writerOptions =
          data.sinkOptions(catalog).withCommitIntervalRecords(1_000_000).withCommitIntervalMillis(2_000).withTickIntervalSecs(1).build();
      IcebergOptions committerOptions =
          data.sinkOptions(catalog).withGroupCommitIntervalMillis(2_000).withTickIntervalSecs(1).build();
      // Created up front so that writers do not race to auto-create it.
      Table table = OpenedTable.loadCatalog(new CatalogTarget(writerOptions.catalogName(), catalog, writerOptions.table(), null, TempTables.hadoopConfiguration()))
          .createTable(TableIdentifier.of("db", "events"), data.schema, data.spec, null, Map.of("format-version", "2"));
      HeapWatch heap = new HeapWatch();
      CountingSpout.Run run =
          ClusterRuns.run(cluster, rows, data, 50_000, b -> {
            var writers = b.setBolt("writer", new IcebergWriterBolt(writerOptions), WRITERS);
            if (grouped) {
              writers.customGrouping(ClusterRuns.SPOUT, new IcebergPartitionGrouping(writerOptions));
            } else {
              writers.shuffleGrouping(ClusterRuns.SPOUT);
            }
            b.setBolt("committer", new IcebergCommitterBolt(committerOptions), 1).globalGrouping("writer");
          });
      table.refresh();
      long snapshots = 0;
      long files = 0;
      for (Snapshot snapshot : table.snapshots()) {
        snapshots++;
        files += Long.parseLong(snapshot.summary().getOrDefault("added-data-files", "0"));
      }
      if (results != null) {
        String params = "partitions=" + partitions + " writers=" + WRITERS + " rows=" + rows;
        String variant = grouped ? "grouping" : "shuffle";
        results.add("PartitionGrouping", params, variant + " files/commit", rep, (double) files / snapshots, "files");
        results.add("PartitionGrouping", params, variant + " files/partition", rep, (double) files / partitions, "files");
        results.add("PartitionGrouping", params, variant + " per-cpu-s", rep, run.recordsPerCpuSecond(), "records/cpu-s");
        results.add("PartitionGrouping", params, variant + " records/s", rep, run.recordsPerSecond(), "records/s");
        results.add("PartitionGrouping", params, variant + " heap-after-gc", rep, HeapWatch.mib(heap.peakAfterGcBytes()), "MiB");
        results.add("PartitionGrouping", params, variant + " rows-failed", rep, run.failed.get(), "count");
      }
    }
  }
}
