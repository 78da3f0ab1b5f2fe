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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.iceberg.kernel.RoutedKafkaSchedulesTest.RunRouter;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.route.RoutedCommitterTask;
import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.kernel.task.CommitterTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.MemoryWalStoreFactory;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random Kafka schedules against the split sink routing with source positions: one or two routing
 * IcebergWriterBolt tasks (each owning some partitions) and one routing IcebergCommitterBolt task,
 * given the same router, joined by a wire of descriptors, writing two or three HadoopCatalog tables.
 * A {@link KafkaSpoutModel} emits, retries, times out, commits offsets and crashes; commit faults hit
 * the first table only; odd seeds also restart a writer or the committer now and then (their held
 * tuples and descriptors time out and replay). A tuple is acked at the spout once its writer acked it
 * and the committer acked the descriptor anchored to it, as {@link KafkaSplitSchedule} tracks it.
 *
 * <p>Checks, as {@link RoutedKafkaSchedulesTest} does for IcebergBolt, at every spout crash and at
 * the end: every record acked is in its own table, once, and in no other; each table's newest
 * positions hold its rows' offsets and no offset routed to it that it lacks (a claim never takes an
 * own offset not in the batch); and, on seeds without restarts, each table's newest snapshot records
 * one range per partition (the committer claimed the offsets routed elsewhere). 4 schedules in the
 * quick tier (about 6 s), 30 in the long tier (about 15 s); the test JVM's properties {@code routedsplit.schedules=N} and
 * {@code routedsplit.seed=S} pick them.
 */
class RoutedSplitKafkaSchedulesTest {
  @TempDir
  Path warehouse;

  @Test
  void everyRecordLandsOnceInItsTableAndEachTablesPositionsStayOneRangePerPartition() {
    int count = Integer.getInteger("routedsplit.schedules", TestTiers.isLongTier() ? 30 : 4);
    long first = Long.getLong("routedsplit.seed", 1L);
    int failed = SeededRuns.sum(first, count, seed -> new Run(seed).run());
    assertThat(failed).as("commit faults failed descriptors of the first table, whose tuples replayed").isPositive();
  }

  /** One schedule. */
  private final class Run {
    final long seed;
    final Random random;
    final String key = UUID.randomUUID().toString();
    final Faults faults = Faults.create();
    final Catalog catalog;
    final int tableCount;
    final RunRouter router;
    final IcebergOptions options;
    final boolean restarts;
    final KafkaSpoutModel spout;
    final AtomicLong clock = new AtomicLong(1_000_000);
    final Tuples ticks = new Tuples(TestTables.FIELDS);
    final Tuples descriptorTuples = Tuples.from("iceberg-writer", IcebergWriterBolt.DESCRIPTOR_FIELD, IcebergWriterBolt.TABLE_FIELD);
    final RoutedSinkTask[] writers;
    final RecordingCollector[] writerOut;
    final RecordingCollector committerOut = new RecordingCollector();
    RoutedCommitterTask committer;
    /** Each emitted tuple's writer, whether the writer acked it, and whether a descriptor carries it. */
    final Map<Tuple, boolean[]> trees = new LinkedHashMap<>();
    final Map<Tuple, Integer> writerOf = new LinkedHashMap<>();
    final Map<Tuple, List<Tuple>> descriptors = new LinkedHashMap<>();
    final List<Tuple> wire = new ArrayList<>();
    int failed;

    Run(long seed) {
      this.seed = seed;
      this.random = new Random(seed);
      Map<String, String> real = Map.of("type", "hadoop", "warehouse", warehouse.resolve("s" + seed).toUri().toString());
      this.catalog = CatalogUtil.buildIcebergCatalog("test", real, new org.apache.hadoop.conf.Configuration());
      this.tableCount = 2 + random.nextInt(2);
      for (int t = 0; t < tableCount; t++) {
        catalog.createTable(TableIdentifier.of("db", "t" + t), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
            Map.of(TableProperties.COMMIT_NUM_RETRIES, "1", TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "1",
                TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "2"));
      }
      this.router = new RunRouter(tableCount, 1 + random.nextInt(3));
      this.restarts = seed % 2 == 1;
      this.options = new IcebergOptions.Builder().withCatalogName("test")
          .withCatalogProperties(FaultInjectingCatalog.properties(real, faults))
          .withTableRouter(router).withSourcePositions(new FieldPositions())
          .withWalStore("test-memory", Map.of("space", key, "fault-key", faults.key))
          .withCommitRetries(2).withCommitRetryBackoffMillis(0)
          .withCommitIntervalRecords(2 + random.nextInt(6)).withCommitIntervalMillis(1_000)
          .withGroupCommitMaxDataFiles(1 + random.nextInt(4)).withGroupCommitIntervalMillis(random.nextInt(2_000))
          .withMaxOpenTables(tableCount).build();
      faults.onlyTable = "db.t0";
      this.spout = new KafkaSpoutModel(random);
      this.writers = new RoutedSinkTask[1 + random.nextInt(2)];
      this.writerOut = new RecordingCollector[writers.length];
      for (int w = 0; w < writers.length; w++) {
        writerOut[w] = new RecordingCollector();
        writers[w] = openWriter(w);
      }
      this.committer = openCommitter();
    }

    int run() {
      try {
        for (int step = 0; !spout.done() && step < RoutedKafkaSchedulesTest.MAX_STEPS; step++) {
          act(random.nextInt(100));
          harvest();
        }
        faults.clear();
        for (int round = 0; round < 3; round++) {
          clock.addAndGet(2_500);
          tickAll();
          while (!wire.isEmpty()) {
            committer.execute(wire.remove(0));
            harvest();
          }
        }
        clock.addAndGet(2_500);
        tickAll();
        harvest();
        for (RoutedSinkTask writer : writers) {
          writer.close();
        }
        committer.close();
        harvest();
        // A last committer incarnation drops whatever WAL entries the others left.
        openCommitter().close();
        assertThat(spout.done()).as("schedule %d: every record acked within %d steps", seed,
            RoutedKafkaSchedulesTest.MAX_STEPS).isTrue();
        RoutedKafkaSchedulesTest.check(seed, "at the end", catalog, router, tableCount, spout, true);
        if (!restarts) {
          for (int t = 0; t < tableCount; t++) {
            Snapshot newest = RoutedKafkaSchedulesTest.load(catalog, t).currentSnapshot();
            if (newest != null) {
              RoutedKafkaSchedulesTest.assertOneRangePerPartition(seed, "t" + t + " at the end", newest);
            }
          }
        }
        return failed;
      } finally {
        MemoryWalStoreFactory.drop(key);
      }
    }

    private void act(int roll) {
      if (roll < 6) {
        // Hits 1 to 8 commit attempts: some commits land on a retry, some give up and fail their descriptors.
        faults.inject(RoutedKafkaSchedulesTest.FAULTS[random.nextInt(RoutedKafkaSchedulesTest.FAULTS.length)], 1 + random.nextInt(8));
      } else if (roll < 8) {
        RoutedKafkaSchedulesTest.check(seed, "at spout crash " + (spout.crashes + 1), catalog, router, tableCount, spout, false);
        spout.crash();
      } else if (roll < 9 && restarts) {
        restart(random.nextInt(writers.length + 1));
      } else if (roll < 12) {
        spout.commitOffsets();
      } else if (roll < 16) {
        spout.timeOutOne();
      } else if (roll < 26 || (!spout.hasNext() && wire.isEmpty())) {
        clock.addAndGet(600);
        tickAll();
      } else if (!wire.isEmpty() && (roll < 50 || !spout.hasNext())) {
        committer.execute(wire.remove(0));
      } else {
        Tuple tuple = spout.next();
        int writer = KafkaSpoutModel.position(tuple).partition() % writers.length;
        trees.put(tuple, new boolean[2]);
        writerOf.put(tuple, writer);
        writers[writer].execute(tuple);
      }
    }

    private void tickAll() {
      Tuple tick = ticks.tick();
      for (RoutedSinkTask writer : writers) {
        writer.execute(tick);
      }
      committer.execute(tick);
    }

    /** A writer (or, for {@code writers.length}, the committer) dies and starts again: what it held times out. */
    private void restart(int task) {
      if (task < writers.length) {
        writers[task].close();
        harvest();
        List.copyOf(trees.keySet()).stream()
            .filter(tuple -> writerOf.get(tuple) == task && !trees.get(tuple)[0]).forEach(this::fail);
        writers[task] = openWriter(task);
      } else {
        committer.close();
        harvest();
        descriptors.values().forEach(anchors -> anchors.forEach(this::fail));
        descriptors.clear();
        wire.clear();
        committer = openCommitter();
      }
    }

    /** Turns what the tasks did into the spout's view of each tuple tree. */
    private void harvest() {
      for (RecordingCollector out : writerOut) {
        for (RecordingCollector.Emitted emitted : KafkaSchedules.drain(out.emitted)) {
          Tuple descriptor = descriptorTuples.tuple(emitted.values().get(0), emitted.values().get(1));
          emitted.anchors().forEach(tuple -> trees.get(tuple)[1] = true);
          descriptors.put(descriptor, emitted.anchors());
          wire.add(descriptor);
        }
        for (Tuple tuple : KafkaSchedules.drain(out.acked)) {
          boolean[] tree = trees.get(tuple);
          if (tree != null) {
            tree[0] = true;
            if (!tree[1]) {
              complete(tuple);
            }
          }
        }
        KafkaSchedules.drain(out.failed).forEach(this::fail);
        KafkaSchedules.drain(out.errors);
      }
      KafkaSchedules.drain(committerOut.errors);
      for (Tuple descriptor : KafkaSchedules.drain(committerOut.acked)) {
        descriptors.remove(descriptor).stream().filter(tuple -> trees.containsKey(tuple) && trees.get(tuple)[0])
            .forEach(this::complete);
      }
      for (Tuple descriptor : KafkaSchedules.drain(committerOut.failed)) {
        descriptors.remove(descriptor).forEach(this::fail);
      }
    }

    private void complete(Tuple tuple) {
      if (trees.remove(tuple) != null) {
        writerOf.remove(tuple);
        spout.ack(tuple);
      }
    }

    private void fail(Tuple tuple) {
      if (trees.remove(tuple) != null) {
        writerOf.remove(tuple);
        failed++;
        spout.fail(tuple);
      }
    }

    private RoutedSinkTask openWriter(int w) {
      TaskEnvironment env = TaskEnvironment.detached(new TaskIdentity("topology", "iceberg-writer", 10 + w, w, writers.length),
          writerOut[w].collector(), clock::get);
      return RoutedSinkTask.open(settings(options), env, (s, e, commits, handoffs) -> SinkTasks.openRoutedWriter(s, e, handoffs));
    }

    private RoutedCommitterTask openCommitter() {
      TaskEnvironment env = TaskEnvironment.detached(new TaskIdentity("topology", "iceberg-committer", 1, 0, 1),
          committerOut.collector(), clock::get);
      return RoutedCommitterTask.open(settings(options), env, CommitterTask::open);
    }
  }
}
