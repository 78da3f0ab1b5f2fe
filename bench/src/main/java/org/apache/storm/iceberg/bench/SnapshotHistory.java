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

import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.kernel.commit.CommitBranch;
import org.apache.storm.iceberg.kernel.commit.PositionsLedger;
import org.apache.storm.iceberg.kernel.commit.SnapshotLookup;
import org.apache.storm.iceberg.kernel.position.Positions;

/**
 * How the snapshot-history walks the sink makes on a commit, its resolution and a restart cost as
 * the table's history grows: a HadoopCatalog table on local disk (manifest lists in memory: {@link
 * AvroInMemoryFileIO}) grown to each size by fast appends
 * of no file (each still a snapshot, as the Trident fence's), a thousand appends a transaction, every snapshot
 * carrying a commit id as the sink's commits do. All of a size's snapshots are minutes old, so a
 * bound by time alone cuts nothing: that is the case of a busy table.
 *
 * <p>Timed, each a median over repeated calls on the loaded table (µs a call):
 *
 * <ul>
 *   <li>{@code find landed}: the settler finds a commit that landed (at the branch's head);
 *   <li>{@code find not landed}: the settler looks for a commit that did not land, attempted just now
 *       on the branch's head (the retry's validator walks the same snapshots);
 *   <li>{@code find not landed at restart (time bound only)}: a restarting task describes a stale WAL
 *       entry, which records when it was written but not the head: every snapshot of the last ten
 *       minutes is walked;
 *   <li>{@code positions sink at head}: a batch open reads the sink's committed source positions,
 *       its newest commit being the branch's head;
 *   <li>{@code positions sink at first snapshot}: the same, the sink's newest commit being the
 *       table's first snapshot (every other commit since by other writers), a task's first read;
 *   <li>{@code positions sink at first snapshot read again}: the same task reading again, nothing
 *       committed since (its ledger remembers where its last walk started);
 *   <li>{@code load table}: Iceberg reading the table's metadata (all of its snapshots), for scale.
 * </ul>
 *
 * <p>Arguments: snapshot counts (default 100,10000).
 */
public final class SnapshotHistory {
  private static final int APPENDS_PER_TRANSACTION = 1000;
  private static final TableIdentifier ID = TableIdentifier.of("db", "events");
  /** The summary key of the sink's commit ids (SummaryKeys.COMMIT_ID). */
  private static final String COMMIT_ID = "storm.iceberg.commit-id";

  private SnapshotHistory() {}

  public static void main(String[] args) throws Exception {
    String[] sizes = (args.length > 0 ? args[0] : "100,10000").split(",");
    Results results = new Results();
    for (String size : sizes) {
      measure(results, Integer.parseInt(size), 500);
    }
  }

  /** Builds a table of {@code snapshots} snapshots and times each walk, warming each up for {@code warmMillis} first. */
  static void measure(Results results, int snapshots, long warmMillis) {
    Timing timing = new Timing(warmMillis);
    BenchData data = new BenchData(5, 1);
    try (TempTables tables = new TempTables("bench-history")) {
      Map<String, String> properties = tables.hadoop();
      properties.put("io-impl", AvroInMemoryFileIO.class.getName());
      Catalog catalog = CatalogUtil.buildIcebergCatalog("bench", properties, TempTables.hadoopConf());
      Table table = catalog.createTable(ID, data.schema, data.spec, Map.of("format-version", "2"));
      PositionsLedger ledger = new PositionsLedger("wal", CommitBranch.MAIN.name());
      long started = System.nanoTime();
      grow(table, snapshots, ledger);
      double buildSeconds = (System.nanoTime() - started) / 1e9;
      table.refresh();
      if (count(table) != snapshots) {
        throw new IllegalStateException("built " + count(table) + " snapshots, not " + snapshots);
      }
      String headCommitId = table.currentSnapshot().summary().get(COMMIT_ID);
      long now = System.currentTimeMillis();
      String params = "snapshots=" + snapshots;
      results.add("SnapshotLookup", params, "build seconds", 1, buildSeconds, "s");
      // A commit attempted on the head's parent that landed as the head; one attempted on the head that did not land.
      SnapshotLookup.Window landedWindow = new SnapshotLookup.Window(table.currentSnapshot().parentId(), now);
      results.add("SnapshotLookup", params, "find landed", 1,
          timing.micros(() -> nonNull(SnapshotLookup.find(table, CommitBranch.MAIN, headCommitId, landedWindow))), "us/call");
      SnapshotLookup.Window onHead = SnapshotLookup.Window.attemptedOn(table, CommitBranch.MAIN, now);
      results.add("SnapshotLookup", params, "find not landed", 1,
          timing.micros(() -> isNull(SnapshotLookup.find(table, CommitBranch.MAIN, UUID.randomUUID().toString(), onHead))), "us/call");
      SnapshotLookup.Window timeOnly = new SnapshotLookup.Window(null, now);
      results.add("SnapshotLookup", params, "find not landed at restart (time bound only)", 1,
          timing.micros(() -> isNull(SnapshotLookup.find(table, CommitBranch.MAIN, UUID.randomUUID().toString(), timeOnly))), "us/call");
      // A task's ledger remembers its last walk: a first read walks to the sink's commit, a read again only the snapshots since.
      results.add("SnapshotLookup", params, "positions sink at first snapshot", 1,
          timing.micros(() -> nonNull(new PositionsLedger("wal", CommitBranch.MAIN.name()).committed(table).snapshotId())),
          "us/call");
      results.add("SnapshotLookup", params, "positions sink at first snapshot read again", 1,
          timing.micros(() -> nonNull(ledger.committed(table).snapshotId())), "us/call");
      PositionsLedger atHead = new PositionsLedger("head-sink", CommitBranch.MAIN.name());
      results.add("SnapshotLookup", params, "positions sink at head", 1,
          timing.micros(() -> nonNull(atHead.committed(table).snapshotId())), "us/call");
      results.add("SnapshotLookup", params, "load table", 1, timing.micros(() -> catalog.loadTable(ID).currentSnapshot().snapshotId()), "us/call");
    }
  }

  /**
   * Grows {@code table} to {@code snapshots} snapshots: the first records source positions for
   * {@code ledger}'s sink, the last for a sink {@code head-sink}, and each carries a commit id.
   */
  private static void grow(Table table, int snapshots, PositionsLedger ledger) {
    Positions positions = new Positions();
    for (int made = 0; made < snapshots; ) {
      Transaction transaction = table.newTransaction();
      for (int i = 0; i < APPENDS_PER_TRANSACTION && made < snapshots; i++, made++) {
        // No file: a fast append's manifest list names every manifest before it, so appending files
        // would make the build quadratic; the walks read only the snapshots' summaries.
        AppendFiles append = transaction.newFastAppend();
        append.set(COMMIT_ID, UUID.randomUUID().toString());
        if (made == 0) {
          append.set(PositionsLedger.SCOPE_KEY, "wal");
          append.set(PositionsLedger.POSITIONS_KEY, positions.encode());
        } else if (made == snapshots - 1) {
          append.set(PositionsLedger.SCOPE_KEY, "head-sink");
          append.set(PositionsLedger.POSITIONS_KEY, positions.encode());
        }
        append.commit();
      }
      transaction.commitTransaction();
    }
  }

  private static int count(Table table) {
    int count = 0;
    for (var ignored : table.snapshots()) {
      count++;
    }
    return count;
  }

  /** Times calls: the median of 25 rounds' µs a call, each round a 25th of the calls the warm-up made. */
  private record Timing(long warmMillis) {
    double micros(LongSupplier call) {
      long sink = 0;
      long warmUntil = System.nanoTime() + warmMillis * 1_000_000L;
      int perRound = 0;
      while (System.nanoTime() < warmUntil) {
        sink += call.getAsLong();
        perRound++;
      }
      perRound = Math.max(1, perRound / 25);
      double[] rounds = new double[25];
      for (int r = 0; r < rounds.length; r++) {
        long start = System.nanoTime();
        for (int i = 0; i < perRound; i++) {
          sink += call.getAsLong();
        }
        rounds[r] = (System.nanoTime() - start) / 1e3 / perRound;
      }
      if (sink == 42) {
        System.out.println("(unlikely sum)");
      }
      Arrays.sort(rounds);
      return rounds[rounds.length / 2];
    }
  }

  private static long nonNull(Long value) {
    if (value == null) {
      throw new IllegalStateException("the lookup found nothing where it should have found a snapshot");
    }
    return value;
  }

  private static long isNull(Long value) {
    if (value != null) {
      throw new IllegalStateException("the lookup found snapshot " + value + " for a commit id no snapshot carries");
    }
    return 0;
  }
}
