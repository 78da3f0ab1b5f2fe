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

package org.apache.storm.iceberg.tools;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.spi.WalEntry;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;
import org.apache.storm.iceberg.spi.WalStoreListing;

/**
 * What storm-iceberg has done to a table, for operators:
 *
 * <ul>
 *   <li>recent snapshots, with their storm commit ids, writer, rows and files per commit;
 *   <li>pending WAL entries per task, with their age and files: the orphans a crashed task leaves
 *       until it restarts (their data files are never made visible);
 *   <li>a small-files signal: the mean data file the sink commits, against the table's target size.
 * </ul>
 *
 * <pre>
 *   java -jar storm-iceberg-tools-….jar \
 *     --catalog type=hadoop --catalog warehouse=file:/data/warehouse --table examples.events \
 *     [--catalog-name NAME] [--snapshots 20] [--wal-store hadoop-fs --wal-property path=hdfs://…]
 * </pre>
 *
 * The jar carries Hadoop's client, the JDBC drivers (SQLite, PostgreSQL) and the REST catalog's
 * client; {@code storm jar storm-iceberg-tools-….jar org.apache.storm.iceberg.tools.IcebergInspect …}
 * runs it too.
 *
 * Catalog property values are never printed.
 */
public final class IcebergInspect {
  /** A mean committed file below this share of the target size is the small-files signature. */
  static final double SMALL_FILE_SHARE = 0.125;

  private IcebergInspect() {}

  public static void main(String[] args) {
    try {
      Arguments arguments = Arguments.parse(args);
      Catalog catalog = CatalogUtil.buildIcebergCatalog(arguments.catalogName, arguments.catalog, new org.apache.hadoop.conf.Configuration());
      Table table = catalog.loadTable(TableIdentifier.parse(arguments.table));
      WalStore wal = ProviderRegistry.find(WalStoreFactory.class, arguments.walStore, IcebergInspect.class.getClassLoader())
          .create(arguments.walProperties);
      inspect(table, wal, arguments.snapshots, System.currentTimeMillis(), System.out);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    } catch (NoSuchTableException e) {
      System.err.println(e.getMessage() + ": check --table and the catalog properties (--catalog, --catalog-name)");
      System.exit(2);
    }
  }

  /** Prints the report about {@code table} to {@code out}. */
  public static void inspect(Table table, WalStore wal, int snapshots, long nowMillis, PrintStream out) {
    table.refresh();
    out.println("table " + table.name() + " at " + table.location());
    List<Snapshot> sinkCommits = recentSinkCommits(table, snapshots);
    out.println();
    out.println("recent storm-iceberg commits (newest first, " + sinkCommits.size() + " shown):");
    out.println(String.format("  %-20s %-24s %-36s %-22s %10s %6s %12s", "snapshot", "committed at", "storm commit id", "by", "rows", "files", "bytes"));
    for (Snapshot snapshot : sinkCommits) {
      Map<String, String> summary = snapshot.summary();
      out.println(String.format("  %-20d %-24s %-36s %-22s %10s %6s %12s",
          snapshot.snapshotId(), Instant.ofEpochMilli(snapshot.timestampMillis()),
          summary.get(IcebergOptions.COMMIT_ID_PROPERTY),
          summary.get("storm.iceberg.component") + "/" + summary.get("storm.iceberg.task-index"),
          summary.getOrDefault("added-records", "0"), summary.getOrDefault("added-data-files", "0"),
          summary.getOrDefault("added-files-size", "0")));
    }
    printPendingWal(table, wal, nowMillis, out);
    printSmallFiles(table, sinkCommits, out);
  }

  private static List<Snapshot> recentSinkCommits(Table table, int limit) {
    List<Snapshot> commits = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      if (snapshot.summary().containsKey(IcebergOptions.COMMIT_ID_PROPERTY)) {
        commits.add(snapshot);
      }
    }
    commits.sort((a, b) -> Long.compare(b.timestampMillis(), a.timestampMillis()));
    return commits.subList(0, Math.min(limit, commits.size()));
  }

  private static void printPendingWal(Table table, WalStore wal, long nowMillis, PrintStream out) {
    out.println();
    if (!(wal instanceof WalStoreListing listing)) {
      out.println("pending WAL entries: not shown, WAL store " + wal + " cannot list a whole table's entries");
      return;
    }
    List<WalEntry> entries = listing.listAll(table);
    out.println("pending WAL entries (" + entries.size() + "): commits a task began and has not settled;"
        + " a crashed task's entry stays until it restarts, and its files are orphans unless the commit landed");
    for (WalEntry entry : entries) {
      try {
        DataFilesCodec.Entry decoded = DataFilesCodec.decode(entry.payload(), entry.location(), table.specs());
        out.println("  " + entry.location());
        out.println("    commit " + decoded.id() + ", age " + Duration.ofMillis(nowMillis - decoded.createdAtMillis()).toSeconds()
            + " s, " + decoded.files().size() + " data files:");
        decoded.files().forEach(file -> out.println("      " + file.location()));
      } catch (DataFilesCodec.CorruptEntryException e) {
        out.println("  " + entry.location() + ": " + e.getMessage());
      }
    }
  }

  private static void printSmallFiles(Table table, List<Snapshot> commits, PrintStream out) {
    long files = 0;
    long bytes = 0;
    for (Snapshot snapshot : commits) {
      files += Long.parseLong(snapshot.summary().getOrDefault("added-data-files", "0"));
      bytes += Long.parseLong(snapshot.summary().getOrDefault("added-files-size", "0"));
    }
    long target = PropertyUtil.propertyAsLong(table.properties(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    out.println();
    if (files == 0) {
      out.println("small files: no storm-iceberg commits to judge");
      return;
    }
    long mean = bytes / files;
    double share = (double) mean / target;
    out.println(String.format("small files: the last %d commits added %d data files, %d bytes each on average,"
        + " %.1f%% of write.target-file-size-bytes (%d)", commits.size(), files, mean, share * 100, target));
    if (share < SMALL_FILE_SHARE) {
      out.println("  SMALL FILES: commit less often (larger thresholds), use the split sink to gather writers'"
          + " files into fewer commits, bound partitions per batch, and compact with rewrite_data_files");
    }
  }

  /** The command line, read strictly: an unknown flag is an error that lists the known ones. */
  static final class Arguments {
    String catalogName = IcebergOptions.DEFAULT_CATALOG_NAME;
    final Map<String, String> catalog = new LinkedHashMap<>();
    String table;
    int snapshots = 20;
    String walStore = IcebergOptions.DEFAULT_WAL_STORE;
    final Map<String, String> walProperties = new LinkedHashMap<>();

    static Arguments parse(String[] args) {
      Arguments parsed = new Arguments();
      for (int i = 0; i < args.length; i += 2) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(args[i] + " needs a value");
        }
        String value = args[i + 1];
        switch (args[i]) {
          case "--catalog" -> keyValue(value, parsed.catalog);
          case "--catalog-name" -> parsed.catalogName = value;
          case "--table" -> parsed.table = value;
          case "--snapshots" -> parsed.snapshots = Integer.parseInt(value);
          case "--wal-store" -> parsed.walStore = value;
          case "--wal-property" -> keyValue(value, parsed.walProperties);
          default -> throw new IllegalArgumentException("unknown option " + args[i]
              + "; use --catalog KEY=VALUE (repeatable), --table NS.TABLE, --catalog-name, --snapshots N,"
              + " --wal-store NAME, --wal-property KEY=VALUE");
        }
      }
      if (parsed.table == null || parsed.catalog.isEmpty()) {
        throw new IllegalArgumentException("usage: IcebergInspect --catalog KEY=VALUE ... --table NS.TABLE");
      }
      return parsed;
    }

    private static void keyValue(String pair, Map<String, String> into) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("expected KEY=VALUE, got a value without '='");
      }
      into.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
  }
}
