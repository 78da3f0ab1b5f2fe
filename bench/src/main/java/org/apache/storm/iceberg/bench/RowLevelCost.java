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

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.storm.iceberg.WriteMode;
import org.apache.storm.iceberg.bench.KeyedRows.Run;
import org.apache.storm.iceberg.bench.rows.UpsertKeys;

/**
 * What the row-level write modes cost a record against append, on the same tuples: the kernel's CPU
 * per record through a prepared {@link PreparedBolt} with Kafka source positions ({@link
 * KeyedRows}), in append, upsert and changelog modes (key {@code c0}, required), on format version 2.
 * The keys come from {@link UpsertKeys}: a share of the tuples ({@code update-percent}) repeats a key
 * written earlier in the run (an update); the rest bring new keys. Each batch then costs upsert its
 * collapse (one map entry per key until the seal), one equality delete per key and a row delta;
 * changelog reads each tuple's operation ({@code c} for a new key, {@code u} for a repeated one) and
 * its sequence (the offset) besides. The Flink peer ({@code FlinkUpsertPeer} in bench/flink-peer)
 * writes the same rows through Flink's sink.
 *
 * <p>Figures: the executing thread's CPU per record ({@code cpu-ns/record}, what the bolt's own
 * thread pays), and records per process CPU second ({@code per-cpu-s}) and per wall second from the
 * first tuple until every tuple is acked (commits, GC and the JIT included, as the Flink peer
 * measures its job).
 *
 * <p>Arguments: records per batch, batches per run, repetitions, update percentages, column counts,
 * format versions (defaults 100000 5 5 10,90 5 2). Each repetition runs the three modes, in an order
 * rotated by one each repetition; repetition 0 warms the JIT and is not reported.
 */
public final class RowLevelCost {
  private static final List<WriteMode> MODES = List.of(WriteMode.APPEND, WriteMode.UPSERT, WriteMode.CHANGELOG);

  private final int batch;
  private final int batches;
  private final int formatVersion;
  private final KeyedRows rows;

  private RowLevelCost(int batch, int batches, int columns, int formatVersion) {
    this.batch = batch;
    this.batches = batches;
    this.formatVersion = formatVersion;
    this.rows = new KeyedRows(columns);
  }

  public static void main(String[] args) {
    int batch = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int batches = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    String updates = args.length > 3 ? args[3] : "10,90";
    String columnCounts = args.length > 4 ? args[4] : "5";
    String versions = args.length > 5 ? args[5] : "2";
    Results results = new Results();
    for (String columns : columnCounts.split(",")) {
      for (String version : versions.split(",")) {
        RowLevelCost bench = new RowLevelCost(batch, batches, Integer.parseInt(columns.trim()), Integer.parseInt(version.trim()));
        for (String percent : updates.split(",")) {
          bench.measure(results, Integer.parseInt(percent.trim()), reps);
        }
      }
    }
  }

  private void measure(Results results, int updatePercent, int reps) {
    String params = "columns=" + rows.data.columns + " batch=" + batch + " rows=" + (long) batch * batches + " updates=" + updatePercent
        + "% format=v" + formatVersion;
    for (int rep = 0; rep <= reps; rep++) {
      Map<WriteMode, Run> runs = new EnumMap<>(WriteMode.class);
      for (int v = 0; v < MODES.size(); v++) {
        WriteMode mode = MODES.get((v + rep) % MODES.size());
        runs.put(mode, run(mode, updatePercent));
      }
      if (rep > 0) {
        Run append = runs.get(WriteMode.APPEND);
        for (WriteMode mode : MODES) {
          Run run = runs.get(mode);
          String name = mode.name().toLowerCase(Locale.ROOT);
          results.add("RowLevelCost", params, name + " cpu-ns/record", rep, run.threadCpuNanosPerRecord(), "ns");
          if (mode != WriteMode.APPEND) {
            results.add("RowLevelCost", params, name + "/append per cpu-s", rep,
                append.threadCpuNanosPerRecord() / run.threadCpuNanosPerRecord(), "ratio");
          }
          results.add("RowLevelCost", params, name + " per-cpu-s", rep, run.perProcessCpuSecond(), "records/cpu-s");
          results.add("RowLevelCost", params, name + " records/s", rep, run.perSecond(), "records/s");
        }
      }
    }
  }

  /** Runs {@code batch * batches} records through a prepared bolt on a new table in {@code mode}. */
  private Run run(WriteMode mode, int updatePercent) {
    try (TempTables tables = new TempTables("bench-row-level")) {
      rows.createTable(tables.hadoop(), formatVersion);
      UpsertKeys keys = new UpsertKeys(updatePercent);
      return rows.write(tables.hadoop(), mode, batch, (long) batch * batches, keys::next);
    }
  }
}
