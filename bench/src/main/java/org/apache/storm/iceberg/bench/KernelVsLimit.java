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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.UUID;
import java.util.function.IntFunction;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.storm.iceberg.formats.ParquetFormatWriterFactory;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Type;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.kernel.options.SinkSettings.CatalogTarget;
import org.apache.storm.iceberg.mappers.FieldNameRecordMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.tuple.Tuple;

/**
 * Records per second through {@code IcebergBolt.execute}, against the limit: Iceberg's own generic
 * Parquet writer writing the same rows, with no Storm.
 *
 * <ul>
 *   <li>{@code kernel}: a prepared {@link PreparedBolt} receives real tuples; every {@code batch}
 *       records it seals and commits (WAL entry, append, WAL delete) and acks them. Counted when every
 *       tuple is acked.
 *   <li>{@code limit}: for each batch, {@link GenericFileWriterFactory} under Iceberg's {@link
 *       FanoutDataWriter} writes the same rows, already built as records, into one file per partition
 *       (as the sink does), then one {@code AppendFiles} commits them. Mapping, tuples, the WAL and
 *       acking are what the limit leaves out.
 *   <li>{@code kernel without row checks}: the same, without checking what the file writer would
 *       refuse before each row is written; the ratio of the two is what the check costs.
 *   <li>{@code limit internal rows}: the same, with Iceberg's internal-model Parquet writer (the one
 *       the kernel uses for the field-name mapper) fed pre-built internal rows: the fastest writer
 *       Iceberg has for these rows, so the kernel's own overhead is its distance to this one.
 * </ul>
 *
 * All write to a HadoopCatalog on local disk with the table's default Parquet settings, so their
 * files have the same sizes. The rows come from a pool of pre-built tuples and records, so building
 * them is not measured; each variant reads its pool in order, over and over. Each repetition runs
 * every variant once, starting with a different one; the first repetition warms the JIT and is not
 * reported.
 *
 * <p>Arguments: records per batch, batches per repetition, repetitions (defaults 100000 3 5), a
 * regex the params must match (default all), e.g. to profile one case, and the pool size (default
 * {@value #DEFAULT_POOL} rows). The pool size sets how much of the input stays in cache, and the
 * kernel follows more references a row than the limit does (the tuple, its value list and values,
 * its message id, anchor map, its table and entry, and boxed ids), so it could lose more when they
 * are not in cache. A five-column row takes 492 bytes as a tuple, 293 as a generic record and 204
 * as an internal row (measured after GC): 8,192 tuples take 4.0 MB, beyond a core's 2 MB L2 cache
 * here; 1,024 fit in it, as tuples just handed over by a worker's receive thread may; 65,536 fit
 * nowhere but L3. The kernel's tuples cycle on across batches; the limits start each batch at the
 * pool's first row.
 *
 * <p>With {@code -Dbench.genericRows=true} the kernel's mapper builds generic records only (the
 * field-name mapper behind a plain {@code RecordMapper}), so the kernel writes them with the generic
 * writer: what its internal-row path buys.
 *
 * <p>The batch size matters too: each batch pays the commit (an append of a few metadata files, the
 * WAL entry on the kernel's side), so small batches dilute the per-record costs in the per-batch
 * ones, and batches beyond 262,144 records spill the kernel's held ack ids to disk. {@code
 * bench/run.sh} runs 100,000-record batches (a commit every 0.2–2 s here) for every schema,
 * 1,000,000-record batches for 5 columns, and, to check how much the cache decides, pools of
 * 1,024 and 65,536 rows for 5 columns unpartitioned.
 */
public final class KernelVsLimit {
  private static final int DEFAULT_POOL = 8192;
  private final int batch;
  private final int batches;

  private KernelVsLimit(int batch, int batches) {
    this.batch = batch;
    this.batches = batches;
  }

  public static void main(String[] args) throws Exception {
    int batch = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int batches = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    String only = args.length > 3 ? args[3] : ".*";
    int pool = args.length > 4 ? Integer.parseInt(args[4]) : DEFAULT_POOL;
    if (pool < 1) {
      throw new IllegalArgumentException("the pool size must be at least 1 row, not " + pool);
    }
    KernelVsLimit bench = new KernelVsLimit(batch, batches);
    Results results = new Results();
    for (int columns : new int[] {5, 50}) {
      for (int partitions : new int[] {1, 16}) {
        int rows = Math.min(pool, batch);
        String params = "columns=" + columns + " partitions=" + partitions + " batch=" + bench.batch + " pool=" + rows;
        if (!params.matches(only)) {
          continue;
        }
        BenchData data = new BenchData(columns, partitions);
        Tuple[] tuples = data.tuples(rows);
        Record[] records = data.records(rows);
        InternalRow[] internalRows = data.internalRows(rows);
        for (int rep = 0; rep <= reps; rep++) {
          // Each repetition starts with another variant, so none always runs first (or last) after
          // the previous one's garbage and JIT work.
          Map<String, Rate> rates = new java.util.HashMap<>();
          List<Runnable> variants =
              List.of(
                  () -> rates.put("limit", bench.limit(data, records)),
                  () -> rates.put("building", bench.limitBuildingRecords(data, tuples)),
                  () -> rates.put("kernel", bench.kernel(data, tuples, true)),
                  () -> rates.put("unchecked", bench.kernel(data, tuples, false)),
                  () -> rates.put("internal", bench.limitInternalRows(data, internalRows)));
          for (int v = 0; v < variants.size(); v++) {
            variants.get((v + rep) % variants.size()).run();
          }
          Rate limit = rates.get("limit");
          Rate building = rates.get("building");
          Rate kernel = rates.get("kernel");
          Rate internal = rates.get("internal");
          Rate unchecked = rates.get("unchecked");
          if (rep > 0) {
            results.add("KernelVsLimit", params, "limit", rep, limit.perSecond(), "records/s");
            results.add("KernelVsLimit", params, "limit internal rows", rep, internal.perSecond(), "records/s");
            results.add("KernelVsLimit", params, "limit building records", rep, building.perSecond(), "records/s");
            results.add("KernelVsLimit", params, "limit building records per-thread-cpu-s", rep, building.perCpuSecond(), "records/cpu-s");
            results.add("KernelVsLimit", params, "kernel", rep, kernel.perSecond(), "records/s");
            results.add("KernelVsLimit", params, "kernel without row checks", rep, unchecked.perSecond(), "records/s");
            results.add("KernelVsLimit", params, "kernel without row checks per-thread-cpu-s", rep, unchecked.perCpuSecond(), "records/cpu-s");
            results.add("KernelVsLimit", params, "limit per-thread-cpu-s", rep, limit.perCpuSecond(), "records/cpu-s");
            results.add("KernelVsLimit", params, "kernel per-thread-cpu-s", rep, kernel.perCpuSecond(), "records/cpu-s");
          }
        }
      }
    }
  }

  /**
   * Records per second of wall time, and per second of the measuring thread's CPU time: the work is
   * all on that thread (GC aside), and its CPU time does not count the time a shared machine's
   * neighbours take the core away.
   */
  record Rate(double perSecond, double perCpuSecond) {}

  /** Times {@code records} records of {@code work} on this thread. */
  private static Rate time(long records, Runnable work) {
    long cpuStarted = THREADS.getCurrentThreadCpuTime();
    long started = System.nanoTime();
    work.run();
    long elapsed = System.nanoTime() - started;
    long cpu = THREADS.getCurrentThreadCpuTime() - cpuStarted;
    return new Rate(records * 1e9 / elapsed, records * 1e9 / cpu);
  }

  private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

  /** Records per second through a prepared IcebergBolt, batches committed and acked, its rows checked or not. */
  Rate kernel(BenchData data, Tuple[] tuples, boolean rowChecks) {
    System.setProperty("storm.iceberg.bench.rowChecksOff", Boolean.toString(!rowChecks));
    try (TempTables tables = new TempTables("bench-kernel")) {
      IcebergOptions.Builder builder = data.sinkOptions(tables.hadoop()).withCommitIntervalRecords(batch);
      if (Boolean.getBoolean("bench.genericRows")) {
        // A mapper that builds generic records only: the kernel's path without internal rows.
        FieldNameRecordMapper fieldName = new FieldNameRecordMapper();
        builder.withRecordMapper((RecordMapper) fieldName::map);
      }
      IcebergOptions options = builder.build();
      try (PreparedBolt prepared = new PreparedBolt(options, data.fields)) {
        long total = (long) batch * batches;
        Rate rate =
            time(total, () -> {
              for (long i = 0; i < total; i++) {
                prepared.bolt.execute(tuples[(int) (i % tuples.length)]);
              }
              prepared.settle(total);
            });
        if (prepared.counts.acked != total) {
          throw new IllegalStateException(
              "acked " + prepared.counts.acked + " of " + total + ", failed " + prepared.counts.failed, prepared.counts.lastError);
        }
        return rate;
      }
    }
  }

  /**
   * As {@link #limit}, but each record is built from the tuple's values as a program writing them
   * with Iceberg's generic writer would build it, without Storm: a copy of an empty record, each
   * value set by position, the epoch-millisecond timestamps made {@code OffsetDateTime}s with
   * java.time's cheapest form (not {@code Instant.atOffset}, which builds a ZoneRules each call on
   * Java 17). The difference to {@link #limit} is what Iceberg's generic data model costs.
   */
  Rate limitBuildingRecords(BenchData data, Tuple[] tuples) {
    Record empty = GenericRecord.create(data.schema);
    boolean[] timestamps = new boolean[data.columns];
    for (int i = 0; i < data.columns; i++) {
      timestamps[i] = data.schema.columns().get(i).type().typeId() == Type.TypeID.TIMESTAMP;
    }
    return limit(data, KernelVsLimit::genericWriters, KernelVsLimit::recordPartitionSource, row -> {
      List<Object> values = tuples[row % tuples.length].getValues();
      Record record = empty.copy();
      for (int i = 0; i < timestamps.length; i++) {
        Object value = values.get(i);
        record.set(i, timestamps[i] ? utc((Long) value) : value);
      }
      return record;
    });
  }

  private static OffsetDateTime utc(long epochMillis) {
    long seconds = Math.floorDiv(epochMillis, 1000L);
    int nanos = (int) Math.floorMod(epochMillis, 1000L) * 1_000_000;
    return OffsetDateTime.of(LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC), ZoneOffset.UTC);
  }

  /** Records per second through Iceberg's generic Parquet writer, one append per batch. */
  Rate limit(BenchData data, Record[] records) {
    return limit(data, table -> genericWriters(table), KernelVsLimit::recordPartitionSource, row -> records[row % records.length]);
  }

  /**
   * Records per second through Iceberg's internal-model Parquet writer, the one the kernel uses for
   * the field-name mapper, fed rows built ahead (timestamps already microseconds).
   */
  Rate limitInternalRows(BenchData data, InternalRow[] rows) {
    return limit(
        data,
        table -> new ParquetFormatWriterFactory().create(Map.of()).internalWriterFactory(table, table.schema()).orElseThrow(),
        struct -> row -> row,
        row -> rows[row % rows.length]);
  }

  /** A generic record as partition transforms read it: Iceberg's wrapper converts its java.time values. */
  private static Function<Record, StructLike> recordPartitionSource(Types.StructType struct) {
    return new InternalRecordWrapper(struct)::wrap;
  }

  private static FileWriterFactory<Record> genericWriters(Table table) {
    return new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).dataSchema(table.schema()).build();
  }

  private <T extends StructLike> Rate limit(
      BenchData data,
      Function<Table, FileWriterFactory<T>> writers,
      Function<Types.StructType, Function<T, StructLike>> partitionSource,
      IntFunction<T> rows) {
    try (TempTables tables = new TempTables("bench-limit")) {
      Catalog catalog = OpenedTable.loadCatalog(new CatalogTarget("bench", tables.hadoop(), "db.events", null, TempTables.hadoopConfiguration()));
      Table table = catalog.createTable(TableIdentifier.of("db", "events"), data.schema, data.spec, null, Map.of("format-version", "2"));
      Function<T, StructLike> partitionOf = partitionSource.apply(table.schema().asStruct());
      return time((long) batch * batches, () -> {
        for (int b = 0; b < batches; b++) {
          AppendFiles append = table.newAppend();
          writeBatch(table, writers.apply(table), partitionOf, rows, b).forEach(append::appendFile);
          append.commit();
        }
      });
    }
  }

  private <T> List<DataFile> writeBatch(
      Table table, FileWriterFactory<T> files, Function<T, StructLike> partitionOf, IntFunction<T> rows, int batchIndex) {
    OutputFileFactory fileFactory =
        OutputFileFactory.builderFor(table, 1, batchIndex).format(FileFormat.PARQUET).operationId(UUID.randomUUID().toString()).build();
    FanoutDataWriter<T> writer = new FanoutDataWriter<>(files, fileFactory, table.io(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    // Looked up once, as the sink does: table.spec() goes through the table's current metadata.
    PartitionSpec spec = table.spec();
    PartitionKey key = new PartitionKey(spec, table.schema());
    try (writer) {
      for (int i = 0; i < batch; i++) {
        T row = rows.apply(i);
        key.partition(partitionOf.apply(row));
        writer.write(row, spec, key);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.result().dataFiles();
  }
}
