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

import java.lang.management.ManagementFactory;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.tuple.Tuple;

/**
 * The heap one open batch keeps live, measured in a JVM of its own (bench/run.sh gives it its
 * -Xmx). The sink streams records into open Parquet files and keeps of each tuple only its ack ids,
 * spilled to a file beyond a few MiB, so the heap should not grow with the batch.
 *
 * <ul>
 *   <li>{@code records N}: one batch of N records (5 columns, unpartitioned), every record a new
 *       tuple, as in a worker. The live heap after a tenth and after nine tenths of the batch gives
 *       the bytes the batch keeps per tuple. The batch is committed at the end, and must be acked
 *       whole.
 *   <li>{@code partitions COLUMNS}: batches of 1000 records per partition into 1, 10 and 100 bucket
 *       partitions, live heap measured before the seal; the slope is the heap per open file (Parquet
 *       writer state plus its first 1000 rows of buffered pages).
 * </ul>
 */
public final class BatchMemory {
  private BatchMemory() {}

  public static void main(String[] args) throws Exception {
    Results results = new Results();
    String xmx = (ManagementFactory.getRuntimeMXBean().getInputArguments().stream().filter(a -> a.startsWith("-Xmx")).findFirst().orElse("-Xmx?")).substring(4);
    if (args[0].equals("records")) {
      records(results, Long.parseLong(args[1]), xmx);
    } else {
      partitions(results, Integer.parseInt(args[1]));
    }
  }

  private static void records(Results results, long count, String xmx) {
    HeapWatch watch = new HeapWatch();
    BenchData data = new BenchData(5, 1);
    String params = "records=" + count + " xmx=" + xmx;
    try (TempTables tables = new TempTables("bench-memory");
        PreparedBolt prepared = new PreparedBolt(options(tables, data, count), data.fields)) {
      long before = HeapWatch.liveBytes();
      long tenth = Math.max(1, count / 10);
      long liveAtTenth = 0;
      long liveAtNineTenths = 0;
      long started = System.nanoTime();
      for (long i = 0; i < count; i++) {
        prepared.bolt.execute(data.tuple(i));
        if (i + 1 == tenth) {
          liveAtTenth = HeapWatch.liveBytes();
        } else if (i + 1 == 9 * tenth) {
          liveAtNineTenths = HeapWatch.liveBytes();
        }
      }
      prepared.settle(count);
      double seconds = (System.nanoTime() - started) / 1e9;
      if (prepared.counts.acked != count) {
        throw new IllegalStateException("acked " + prepared.counts.acked + " of " + count, prepared.counts.lastError);
      }
      results.add("BatchMemory", params, "peak-live-heap-MiB", 1, HeapWatch.mib(watch.peakAfterGcBytes()), "MiB");
      results.add("BatchMemory", params, "heap-before-batch-MiB", 1, HeapWatch.mib(before), "MiB");
      results.add("BatchMemory", params, "records-per-s", 1, count / seconds, "records/s");
      // Measured inside the batch, before its commit settles the tuples.
      results.add("BatchMemory", params, "live-heap-at-10pct-MiB", 1, HeapWatch.mib(liveAtTenth), "MiB");
      results.add("BatchMemory", params, "live-heap-at-90pct-MiB", 1, HeapWatch.mib(liveAtNineTenths), "MiB");
      results.add("BatchMemory", params, "held-bytes-per-tuple", 1, (double) (liveAtNineTenths - liveAtTenth) / (8 * tenth), "bytes");
    }
  }

  private static void partitions(Results results, int columns) {
    long[] live = new long[3];
    int[] counts = {1, 10, 100};
    for (int p = 0; p < counts.length; p++) {
      BenchData data = new BenchData(columns, counts[p]);
      Tuple[] pool = data.tuples(8192);
      long records = 1000L * counts[p];
      try (TempTables tables = new TempTables("bench-memory");
          PreparedBolt prepared = new PreparedBolt(options(tables, data, records + 1), data.fields)) {
        long before = HeapWatch.liveBytes();
        for (long i = 0; i < records; i++) {
          prepared.bolt.execute(pool[(int) (i % pool.length)]);
        }
        live[p] = HeapWatch.liveBytes() - before;
      }
      results.add("BatchMemory", "columns=" + columns + " records-per-partition=1000", "open-batch-MiB partitions=" + counts[p], 1, HeapWatch.mib(live[p]), "MiB");
    }
    results.add("BatchMemory", "columns=" + columns + " records-per-partition=1000", "heap-per-open-file-KiB", 1, (live[2] - live[0]) / 99.0 / 1024, "KiB");
  }

  private static IcebergOptions options(TempTables tables, BenchData data, long batch) {
    return data.sinkOptions(tables.hadoop()).withCommitIntervalRecords(batch).build();
  }
}
