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

import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.spi.TableRouter;
import org.apache.storm.tuple.ITuple;

/**
 * The heap of one routing {@code IcebergBolt} task writing many tables with a bound on the open ones,
 * in a JVM of its own (bench/run.sh gives it its -Xmx). Arguments: tables, the bound
 * ({@code withMaxOpenTables}), records per table visit.
 *
 * <p>The stream writes the tables in groups of {@code bound}: round robin over one group, {@code
 * visit} records to each, then the next group, so at every group's end the task holds {@code bound}
 * open batches, and each switch evicts (seals, commits, closes) the whole previous group. The live
 * heap at each group's end is what the bound implies: {@code bound} tables, each with its catalog
 * client, metadata and one open Parquet file (5 columns, unpartitioned). Every record must be acked.
 */
public final class RoutingMemory {
  private RoutingMemory() {}

  /** Row {@code r} (column c0 holds r) goes to table {@code db.t<n>} of the group its position picks. */
  static final class GroupRouter implements TableRouter {
    private final int tables;
    private final int bound;
    private final int visit;

    GroupRouter(int tables, int bound, int visit) {
      this.tables = tables;
      this.bound = bound;
      this.visit = visit;
    }

    @Override
    public String route(ITuple tuple) {
      long row = tuple.getLong(0);
      long group = row / ((long) bound * visit) % (tables / bound);
      return "db.t" + (group * bound + row % bound);
    }
  }

  public static void main(String[] args) throws Exception {
    int tables = Integer.parseInt(args[0]);
    int bound = Integer.parseInt(args[1]);
    int visit = Integer.parseInt(args[2]);
    Results results = new Results();
    HeapWatch watch = new HeapWatch();
    BenchData data = new BenchData(5, 1);
    int groups = tables / bound;
    long perGroup = (long) bound * visit;
    long records = groups * perGroup;
    String params = "tables=" + tables + " max-open-tables=" + bound + " records-per-visit=" + visit;
    try (TempTables temp = new TempTables("bench-routing");
        PreparedBolt prepared = new PreparedBolt(new IcebergOptions.Builder().withCatalogName("bench")
            .withCatalogProperties(temp.hadoop())
            .withHadoopConfiguration(TempTables.hadoopConfiguration()).withTableRouter(new GroupRouter(tables, bound, visit))
            .withAutoCreate(data.schema, data.spec).withMaxOpenTables(bound)
            // Only evictions seal: no record count is reached, and the time threshold (routing always has
            // one) is far beyond the run, below the 600 s message timeout.
            .withCommitIntervalRecords(records + 1).withCommitIntervalMillis(550_000).build(), data.fields)) {
      long before = HeapWatch.liveBytes();
      long peakLive = 0;
      long started = System.nanoTime();
      for (long i = 0; i < records; i++) {
        prepared.bolt.execute(data.tuple(i));
        if ((i + 1) % perGroup == 0 && ((i + 1) / perGroup) % Math.max(1, groups / 8) == 0) {
          peakLive = Math.max(peakLive, HeapWatch.liveBytes());
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      long acked = prepared.counts.acked;
      if (acked != records - perGroup) {
        throw new IllegalStateException("acked " + acked + " of the " + (records - perGroup)
            + " records of the evicted groups", prepared.counts.lastError);
      }
      results.add("RoutingMemory", params, "heap-before-MiB", 1, HeapWatch.mib(before), "MiB");
      results.add("RoutingMemory", params, "peak-live-heap-MiB", 1, HeapWatch.mib(peakLive), "MiB");
      results.add("RoutingMemory", params, "peak-after-gc-MiB", 1, HeapWatch.mib(watch.peakAfterGcBytes()), "MiB");
      results.add("RoutingMemory", params, "live-per-open-table-KiB", 1, (peakLive - before) / 1024.0 / bound, "KiB");
      results.add("RoutingMemory", params, "tables-per-s", 1, tables / seconds, "tables/s");
    }
  }
}
