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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.storm.iceberg.WriteMode;
import org.apache.storm.iceberg.bench.rows.BenchRows;
import org.apache.storm.iceberg.bench.rows.UpsertKeys;
import org.apache.storm.iceberg.kernel.options.SinkSettings.CatalogTarget;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.maintenance.DataCompaction;

/**
 * What reading a table costs after many upsert commits, against the same rows appended once: the
 * figure that says when an upsert table needs compacting. Our sink in upsert mode ({@link
 * KeyedRows}: a prepared {@code IcebergBolt}, key {@code c0}, format version 2, HadoopCatalog on
 * local disk) commits {@code commits} batches of {@code changes} changes each, whose keys come from
 * {@link UpsertKeys} ({@code update-percent} of them repeat an earlier key). Every commit adds a data
 * file and an equality-delete file (one delete per key of the batch), and a data file's rows are
 * checked against every equality-delete file committed after it. The baseline, built in the same
 * run, holds the same final rows (one per key) appended in one commit, as a compaction would leave
 * them.
 *
 * <p>Each table is then read whole, deletes applied, by Iceberg's generic reader ({@code
 * IcebergGenerics.read(table).build()}), the two alternating, each scan timed in wall milliseconds
 * (planning included); the first pair warms the JIT and is not reported. Both reads are checked
 * row for row against the model: one row per key, {@code BenchRows.values(key)}.
 *
 * <p>A third table takes the same changes and then one pass of the maintenance module's {@link
 * DataCompaction} (Iceberg's bin-pack planner with its defaults, deletes applied while rewriting,
 * dangling deletes removed): what a table maintained in the topology reads like.
 *
 * <p>The cost grows with the square of the commits: a data file's rows meet every equality-delete
 * file committed after it, and Iceberg's generic reader opens each of those files again for every
 * data file it reads (it caches none). At 100 commits a scan opens about 4,000 delete files, at
 * 1,000 about 400,000, 5 to 15 minutes on 2 cores; so the default is 100 commits, which
 * bench/run.sh runs in about a minute, and 1,000 is a run by hand ({@code RowLevelReadCost 1000}).
 *
 * <p>Arguments: commits, changes per commit, update percent, scan repetitions (defaults 100 10 50
 * 2).
 */
public final class RowLevelReadCost {
  private RowLevelReadCost() {}

  public static void main(String[] args) {
    int commits = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int changes = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    int updatePercent = args.length > 2 ? Integer.parseInt(args[2]) : 50;
    int reps = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    measure(new Results(), commits, changes, updatePercent, reps);
  }

  static void measure(Results results, int commits, int changes, int updatePercent, int reps) {
    KeyedRows rows = new KeyedRows(5);
    String params = "columns=5 commits=" + commits + " changes/commit=" + changes + " updates=" + updatePercent + "%";
    try (TempTables upsertDir = new TempTables("bench-read-upsert"); TempTables appendDir = new TempTables("bench-read-append");
        TempTables compactedDir = new TempTables("bench-read-compacted")) {
      // The upsert table: one commit per batch of changes.
      rows.createTable(upsertDir.hadoop(), 2);
      UpsertKeys keys = new UpsertKeys(updatePercent);
      long started = System.nanoTime();
      rows.write(upsertDir.hadoop(), WriteMode.UPSERT, changes, (long) commits * changes, keys::next);
      results.add("RowLevelReadCost", params, "upsert table write s", 0, (System.nanoTime() - started) / 1e9, "s");
      long distinct = keys.distinctKeys();
      // The same changes again (UpsertKeys draws the same keys), then one compaction pass as the maintenance bolt runs it.
      rows.createTable(compactedDir.hadoop(), 2);
      UpsertKeys sameKeys = new UpsertKeys(updatePercent);
      rows.write(compactedDir.hadoop(), WriteMode.UPSERT, changes, (long) commits * changes, sameKeys::next);
      Table compacted = load(compactedDir);
      started = System.nanoTime();
      DataCompaction.Result compaction = new DataCompaction(Map.of()).run(compacted, SnapshotRef.MAIN_BRANCH);
      results.add("RowLevelReadCost", params, "compaction s", 0, (System.nanoTime() - started) / 1e9, "s");
      results.add("RowLevelReadCost", params, "compaction files rewritten", 0, compaction.filesRewritten(), "files");
      // The baseline: every key's final row, appended in one commit.
      rows.createTable(appendDir.hadoop(), 2);
      long[] next = {0};
      rows.write(appendDir.hadoop(), WriteMode.APPEND, (int) distinct, distinct, () -> next[0]++);

      Map<String, Table> tables = tables(upsertDir, compactedDir, appendDir);
      for (Map.Entry<String, Table> table : tables.entrySet()) {
        PlannedFiles files = PlannedFiles.of(table.getValue());
        results.add("RowLevelReadCost", params, table.getKey() + " data files", 0, files.data, "files");
        results.add("RowLevelReadCost", params, table.getKey() + " equality-delete files", 0, files.equalityDeletes, "files");
        results.add("RowLevelReadCost", params, table.getKey() + " delete files opened per scan", 0, files.deletesPerScan, "files");
        results.add("RowLevelReadCost", params, table.getKey() + " rows", 0, distinct, "rows");
      }
      for (int rep = 0; rep <= reps; rep++) {
        for (Map.Entry<String, Table> table : tables.entrySet()) {
          double millis = scanMillis(table.getValue(), rows.data.columns, distinct);
          if (rep > 0) {
            results.add("RowLevelReadCost", params, table.getKey() + " scan ms", rep, millis, "ms");
          }
        }
      }
    }
  }

  /** The tables scanned, by name, in the order they are scanned. */
  private static Map<String, Table> tables(TempTables upsert, TempTables compacted, TempTables append) {
    Map<String, Table> tables = new LinkedHashMap<>();
    tables.put("upsert", load(upsert));
    tables.put("upsert compacted", load(compacted));
    tables.put("append", load(append));
    return tables;
  }

  private static Table load(TempTables tables) {
    return OpenedTable.loadCatalog(new CatalogTarget("bench", tables.hadoop(), "db.events", null, TempTables.hadoopConfiguration()))
        .loadTable(TableIdentifier.of("db", "events"));
  }

  /** Reads the whole table, deletes applied; throws unless it holds exactly one row per key, the key's row. */
  private static double scanMillis(Table table, int columns, long distinct) {
    long started = System.nanoTime();
    Set<Long> seen = new HashSet<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        long key = (Long) record.get(0);
        if (!seen.add(key)) {
          throw new IllegalStateException(table.name() + ": key " + key + " read twice (a delete not applied)");
        }
        List<Object> expected = BenchRows.values(key, columns);
        for (int i = 1; i < columns; i++) {
          Object value = record.get(i);
          Object want = expected.get(i);
          boolean equal = BenchRows.kind(i) == BenchRows.Kind.TIMESTAMP_MILLIS
              ? ((java.time.OffsetDateTime) value).toInstant().toEpochMilli() == (Long) want
              : want.equals(value);
          if (!equal) {
            throw new IllegalStateException(table.name() + ": key " + key + " column " + i + " is " + value + ", not " + want);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    double millis = (System.nanoTime() - started) / 1e6;
    if (seen.size() != distinct) {
      throw new IllegalStateException(table.name() + ": read " + seen.size() + " keys, wrote " + distinct);
    }
    return millis;
  }

  /** What a scan of the table plans: data files, distinct equality-delete files, and delete files summed over the data files. */
  private record PlannedFiles(long data, long equalityDeletes, long deletesPerScan) {
    static PlannedFiles of(Table table) {
      long data = 0;
      long opened = 0;
      Set<String> equality = new HashSet<>();
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        for (FileScanTask task : tasks) {
          data++;
          opened += task.deletes().size();
          for (DeleteFile delete : task.deletes()) {
            if (delete.content() == FileContent.EQUALITY_DELETES) {
              equality.add(delete.location());
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new PlannedFiles(data, equality.size(), opened);
    }
  }
}
