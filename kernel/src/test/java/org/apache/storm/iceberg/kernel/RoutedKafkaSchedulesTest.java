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

import org.apache.storm.iceberg.testing.SeededRuns;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.KafkaSpoutModel.Position;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.spi.TableRouter;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.MemoryWalStoreFactory;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.SteppedCommitThread;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.ITuple;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random Kafka schedules against one routing IcebergBolt task with source positions, writing two or
 * three HadoopCatalog tables: a {@link KafkaSpoutModel} emits (next records and retries), times
 * tuples out, commits its offsets and crashes; the router sends runs of each partition's offsets to
 * the tables in turn; commit faults hit the first table only; odd seeds also restart the task, and
 * every third seed keeps one table open at a time (tables are evicted and reopened); even seeds
 * commit on a {@link SteppedCommitThread} the schedule steps (commits run some steps after their
 * seal, up to 1 to 3 pending per table), odd ones as each batch seals.
 *
 * <p>What a user of exactly-once checks, per table, at every spout crash and at the end: every
 * record acked is in the table its route names, none twice, none in another table; the newest
 * snapshot's positions hold every offset of the table's rows and no offset routed to the table that
 * is not in it. And what routing with positions promises: every snapshot of a table no fault hit
 * records one range per partition (on seeds without task restarts, which forget what the task
 * routed), and at the end every table's newest snapshot does, on those seeds, the faulted one too.
 * 8 schedules in the quick tier, 100 in the long tier ({@code -Dtests.long=true}); the test JVM's
 * properties {@code routedkafka.schedules=N} and {@code routedkafka.seed=S} pick them (the pom does
 * not forward them from Maven's command line).
 */
class RoutedKafkaSchedulesTest {
  static final int MAX_STEPS = 4_000;
  static final Faults.CommitFault[] FAULTS =
      {Faults.CommitFault.FAIL_BEFORE, Faults.CommitFault.UNKNOWN_AFTER, Faults.CommitFault.UNKNOWN_NOT_APPLIED};

  @TempDir
  Path warehouse;

  /** Sends runs of {@code run} consecutive records of a partition to each table in turn, by the record's id. */
  static final class RunRouter implements TableRouter {
    private final int tables;
    private final int run;

    RunRouter(int tables, int run) {
      this.tables = tables;
      this.run = run;
    }

    @Override
    public String route(ITuple tuple) {
      return table(tuple.getLongByField("id"));
    }

    String table(long id) {
      return "db.t" + (id % 1_000 / run) % tables;
    }
  }

  @Test
  void everyRecordLandsOnceInItsTableAndEachTablesPositionsStayOneRangePerPartition() {
    int count = Integer.getInteger("routedkafka.schedules", TestTiers.isLongTier() ? 100 : 8);
    long first = Long.getLong("routedkafka.seed", 1L);
    int failed = SeededRuns.sum(first, count, this::run);
    assertThat(failed).as("commit faults failed batches of the first table, whose tuples replayed").isPositive();
  }

  /** Runs one schedule; returns how many tuples the task failed. */
  private int run(long seed) {
    Random random = new Random(seed);
    String key = UUID.randomUUID().toString();
    Faults faults = Faults.create();
    Map<String, String> real = Map.of("type", "hadoop", "warehouse", warehouse.resolve("s" + seed).toUri().toString());
    Map<String, String> properties = FaultInjectingCatalog.properties(real, faults);
    Catalog catalog = CatalogUtil.buildIcebergCatalog("test", real, new org.apache.hadoop.conf.Configuration());
    int tableCount = 2 + random.nextInt(2);
    for (int t = 0; t < tableCount; t++) {
      catalog.createTable(TableIdentifier.of("db", "t" + t), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
          Map.of(TableProperties.COMMIT_NUM_RETRIES, "1", TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "1",
              TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "2"));
    }
    RunRouter router = new RunRouter(tableCount, 1 + random.nextInt(3));
    boolean restarts = seed % 2 == 1;
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(properties)
        .withTableRouter(router).withSourcePositions(new FieldPositions())
        .withWalStore("test-memory", Map.of("space", key, "fault-key", faults.key))
        .withCommitRetries(2).withCommitRetryBackoffMillis(0)
        .withCommitIntervalRecords(2 + random.nextInt(6)).withCommitIntervalMillis(1_000)
        .withMaxOpenTables(seed % 3 == 0 ? 1 : tableCount).withMaxPendingCommits(1 + random.nextInt(3)).build();
    boolean stepped = seed % 2 == 0;
    faults.onlyTable = "db.t0";
    KafkaSpoutModel spout = new KafkaSpoutModel(random);
    RecordingCollector recorder = new RecordingCollector();
    AtomicLong clock = new AtomicLong(1_000_000);
    Tuples ticks = new Tuples(TestTables.FIELDS);
    Set<Tuple> held = new LinkedHashSet<>();
    int[] failed = {0};
    SteppedCommitThread[] thread = {new SteppedCommitThread()};
    RoutedSinkTask sink = open(options, recorder, clock, stepped ? thread[0] : null);
    try {
      for (int step = 0; !spout.done() && step < MAX_STEPS; step++) {
        int roll = random.nextInt(100);
        if (roll < 6) {
          // Hits 1 to 8 commit attempts: some commits land on a retry, some give up and fail their batch.
          faults.inject(FAULTS[random.nextInt(FAULTS.length)], 1 + random.nextInt(8));
        } else if (roll < 8) {
          check(seed, "at spout crash " + (spout.crashes + 1), catalog, router, tableCount, spout, false);
          spout.crash();
        } else if (roll < 9 && restarts) {
          sink.close(); // its tuples not yet acked time out at the spout and replay
          harvest(recorder, spout, held, failed);
          held.forEach(spout::fail);
          held.clear();
          thread[0] = new SteppedCommitThread();
          sink = open(options, recorder, clock, stepped ? thread[0] : null);
        } else if (roll < 12) {
          spout.commitOffsets();
        } else if (roll < 16) {
          spout.timeOutOne();
        } else if (roll < 22 && stepped && thread[0].queued() > 0) {
          for (int run = 1 + random.nextInt(thread[0].queued()); run > 0; run--) {
            thread[0].runNext();
          }
        } else if (roll < 28 || !spout.hasNext()) {
          clock.addAndGet(600);
          sink.execute(ticks.tick());
        } else {
          Tuple tuple = spout.next();
          held.add(tuple);
          sink.execute(tuple);
        }
        harvest(recorder, spout, held, failed);
      }
      faults.clear();
      thread[0].runAll();
      clock.addAndGet(600);
      sink.execute(ticks.tick()); // settles what the last commits did
      harvest(recorder, spout, held, failed);
      sink.close();
      harvest(recorder, spout, held, failed);
      // A last incarnation drops whatever WAL entries the others left.
      open(options, recorder, clock, null).close();
      assertThat(spout.done()).as("schedule %d: every record acked within %d steps", seed, MAX_STEPS).isTrue();
      check(seed, "at the end", catalog, router, tableCount, spout, true);
      if (!restarts) {
        for (int t = 1; t < tableCount; t++) {
          for (Snapshot snapshot : TestTables.snapshots(load(catalog, t))) {
            assertOneRangePerPartition(seed, "t" + t + " snapshot " + snapshot.snapshotId(), snapshot);
          }
        }
        for (int t = 0; t < tableCount; t++) {
          Snapshot newest = load(catalog, t).currentSnapshot();
          if (newest != null) {
            assertOneRangePerPartition(seed, "t" + t + " at the end", newest);
          }
        }
      }
      return failed[0];
    } finally {
      MemoryWalStoreFactory.drop(key);
    }
  }

  private static void harvest(RecordingCollector recorder, KafkaSpoutModel spout, Set<Tuple> held, int[] failed) {
    for (Tuple tuple : KafkaSchedules.drain(recorder.acked)) {
      held.remove(tuple);
      spout.ack(tuple);
    }
    for (Tuple tuple : KafkaSchedules.drain(recorder.failed)) {
      failed[0]++;
      held.remove(tuple);
      spout.fail(tuple);
    }
    KafkaSchedules.drain(recorder.errors);
  }

  /**
   * Every record acked is in its own table, once, and in no other (every record, at the end); each
   * table's newest positions hold its rows' offsets and no offset of its own that it lacks.
   */
  static void check(long seed, String when, Catalog catalog, RunRouter router, int tableCount,
      KafkaSpoutModel spout, boolean atEnd) {
    String schedule = "schedule " + seed + " (" + when + "): ";
    Map<Position, String> tableOf = new HashMap<>();
    for (int t = 0; t < tableCount; t++) {
      Table table = load(catalog, t);
      List<Position> rows = rows(table, spout);
      for (Position position : rows) {
        String previous = tableOf.put(position, table.name());
        assertThat(previous).as(schedule + "%s is in %s and in %s", position, previous, table.name()).isNull();
        assertThat(table.name()).as(schedule + "%s is in the table its route names", position)
            .isEqualTo("test." + router.table(spout.id(position)));
      }
      Set<Position> recorded = newestPositions(table);
      assertThat(recorded).as(schedule + "%s's newest positions hold its rows' offsets", table.name()).containsAll(rows);
      for (Position position : recorded) {
        if (("test." + router.table(spout.id(position))).equals(table.name())) {
          assertThat(rows).as(schedule + "%s records %s, routed to it, so it must hold it", table.name(), position)
              .contains(position);
        }
      }
    }
    Set<Position> expected = atEnd ? new java.util.HashSet<>(spout.records()) : spout.everAcked;
    for (Position position : expected) {
      assertThat(tableOf).as(schedule + "%s was acked but is in no table", position).containsKey(position);
    }
  }

  static Table load(Catalog catalog, int t) {
    return catalog.loadTable(TableIdentifier.of("db", "t" + t));
  }

  /** The positions of the table's rows, each as often as it is there. */
  private static List<Position> rows(Table table, KafkaSpoutModel spout) {
    List<Position> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record row : records) {
        rows.add(spout.positionOfId((Long) row.getField("id")));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static Set<Position> newestPositions(Table table) {
    Set<Position> positions = new java.util.HashSet<>();
    Snapshot current = table.currentSnapshot();
    String text = current == null ? null : current.summary().get(KafkaScheduleChecks.POSITIONS_KEY);
    if (text == null) {
      return positions;
    }
    partitionRanges(text).forEach((partition, ranges) -> {
      for (String range : ranges) {
        String[] bounds = range.split("-");
        long from = Long.parseLong(bounds[0]);
        long to = bounds.length == 1 ? from : Long.parseLong(bounds[1]);
        for (long offset = from; offset <= to; offset++) {
          positions.add(new Position(partition, offset));
        }
      }
    });
    return positions;
  }

  /** {@code orders@id-1|0=0-4,7|1=3} read with a parser of the test's own: partition → its ranges. */
  private static Map<Integer, List<String>> partitionRanges(String text) {
    Map<Integer, List<String>> ranges = new HashMap<>();
    String[] parts = text.split("\\|");
    for (int i = 1; i < parts.length; i++) {
      String[] partitionAndRanges = parts[i].split("=");
      ranges.put(Integer.parseInt(partitionAndRanges[0]), List.of(partitionAndRanges[1].split(",")));
    }
    return ranges;
  }

  static void assertOneRangePerPartition(long seed, String what, Snapshot snapshot) {
    String text = snapshot.summary().get(KafkaScheduleChecks.POSITIONS_KEY);
    assertThat(text).as("schedule %d: %s records positions", seed, what).isNotNull();
    partitionRanges(text).forEach((partition, ranges) -> assertThat(ranges)
        .as("schedule %d: %s records partition %d as one range: %s", seed, what, partition, text).hasSize(1));
  }

  /** A routing task committing on {@code thread}, or as each batch seals when it is null. */
  private static RoutedSinkTask open(IcebergOptions options, RecordingCollector recorder, AtomicLong clock,
      SteppedCommitThread thread) {
    TaskEnvironment env = TaskEnvironment.detached(SinkTaskTest.TASK, recorder.collector(), clock::get);
    return thread == null ? RoutedSinkTask.open(settings(options), env, SinkTasks::open)
        : RoutedSinkTask.open(settings(options), env, () -> thread, SinkTasks::open);
  }
}
