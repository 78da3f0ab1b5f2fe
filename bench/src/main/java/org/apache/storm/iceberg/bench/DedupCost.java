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
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.commit.PositionsLedger;
import org.apache.storm.iceberg.kernel.options.SinkSettings.CatalogTarget;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;

/**
 * What deduplication by source position costs a record: the kernel's CPU per record through a
 * prepared {@link PreparedBolt}, with source positions ({@code withSourcePositions}) and without, on
 * the same tuples, and what reading the sink's committed positions costs each time a batch opens.
 *
 * <p>The tuples are KernelVsLimit's five columns (unpartitioned table) plus the fields
 * storm-kafka-client's default record translator adds: {@code topic}, {@code partition}, {@code
 * offset}. Both variants get the same tuples; the table has no column for the three, so the mapper
 * ignores them. Positions are read by {@link FixedIdentityPositions}, the {@code kafka} provider's
 * per-tuple work with a fixed topic id, so no broker is needed. Offsets are nine digits and never
 * repeat within a run, so nothing is skipped: what is measured is the check every tuple pays (is it
 * committed, is it held) and recording its position in the batch and the commit's summary.
 *
 * <p>Kafka partitions: {@code P} or {@code PxR}, the records coming in runs of {@code R} from one
 * partition (default 1: round robin, the worst case for the task's last-partition shortcut);
 * KafkaSpout emits what one poll returned, up to 500 records a partition by default.
 *
 * <p>Arguments: records per batch, batches per run, repetitions (defaults 100000 5 5), the Kafka
 * partition cases (default {@code 1,1000,1000x500}), the pool size (default 8192). Each repetition
 * runs both variants, in alternating order; repetition 0 warms the JIT and is not reported.
 *
 * <p>{@code refresh}: the sink's newest snapshot holds the positions of every partition, one range
 * of nine-digit offsets each (the summary's size in bytes is reported); timed is {@link
 * PositionsLedger#committed}, which a task calls whenever a batch opens, in microseconds of thread
 * CPU a call.
 */
public final class DedupCost {
  private static final long FIRST_OFFSET = 100_000_000L;
  private static final String TOPIC = "events";
  private static final int REFRESH_CALLS = 500;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final int batch;
  private final int batches;
  private final BenchData data = new BenchData(5, 1);
  private final Fields fields;
  private final List<Object>[] values;
  private final Tuple[] tuples;

  @SuppressWarnings("unchecked")
  private DedupCost(int batch, int batches, int pool) {
    this.batch = batch;
    this.batches = batches;
    List<String> names = new ArrayList<>(data.fields.toList());
    names.addAll(List.of(FixedIdentityPositions.TOPIC, FixedIdentityPositions.PARTITION, FixedIdentityPositions.OFFSET));
    this.fields = new Fields(names);
    GeneralTopologyContext context =
        new GeneralTopologyContext(new StormTopology(), BenchData.WORKER_CONF, Map.of(1, BenchData.SOURCE),
            Map.of(BenchData.SOURCE, List.of(1)), Map.of(BenchData.SOURCE, Map.of("default", fields)), "bench-1");
    this.values = new List[pool];
    this.tuples = new Tuple[pool];
    for (int i = 0; i < pool; i++) {
      values[i] = new ArrayList<>(data.values(i));
      values[i].addAll(List.of(TOPIC, 0, 0L));
      // TupleImpl keeps the list it is given, so setting a position below changes the tuple's.
      tuples[i] = new TupleImpl(context, values[i], BenchData.SOURCE, 1, "default", MessageId.makeRootId(i, i));
    }
  }

  public static void main(String[] args) throws Exception {
    int batch = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int batches = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    String cases = args.length > 3 ? args[3] : "1,1000,1000x500";
    int pool = args.length > 4 ? Integer.parseInt(args[4]) : 8192;
    DedupCost bench = new DedupCost(batch, batches, Math.min(pool, batch));
    Results results = new Results();
    for (String kafka : cases.split(",")) {
      String[] parts = kafka.split("x");
      int partitions = Integer.parseInt(parts[0]);
      int run = parts.length > 1 ? Integer.parseInt(parts[1]) : 1;
      String params = "kafka-partitions=" + partitions + " run=" + run + " batch=" + batch + " pool=" + bench.tuples.length;
      for (int rep = 0; rep <= reps; rep++) {
        Rate without = null;
        Rate with = null;
        for (int v = 0; v < 2; v++) {
          if ((v + rep) % 2 == 0) {
            without = bench.kernel(partitions, run, false);
          } else {
            with = bench.kernel(partitions, run, true);
          }
        }
        if (rep > 0) {
          results.add("DedupCost", params, "without positions cpu-ns/record", rep, without.cpuNanos, "ns");
          results.add("DedupCost", params, "with positions cpu-ns/record", rep, with.cpuNanos, "ns");
          results.add("DedupCost", params, "without positions wall-ns/record", rep, without.wallNanos, "ns");
          results.add("DedupCost", params, "with positions wall-ns/record", rep, with.wallNanos, "ns");
          results.add("DedupCost", params, "summary bytes", rep, with.summaryBytes, "bytes");
        }
      }
      for (int rep = 0; rep <= reps; rep++) {
        double[] refresh = bench.refresh(partitions);
        if (rep > 0) {
          results.add("DedupCost", "kafka-partitions=" + partitions, "refresh cpu-us/batch-open", rep, refresh[0], "us");
          results.add("DedupCost", "kafka-partitions=" + partitions, "refresh summary bytes", rep, refresh[1], "bytes");
        }
      }
    }
  }

  /** Nanoseconds of the measuring thread's CPU and of wall time per record; the positions summary's size. */
  record Rate(double cpuNanos, double wallNanos, double summaryBytes) {}

  /** Runs {@code batch * batches} records through a prepared bolt on a new table, with positions or without. */
  Rate kernel(int partitions, int run, boolean positions) {
    try (TempTables tables = new TempTables("bench-dedup")) {
      IcebergOptions.Builder builder = data.sinkOptions(tables.hadoop()).withCommitIntervalRecords(batch);
      if (positions) {
        builder.withSourcePositions(new FixedIdentityPositions());
      }
      long total = (long) batch * batches;
      long cpu;
      long wall;
      try (PreparedBolt prepared = new PreparedBolt(builder.build(), fields)) {
        long cpuStarted = THREADS.getCurrentThreadCpuTime();
        long started = System.nanoTime();
        for (long i = 0; i < total; i++) {
          int slot = (int) (i % tuples.length);
          long runIndex = i / run;
          values[slot].set(values[slot].size() - 2, (int) (runIndex % partitions));
          values[slot].set(values[slot].size() - 1, FIRST_OFFSET + (runIndex / partitions) * run + i % run);
          prepared.bolt.execute(tuples[slot]);
        }
        wall = System.nanoTime() - started;
        cpu = THREADS.getCurrentThreadCpuTime() - cpuStarted;
        prepared.settle(total);
        if (prepared.counts.acked != total) {
          throw new IllegalStateException(
              "acked " + prepared.counts.acked + " of " + total + ", failed " + prepared.counts.failed, prepared.counts.lastError);
        }
      }
      Map<String, String> summary = loadTable(tables).currentSnapshot().summary();
      if (Long.parseLong(summary.get("total-records")) != total) {
        throw new IllegalStateException("the table holds " + summary.get("total-records") + " rows, not " + total);
      }
      String recorded = summary.get(PositionsLedger.POSITIONS_KEY);
      if (positions != (recorded != null)) {
        throw new IllegalStateException("positions recorded: " + recorded);
      }
      return new Rate((double) cpu / total, (double) wall / total, recorded == null ? 0 : recorded.length());
    }
  }

  /**
   * Microseconds of thread CPU that reading the sink's committed positions takes, with one range
   * per partition recorded, and the summary's size.
   */
  double[] refresh(int partitions) {
    try (TempTables tables = new TempTables("bench-refresh")) {
      Table table = loadCatalog(tables).createTable(TableIdentifier.of("db", "events"), data.schema, PartitionSpec.unpartitioned());
      StringBuilder text = new StringBuilder(TOPIC + "@bench-topic-id");
      for (int p = 0; p < partitions; p++) {
        text.append('|').append(p).append('=').append(FIRST_OFFSET + p).append('-').append(FIRST_OFFSET * 2 + p * 7);
      }
      String encoded = Positions.decode(text.toString()).encode();
      PositionsLedger ledger = new PositionsLedger("bench-wal", org.apache.iceberg.SnapshotRef.MAIN_BRANCH);
      table.newFastAppend().set(PositionsLedger.POSITIONS_KEY, encoded).set(PositionsLedger.SCOPE_KEY, "bench-wal").commit();
      table.refresh();
      long cpuStarted = THREADS.getCurrentThreadCpuTime();
      int held = 0;
      for (int i = 0; i < REFRESH_CALLS; i++) {
        held += ledger.committed(table).positions().isEmpty() ? 0 : 1;
      }
      long cpu = THREADS.getCurrentThreadCpuTime() - cpuStarted;
      if (held != REFRESH_CALLS) {
        throw new IllegalStateException("the ledger did not find the recorded positions");
      }
      return new double[] {cpu / 1e3 / REFRESH_CALLS, encoded.length()};
    }
  }

  private static Catalog loadCatalog(TempTables tables) {
    return OpenedTable.loadCatalog(new CatalogTarget("bench", tables.hadoop(), "db.events", null, TempTables.hadoopConfiguration()));
  }

  private static Table loadTable(TempTables tables) {
    return loadCatalog(tables).loadTable(TableIdentifier.of("db", "events"));
  }
}
