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

package org.apache.storm.iceberg.kernel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.MemoryWalStoreFactory;

/**
 * Random fault schedules, on a real (in-memory) Iceberg catalog wrapped with {@link
 * FaultInjectingCatalog}. Even seeds drive IcebergBolt's task ({@link BoltSchedule}), odd seeds the
 * split pair ({@link SplitSchedule}); every other even seed (a multiple of 4) gives the bolt a
 * dead-letter stream and some poison ids. Each schedule draws, from its seed, the table's spec, the batch
 * sizes and, step by step, what happens next (see {@link Schedule#armRandomFault}).
 *
 * <p>After each schedule it checks what a user would: every id is in the table; every snapshot adds
 * whole batches only; a copy of an attempt only where that attempt timed out, or the sink failed it
 * with its commit declared unsettled (see {@link Schedule}), never one the sink failed as not
 * applied; the table reads cleanly; and no WAL entry is left once a last incarnation has started.
 *
 * <p>Run many on demand: {@code mvn -pl kernel test -Dtest=RandomFaultSchedulesTest -Dschedules=100000}.
 */
final class RandomFaultSchedules {
  /** Which sink a schedule drives. */
  enum Sink { BOLT, BOLT_DEAD_LETTERS, SPLIT }

  /** What one schedule did, for the summary. */
  record Outcome(long seed, Sink sink, int ids, int steps, int faults, int crashes, int replays, int snapshots, int deadLetters,
      int batchesSettledTogether) {}

  static Sink sinkOf(long seed) {
    return seed % 2 != 0 ? Sink.SPLIT : seed % 4 == 0 ? Sink.BOLT_DEAD_LETTERS : Sink.BOLT;
  }

  Outcome run(long seed) {
    String key = "schedule-" + seed + "-" + System.nanoTime();
    Faults faults = Faults.create();
    Map<String, String> catalogProperties = FaultInjectingCatalog.sharedInMemory(key, faults);
    try {
      Sink sink = sinkOf(seed);
      Schedule schedule = new Schedule(seed, key, faults, catalogProperties, sink == Sink.BOLT_DEAD_LETTERS);
      if (sink != Sink.SPLIT) {
        new BoltSchedule(schedule).run();
      } else {
        new SplitSchedule(schedule).run();
      }
      Table table = schedule.table;
      check(seed, table, schedule.idCount, schedule.acked, schedule.mustNotLand, schedule.ackedBatches, key, faults,
          schedule.poison);
      checkDeadLetters(seed, schedule);
      int snapshots = 0;
      for (Snapshot ignored : table.snapshots()) {
        snapshots++;
      }
      return new Outcome(seed, sink, schedule.idCount, schedule.steps, schedule.faultsArmed, schedule.crashes,
          schedule.replayed.size(), snapshots, schedule.deadLettersAccepted.values().stream().mapToInt(Integer::intValue).sum(),
          schedule.batchesSettledTogether);
    } finally {
      FaultInjectingCatalog.dropShared(key);
      MemoryWalStoreFactory.drop(key);
    }
  }

  private static void check(long seed, Table table, int idCount, Set<Long> acked, Set<String> mustNotLand,
      List<Set<Long>> ackedBatches, String walSpace, Faults faults, Set<Long> poison) {
    String schedule = "schedule " + seed + ": ";
    if (acked.size() != idCount) {
      throw new AssertionError(schedule + "only " + acked.size() + " of " + idCount + " ids acked");
    }
    table.refresh();
    Map<Long, Integer> copies = new HashMap<>();
    Map<String, Integer> attemptCopies = new HashMap<>();
    Map<Long, List<Long>> idsBySnapshot = new HashMap<>();
    // The table reads cleanly: every file plans and every row reads.
    long rowsRead = 0;
    try (CloseableIterable<FileScanTask> files = table.newScan().planFiles();
        CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      files.forEach(file -> { });
      for (Record ignored : rows) {
        rowsRead++;
      }
    } catch (IOException | RuntimeException e) {
      throw new AssertionError(schedule + "the table does not read cleanly", e);
    }
    for (Snapshot snapshot : table.snapshots()) {
      // A list, not a set: the split pair may commit an id and its replay in one append.
      List<Long> ids = new java.util.ArrayList<>();
      for (var dataFile : SnapshotChanges.builderFor(table).snapshot(snapshot).build().addedDataFiles()) {
        try (CloseableIterable<Record> rows = org.apache.iceberg.parquet.Parquet.read(table.io().newInputFile(dataFile.location()))
            .project(table.schema()).createReaderFunc(s -> org.apache.iceberg.data.parquet.GenericParquetReaders.buildReader(table.schema(), s))
            .build()) {
          for (Record row : rows) {
            ids.add((Long) row.getField("id"));
            attemptCopies.merge((String) row.getField("payload"), 1, Integer::sum);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      long added = Long.parseLong(snapshot.summary().get("added-records"));
      if (added != ids.size()) {
        throw new AssertionError(schedule + "snapshot " + snapshot.snapshotId() + " adds " + added + " rows but its files hold " + ids.size());
      }
      idsBySnapshot.put(snapshot.snapshotId(), ids);
      ids.forEach(id -> copies.merge(id, 1, Integer::sum));
    }
    if (rowsRead != copies.values().stream().mapToInt(Integer::intValue).sum()) {
      throw new AssertionError(schedule + "the table reads " + rowsRead + " rows, its snapshots added "
          + copies.values().stream().mapToInt(Integer::intValue).sum());
    }
    for (long id = 0; id < idCount; id++) {
      int n = copies.getOrDefault(id, 0);
      if (poison.contains(id)) {
        if (n > 0) {
          throw new AssertionError(schedule + "poison id " + id + " is in the table " + n + " times");
        }
        continue;
      }
      if (n == 0) {
        throw new AssertionError(schedule + "id " + id + " was acked but is not in the table");
      }
    }
    // Copies of an id are legitimate only as rows of different attempts, each of which may have
    // landed: its tuple timed out, or the sink failed it with its commit unsettled. One attempt
    // twice is one batch committed twice; an attempt the sink failed as not applied must not be
    // there at all.
    attemptCopies.forEach((attempt, n) -> {
      if (n > 1) {
        throw new AssertionError(schedule + "attempt " + attempt + " is in the table " + n + " times: its batch was committed twice");
      }
      if (mustNotLand.contains(attempt)) {
        throw new AssertionError(schedule + "attempt " + attempt
            + " is in the table, but the sink failed it as not applied (its commit settled) and it was replayed: a duplicate");
      }
    });
    for (Set<Long> batch : ackedBatches) {
      boolean whole = idsBySnapshot.values().stream().anyMatch(ids -> ids.containsAll(batch));
      if (!whole) {
        throw new AssertionError(schedule + "acked batch " + batch + " is not whole in any one snapshot");
      }
    }
    if (faults.staleApplied.get() > 0) {
      throw new AssertionError(schedule + "a stale first attempt was applied after its retry");
    }
    if (!MemoryWalStoreFactory.entries(walSpace).isEmpty()) {
      throw new AssertionError(schedule + "WAL entries left after a last incarnation started: "
          + MemoryWalStoreFactory.entries(walSpace).keySet());
    }
  }

  /**
   * Every poison id reached the dead-letter stream's consumer (it is acked, so nothing is lost), and
   * only once unless one of its tuples timed out: a tuple is acked only after its dead letter is
   * emitted, and one whose dead letter was failed replays, so a second accepted dead letter can
   * only follow a task's death between the emit and the ack.
   */
  private static void checkDeadLetters(long seed, Schedule schedule) {
    for (long id : schedule.poison) {
      int accepted = schedule.deadLettersAccepted.getOrDefault(id, 0);
      if (accepted == 0) {
        throw new AssertionError("schedule " + seed + ": poison id " + id + " was acked, but no dead letter of it was accepted: lost");
      }
      if (accepted > 1 && !schedule.poisonTimedOut.contains(id)) {
        throw new AssertionError("schedule " + seed + ": poison id " + id + " was dead-lettered " + accepted
            + " times, though none of its tuples timed out: a duplicate");
      }
    }
  }
}
