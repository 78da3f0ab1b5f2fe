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
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.IcebergBolt;
import org.apache.storm.iceberg.IcebergCommitterBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.kernel.options.SinkSettings.CatalogTarget;

/**
 * Commits per second as writers are added, on a JdbcCatalog (SQLite file): {@code p} IcebergBolt
 * tasks each committing its own batches, against {@code p} IcebergWriterBolt tasks behind one
 * IcebergCommitterBolt (globalGrouping). Every writer seals on age (1 s, tick 1 s), so the bolts try
 * {@code p} commits a second; the committer commits every second whatever {@code p} is. Measured
 * from the first emit to the last ack: snapshots per second (snapshots in the table over that time),
 * commit conflicts ({@code CommitFailedException} from the catalog, each followed by Iceberg's own
 * refresh-and-retry; see {@link CountingJdbcCatalog}) and rows failed back to the spout (batches the
 * sink gave up on after its own retries, replayed), and records per second. 5 columns, unpartitioned.
 *
 * <p>Arguments: rows per run, repetitions, writer parallelisms (defaults 150000 2 1,4,8,16).
 */
public final class CommitScaling {
  private CommitScaling() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 150_000;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    String[] parallelisms = (args.length > 2 ? args[2] : "1,4,8,16").split(",");
    Results results = new Results();
    BenchData data = new BenchData(5, 1);
    LocalCluster cluster = new LocalCluster();
    {
      for (String p : parallelisms) {
        int writers = Integer.parseInt(p);
        for (int rep = 1; rep <= reps; rep++) {
          for (boolean split : new boolean[] {false, true}) {
            measure(cluster, results, data, rows, writers, split, rep);
          }
        }
      }
    }
    // Every figure is written. LocalCluster.close() can take minutes while tasks still hold catalog
    // connections, which would only lengthen the run; the JVM ends here instead.
    System.exit(0);
  }

  static void measure(LocalCluster cluster, Results results, BenchData data, long rows, int writers, boolean split, int rep)
      throws Exception {
    try (TempTables tables = new TempTables("bench-commits")) {
      Map<String, String> catalog = tables.jdbcSqlite(CountingJdbcCatalog.class.getName());
      // SQLite allows one writer at a time; wait for the lock rather than fail at once.
      catalog.put("jdbc.busy_timeout", "2000");
      IcebergOptions writerOptions =
          data.sinkOptions(catalog)
              .withCommitIntervalRecords(1_000_000)
              .withCommitIntervalMillis(1_000)
              .withTickIntervalSecs(1)
              .build();
      IcebergOptions committerOptions =
          data.sinkOptions(catalog)
              .withGroupCommitIntervalMillis(1_000)
              .withTickIntervalSecs(1)
              .build();
      // Created up front so that writers do not race to auto-create it.
      Table table = OpenedTable.loadCatalog(new CatalogTarget(writerOptions.catalogName(), catalog, writerOptions.table(), null, TempTables.hadoopConfiguration())).createTable(
          TableIdentifier.of("db", "events"), data.schema, data.spec, null, Map.of("format-version", "2"));
      CountingJdbcCatalog.reset();
      CountingSpout.Run run =
          ClusterRuns.run(cluster, rows, data, 100_000, b -> {
            if (split) {
              b.setBolt("writer", new IcebergWriterBolt(writerOptions), writers).shuffleGrouping(ClusterRuns.SPOUT);
              b.setBolt("committer", new IcebergCommitterBolt(committerOptions), 1).globalGrouping("writer");
            } else {
              b.setBolt("writer", new IcebergBolt(writerOptions), writers).shuffleGrouping(ClusterRuns.SPOUT);
            }
          });
      table.refresh();
      long snapshots = 0;
      for (var ignored : table.snapshots()) {
        snapshots++;
      }
      String params = "writers=" + writers;
      String variant = split ? "split-sink" : "iceberg-bolt";
      results.add("CommitScaling", params, variant + " snapshots/s", rep, snapshots / run.seconds(), "snapshots/s");
      results.add("CommitScaling", params, variant + " conflicts", rep, CountingJdbcCatalog.CONFLICTS.get(), "count");
      results.add("CommitScaling", params, variant + " commit-attempts", rep, CountingJdbcCatalog.ATTEMPTS.get(), "count");
      results.add("CommitScaling", params, variant + " rows-failed", rep, run.failed.get(), "count");
      results.add("CommitScaling", params, variant + " records/s", rep, run.recordsPerSecond(), "records/s");
    }
  }
}
