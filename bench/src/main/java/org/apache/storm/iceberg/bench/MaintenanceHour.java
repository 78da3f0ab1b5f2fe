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
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.maintenance.MaintenanceOptions;
import org.apache.storm.iceberg.maintenance.MaintenancePass;
import org.apache.storm.iceberg.spi.SinkSnapshotKeys;
import org.apache.storm.iceberg.wal.TableFileIoWalStoreFactory;

/**
 * A simulated hour of a sink committing once a second, with and without the maintenance pass, on a
 * JdbcCatalog (SQLite) table partitioned four ways: {@code commits} commits of {@code files} data
 * files spread over the partitions, each commit carrying the sink's summary keys (commit id, source
 * positions: the token expiry must keep). The hour runs as fast as the machine commits, not in an
 * hour; so expiry keeps the newest 100 snapshots rather than the last hour's.
 *
 * <p>{@code metadata}: the data files are entries only (no file behind them), as in the issue's
 * Iceberg-alone measurement; maintenance is expiry and the manifest rewrite (there is nothing to
 * compact). {@code parquet}: each data file is a real Parquet file of ten rows; maintenance also
 * compacts. With maintenance, a pass runs every {@code passEvery} commits, on the committing thread
 * between two commits. Both are Iceberg alone, as the first measurement was: commits are
 * the bench's own appends, with the sink's summary keys.
 *
 * <p>{@code sink}: the sink itself ({@link SinkHour}): {@code IcebergBolt} commits {@code files}
 * × 900 rows a commit (files roll at 1,000 rows) through its commit protocol (WAL entry, append, acks), and the maintenance
 * bolt, fed the sink's commit events, runs its pass every {@code passEvery} commits on its own
 * thread, beside the sink's commits. Commit times are the sink's own (its commit events'). The
 * maintained table has the properties README recommends with maintenance ({@link SinkHour#MAINTAINED_TABLE_PROPERTIES}).
 *
 * <p>System properties, for looking into commit times: {@code bench.maintenanceHour.only}
 * ({@code maintained} or {@code unmaintained}: run one variant), {@code bench.commitReports} (log
 * every commit, see {@link CommitReportLog} and {@code bench/commit_causes.py}), {@code
 * bench.catalogDir} (the SQLite catalog's database in that directory, such as {@code /dev/shm}, away
 * from the data) and {@code bench.catalogProperties} ({@code key=value,...} added to the catalog's).
 *
 * <p>Per window of {@code window} commits: metadata.json bytes, commit p50 and p99, data files per
 * partition, manifests of the current snapshot, the heap in use after a GC, and a full scan (files
 * planned; with Parquet, every row read back). The run checks that the token survived and, with
 * Parquet, that every row is read back once.
 *
 * <p>Arguments: commits (3600), window (600), files a commit (8), mode (metadata|parquet|sink), passEvery (120),
 * and for {@code sink} the pace: a commit every so many milliseconds (0, as fast as it goes).
 */
public final class MaintenanceHour {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.required(2, "part", Types.IntegerType.get()),
      Types.NestedField.optional(3, "payload", Types.StringType.get()));
  private static final int PARTITIONS = 4;
  private static final int ROWS_PER_FILE = 10;

  private MaintenanceHour() {}

  public static void main(String[] args) throws Exception {
    int commits = args.length > 0 ? Integer.parseInt(args[0]) : 3600;
    int window = args.length > 1 ? Integer.parseInt(args[1]) : 600;
    int files = args.length > 2 ? Integer.parseInt(args[2]) : 8;
    String mode = args.length > 3 ? args[3] : "metadata";
    int passEvery = args.length > 4 ? Integer.parseInt(args[4]) : 120;
    long commitEveryMillis = args.length > 5 ? Long.parseLong(args[5]) : 0;
    if (!List.of("metadata", "parquet", "sink").contains(mode)) {
      throw new IllegalArgumentException("the mode is metadata, parquet or sink, not " + mode);
    }
    Results results = new Results();
    String params = String.format("commits=%d files/commit=%d %s", commits, files, mode)
        + (commitEveryMillis > 0 ? " commit every " + commitEveryMillis + " ms" : "")
        + (System.getProperty("bench.catalogDir") == null ? "" : " catalog in " + System.getProperty("bench.catalogDir"));
    String only = System.getProperty("bench.maintenanceHour.only", "");
    for (boolean maintained : new boolean[] {false, true}) {
      if (!only.isEmpty() && !only.equals(maintained ? "maintained" : "unmaintained")) {
        continue;
      }
      if (mode.equals("sink")) {
        runWithSink(results, params, commits, window, files, maintained ? passEvery : 0, commitEveryMillis);
      } else {
        run(results, params, commits, window, files, mode.equals("parquet"), maintained ? passEvery : 0);
      }
    }
  }

  /**
   * The hour with the sink running ({@link SinkHour}): {@code files} × 900 rows a commit (files roll at 1,000 rows), and, when
   * {@code passEvery} is above 0, the maintenance bolt's pass every {@code passEvery} commits beside
   * the sink, compacting towards 8 MiB files. A batch starts every {@code commitEveryMillis} (0: as
   * soon as the last was acked), so that the sink is idle between commits, as at one commit a second,
   * and a maintenance commit meets a sink's commit under way as often as the pace makes it.
   */
  static void runWithSink(Results results, String params, int commits, int window, int files, int passEvery,
      long commitEveryMillis) {
    String variant = passEvery > 0 ? "maintained" : "unmaintained";
    try (TempTables temp = new TempTables("maintenance-hour")) {
      Map<String, String> catalogProperties = new java.util.HashMap<>(temp.jdbcSqlite("org.apache.iceberg.jdbc.JdbcCatalog"));
      catalogProperties.putAll(CommitReportLog.catalogProperties());
      catalogProperties.putAll(SinkHour.pairs(System.getProperty("bench.catalogProperties", "")));
      String catalogDir = System.getProperty("bench.catalogDir");
      if (catalogDir != null) {
        // The catalog's database elsewhere than the data (as a catalog server would be): its commits' fsyncs do
        // not queue behind the writes of the sink's and the compaction's files.
        Path database = Path.of(catalogDir).resolve("maintenance-hour-" + UUID.randomUUID() + ".db");
        database.toFile().deleteOnExit();
        catalogProperties.put("uri", "jdbc:sqlite:" + database);
      }
      Catalog catalog = CatalogUtil.buildIcebergCatalog("bench", catalogProperties, TempTables.hadoopConf());
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
      MaintenanceOptions maintenance = passEvery == 0 ? null : new MaintenanceOptions.Builder()
          .withCatalogName("bench")
          .withCatalogProperties(catalogProperties)
          .triggerOnCommits(passEvery).triggerOnDataFiles(0).triggerOnDataBytes(0).triggerOnDeleteFiles(0)
          .triggerEvery(Duration.ZERO).withMinGap(Duration.ZERO)
          .withCompaction(true, Map.of("target-file-size-bytes", String.valueOf(8 << 20)))
          .withExpiryMaxAge(Duration.ZERO).withExpiryRetainLast(100)
          .withManifestRewrite(true, 100)
          .withOrphanRemoval(false, Duration.ofDays(3), Duration.ofDays(1))
          .withLease(false, Duration.ofSeconds(30))
          .build();
      try (SinkHour hour = new SinkHour(catalogProperties, files * 900, maintenance)) {
        long nextBatch = System.nanoTime();
        for (int commit = 1; commit <= commits; commit++) {
          nextBatch += commitEveryMillis * 1_000_000L;
          hour.commitOneBatch();
          pace(nextBatch);
          if (commit % window == 0) {
            long passesBefore = hour.maintenanceCounter("iceberg-maintenance-passes");
            Table table = catalog.loadTable(SinkHour.table());
            int from = hour.commitMillis.size() - window;
            List<Double> millis = hour.commitMillis.subList(from, from + window).stream().map(Long::doubleValue).toList();
            double filesPerCommit = hour.commitFiles.subList(from, from + window).stream().mapToInt(Integer::intValue).average().orElse(0);
            results.add("MaintenanceHour", params, variant + " data files a commit", commit / window, filesPerCommit, "files");
            results.add("MaintenanceHour", params, variant + " maintenance passes", commit / window,
                hour.maintenanceCounter("iceberg-maintenance-passes"), "passes");
            results.add("MaintenanceHour", params, variant + " maintenance failures", commit / window,
                hour.maintenanceCounter("iceberg-maintenance-failures"), "failures");
            record(results, params, variant, commit / window, table, millis, () -> SinkHour.readEveryRowOnce(table, hour.rowsSent()));
            // The window ends where a pass falls due, with the most files a partition holds between passes; after
            // that pass (the sink idle meanwhile), the fewest.
            if (passEvery > 0) {
              hour.awaitPassesAbove(passesBefore, Duration.ofMinutes(5));
            }
            Table afterPass = catalog.loadTable(SinkHour.table());
            results.add("MaintenanceHour", params, variant + " data files/partition after the pass due", commit / window,
                Long.parseLong(afterPass.currentSnapshot().summary().get("total-data-files")) / (double) PARTITIONS, "files");
            // The pace starts again: the measuring took seconds, which the next commits must not catch up back to back.
            nextBatch = System.nanoTime();
          }
        }
        SinkHour.readEveryRowOnce(catalog.loadTable(SinkHour.table()), hour.rowsSent());
        if (passEvery > 0 && hour.maintenanceCounter("iceberg-maintenance-passes") == 0) {
          throw new IllegalStateException("the maintenance bolt ran no pass in " + commits + " commits");
        }
        if (hour.maintenanceCounter("iceberg-maintenance-failures") > 0) {
          throw new IllegalStateException("maintenance failed " + hour.maintenanceCounter("iceberg-maintenance-failures") + " times");
        }
      }
    }
  }

  static void run(Results results, String params, int commits, int window, int files, boolean parquet, int passEvery) {
    String variant = passEvery > 0 ? "maintained" : "unmaintained";
    try (TempTables temp = new TempTables("maintenance-hour")) {
      Map<String, String> catalogProperties = temp.jdbcSqlite("org.apache.iceberg.jdbc.JdbcCatalog");
      Catalog catalog = CatalogUtil.buildIcebergCatalog("bench", catalogProperties, TempTables.hadoopConf());
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
      Table table = catalog.createTable(TableIdentifier.of("db", "events"), SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("part").build(),
          Map.of(TableProperties.FORMAT_VERSION, "2"));
      MaintenancePass pass = passEvery == 0 ? null : new MaintenancePass(new MaintenanceOptions.Builder()
          .withCatalogProperties(catalogProperties)
          .withCompaction(parquet, Map.of())
          .withExpiryMaxAge(Duration.ZERO).withExpiryRetainLast(100)
          .withManifestRewrite(true, 100)
          .withOrphanRemoval(false, Duration.ofDays(3), Duration.ofDays(1))
          .withLease(false, Duration.ofSeconds(30))
          .build(), new TableFileIoWalStoreFactory().create(Map.of()));
      List<Double> windowMillis = new ArrayList<>();
      long nextId = 0;
      for (int commit = 1; commit <= commits; commit++) {
        AppendFiles append = table.newFastAppend()
            .set(SinkSnapshotKeys.COMMIT_ID, UUID.randomUUID().toString())
            .set(SinkSnapshotKeys.POSITIONS_SCOPE, "bench")
            .set(SinkSnapshotKeys.SOURCE_POSITIONS, "events@id-1|0=0-" + (nextId + (long) files * ROWS_PER_FILE - 1));
        for (int f = 0; f < files; f++) {
          append.appendFile(parquet ? parquetFile(table, f % PARTITIONS, nextId) : entryOnly(table, f % PARTITIONS));
          nextId += ROWS_PER_FILE;
        }
        long started = System.nanoTime();
        append.commit();
        windowMillis.add((System.nanoTime() - started) / 1e6);
        if (pass != null && commit % passEvery == 0) {
          pass.run(table, System.currentTimeMillis());
        }
        if (commit % window == 0) {
          record(results, params, variant, commit / window, table, windowMillis, parquet ? () -> rows(table) : () -> planned(table));
          windowMillis.clear();
        }
      }
      table.refresh();
      if (table.snapshot(tokenOf(table)) == null) {
        throw new IllegalStateException("the sink's token was expired");
      }
      if (parquet && rows(table) != nextId) {
        throw new IllegalStateException("read back " + rows(table) + " rows of " + nextId);
      }
    }
  }

  /** Waits until {@code nanoTime}, if it is still to come. */
  private static void pace(long nanoTime) {
    long wait = nanoTime - System.nanoTime();
    if (wait > 0) {
      java.util.concurrent.locks.LockSupport.parkNanos(wait);
    }
  }

  /** One window's figures; {@code fullScan} plans or reads the whole table, and is timed. */
  private static void record(Results results, String params, String variant, int window, Table table, List<Double> commitMillis,
      Runnable fullScan) {
    table.refresh();
    List<Double> sorted = new ArrayList<>(commitMillis);
    sorted.sort(null);
    String metadata = ((HasTableOperations) table).operations().current().metadataFileLocation();
    results.add("MaintenanceHour", params, variant + " metadata.json KB", window, table.io().newInputFile(metadata).getLength() / 1024.0, "KB");
    results.add("MaintenanceHour", params, variant + " commit p50", window, sorted.get(sorted.size() / 2), "ms");
    results.add("MaintenanceHour", params, variant + " commit p99", window, sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(sorted.size() * 0.99) - 1)), "ms");
    results.add("MaintenanceHour", params, variant + " data files/partition", window,
        Long.parseLong(table.currentSnapshot().summary().get("total-data-files")) / (double) PARTITIONS, "files");
    results.add("MaintenanceHour", params, variant + " manifests", window, table.currentSnapshot().allManifests(table.io()).size(), "manifests");
    System.gc();
    Runtime runtime = Runtime.getRuntime();
    results.add("MaintenanceHour", params, variant + " heap used", window, (runtime.totalMemory() - runtime.freeMemory()) / (1024.0 * 1024), "MiB");
    long started = System.nanoTime();
    fullScan.run();
    results.add("MaintenanceHour", params, variant + " full scan", window, (System.nanoTime() - started) / 1e6, "ms");
  }

  private static long tokenOf(Table table) {
    long token = -1;
    for (var snapshot : table.snapshots()) {
      if (snapshot.summary().containsKey(SinkSnapshotKeys.SOURCE_POSITIONS)) {
        token = snapshot.snapshotId();
      }
    }
    return token;
  }

  private static long planned(Table table) {
    long tasks = 0;
    try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
      for (FileScanTask ignored : planned) {
        tasks++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  private static long rows(Table table) {
    long rows = 0;
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
      for (Record ignored : read) {
        rows++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static DataFile entryOnly(Table table, int part) {
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    key.set(0, part);
    return DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/part=" + part + "/" + UUID.randomUUID() + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withPartition(key)
        .withFileSizeInBytes(4_096)
        .withRecordCount(ROWS_PER_FILE)
        .build();
  }

  private static DataFile parquetFile(Table table, int part, long firstId) {
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    key.set(0, part);
    OutputFileFactory files = OutputFileFactory.builderFor(table, part, firstId).format(FileFormat.PARQUET).build();
    DataWriter<Record> writer = new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).build()
        .newDataWriter(files.newOutputFile(table.spec(), key), table.spec(), key);
    try (writer) {
      for (long id = firstId; id < firstId + ROWS_PER_FILE; id++) {
        GenericRecord row = GenericRecord.create(SCHEMA);
        row.set(0, id);
        row.set(1, part);
        row.set(2, "payload-" + id);
        writer.write(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDataFile();
  }
}
