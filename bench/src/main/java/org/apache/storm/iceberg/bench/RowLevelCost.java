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
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.WriteMode;
import org.apache.storm.iceberg.kernel.options.SinkSettings.CatalogTarget;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;

/**
 * What the row-level write modes cost a record against append, on the same tuples: the kernel's CPU
 * per record through a prepared {@link PreparedBolt} with Kafka source positions, in append mode and
 * in upsert mode (key {@code c0}, required), on format version 2. A share of the tuples ({@code
 * update-percent}) repeats a key written earlier in the run (an update); the rest bring new keys.
 * Each batch then costs upsert its collapse (one map entry per key until the seal), one equality
 * delete per key and a row delta.
 *
 * <p>Arguments: records per batch, batches per run, repetitions, update percentages (defaults
 * 100000 5 5 10,90). Each repetition runs both modes, in alternating order; repetition 0 warms the
 * JIT and is not reported.
 */
public final class RowLevelCost {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final long FIRST_OFFSET = 100_000_000L;

  private final int batch;
  private final int batches;
  private final BenchData data = new BenchData(5, 1);
  private final Schema keyed;
  private final Fields fields;
  private final GeneralTopologyContext context;

  private RowLevelCost(int batch, int batches) {
    this.batch = batch;
    this.batches = batches;
    List<Types.NestedField> columns = new ArrayList<>(data.schema.columns());
    columns.set(0, Types.NestedField.required(columns.get(0).fieldId(), columns.get(0).name(), columns.get(0).type()));
    this.keyed = new Schema(columns, Set.of(columns.get(0).fieldId()));
    List<String> names = new ArrayList<>(data.fields.toList());
    names.addAll(List.of(FixedIdentityPositions.TOPIC, FixedIdentityPositions.PARTITION, FixedIdentityPositions.OFFSET));
    this.fields = new Fields(names);
    this.context = new GeneralTopologyContext(new StormTopology(), BenchData.WORKER_CONF, Map.of(1, BenchData.SOURCE),
        Map.of(BenchData.SOURCE, List.of(1)), Map.of(BenchData.SOURCE, Map.of("default", fields)), "bench-1");
  }

  public static void main(String[] args) throws Exception {
    int batch = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int batches = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    String updates = args.length > 3 ? args[3] : "10,90";
    RowLevelCost bench = new RowLevelCost(batch, batches);
    Results results = new Results();
    for (String percent : updates.split(",")) {
      int updatePercent = Integer.parseInt(percent.trim());
      String params = "columns=5 batch=" + batch + " updates=" + updatePercent + "%";
      for (int rep = 0; rep <= reps; rep++) {
        double append = 0;
        double upsert = 0;
        for (int v = 0; v < 2; v++) {
          if ((v + rep) % 2 == 0) {
            append = bench.cpuNanosPerRecord(WriteMode.APPEND, updatePercent);
          } else {
            upsert = bench.cpuNanosPerRecord(WriteMode.UPSERT, updatePercent);
          }
        }
        if (rep > 0) {
          results.add("RowLevelCost", params, "append cpu-ns/record", rep, append, "ns");
          results.add("RowLevelCost", params, "upsert cpu-ns/record", rep, upsert, "ns");
          results.add("RowLevelCost", params, "upsert/append per cpu-s", rep, append / upsert, "ratio");
        }
      }
    }
  }

  /** Runs {@code batch * batches} records through a prepared bolt on a new v2 table in {@code mode}. */
  double cpuNanosPerRecord(WriteMode mode, int updatePercent) {
    try (TempTables tables = new TempTables("bench-row-level")) {
      Catalog catalog = OpenedTable.loadCatalog(new CatalogTarget("bench", tables.hadoop(), "db.events", null));
      catalog.createTable(TableIdentifier.of("db", "events"), keyed, PartitionSpec.unpartitioned(),
          Map.of(TableProperties.FORMAT_VERSION, "2"));
      IcebergOptions.Builder options = new IcebergOptions.Builder()
          .withCatalogName("bench")
          .withCatalogProperties(tables.hadoop())
          .withTable("db.events")
          .withCommitIntervalRecords(batch)
          .withSourcePositions(new FixedIdentityPositions());
      if (mode != WriteMode.APPEND) {
        options.withWriteMode(mode);
      }
      long total = (long) batch * batches;
      Random random = new Random(42);
      long cpu;
      try (PreparedBolt prepared = new PreparedBolt(options.build(), fields)) {
        long cpuStarted = THREADS.getCurrentThreadCpuTime();
        for (long i = 0; i < total; i++) {
          long key = i > 0 && random.nextInt(100) < updatePercent ? random.nextLong(i) : i;
          List<Object> values = new ArrayList<>(data.values(key));
          values.addAll(List.of("events", 0, FIRST_OFFSET + i));
          Tuple tuple = new TupleImpl(context, values, BenchData.SOURCE, 1, "default", MessageId.makeRootId(i, i));
          prepared.bolt.execute(tuple);
        }
        cpu = THREADS.getCurrentThreadCpuTime() - cpuStarted;
        prepared.settle(total);
        if (prepared.counts.acked != total) {
          throw new IllegalStateException(
              "acked " + prepared.counts.acked + " of " + total + ", failed " + prepared.counts.failed, prepared.counts.lastError);
        }
      }
      return (double) cpu / total;
    }
  }
}
