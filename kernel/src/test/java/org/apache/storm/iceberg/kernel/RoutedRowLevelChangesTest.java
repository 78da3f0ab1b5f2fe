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

import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.WriteMode;
import org.apache.storm.iceberg.kernel.commit.PositionsLedger;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.apache.storm.iceberg.spi.TableRouter;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.Faults.CommitFault;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.ITuple;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded change streams routed by key over two JdbcCatalog (SQLite) tables by one IcebergBolt task in write
 * mode changelog with Kafka source positions: one partition whose offsets alternate between the
 * tables as the keys do, sent a batch's worth at a time, with commit faults on either table, spout
 * retries that come back after later changes, a dying worker now and then, and (on some seeds) one
 * table open at a time. After every commit each table, read back with {@link IcebergGenerics}, equals
 * the model of the changes of its keys that its positions ledger holds; whenever everything sent is
 * acked, it equals the model of every change of its keys. Until a worker dies (its successor does not
 * know what its predecessor routed), each table's ledger is one range from offset 0. 2 runs in the
 * quick tier, 25 in the long tier ({@code -Dtests.long=true}).
 *
 * <p>The same runs through the split sink ({@link SplitChangeRun} with the router: a routing
 * IcebergWriterBolt task and a routing IcebergCommitterBolt task), where the committer claims the
 * offsets the writer routed to the other table, and a dying worker is the writer's or the
 * committer's: 2 runs in the quick tier (about 5 s), 4 in the long tier (about 10 s).
 */
class RoutedRowLevelChangesTest {
  static final int TABLES = 2;

  @TempDir Path dir;

  /** Each key's changes go to one table: deterministic, as routing with positions requires. */
  static final class KeyRouter implements TableRouter {
    @Override
    public String route(ITuple tuple) {
      return "db.accounts_" + tuple.getLongByField("id") % TABLES;
    }
  }

  @Test
  void routedChangeStreamsLeaveEachTableEqualToItsOwnModelAfterEveryCommit() throws IOException {
    int runs = TestTiers.isLongTier() ? 25 : 2;
    for (long n = 1; n <= runs; n++) {
      new Run(n * 7919, Files.createDirectories(dir.resolve("run-" + n)), false).play();
    }
  }

  @Test
  void routedChangeStreamsThroughTheSplitSinkLeaveEachTableEqualToItsOwnModelAfterEveryCommit() throws IOException {
    int runs = TestTiers.isLongTier() ? 4 : 2;
    for (long n = 1; n <= runs; n++) {
      new Run(n * 7919, Files.createDirectories(dir.resolve("split-" + n)), true).play();
    }
  }

  /** A routing IcebergBolt task as a model run's sink; a dying worker is replaced by {@code reopen}'s task. */
  record RoutedBolt(RoutedSinkTask task, java.util.function.Supplier<RoutedSinkTask> reopen)
      implements RowLevelChangesTest.ModelSink {
    @Override
    public void execute(Tuple tuple) {
      task.execute(tuple);
    }

    @Override
    public void close() {
      task.close();
    }

    @Override
    public RowLevelChangesTest.ModelSink restart(Random random) {
      task.abandon(); // the open batches are lost unacked, and a new incarnation takes the replays
      return new RoutedBolt(reopen.get(), reopen);
    }
  }

  /** One seeded run, with its own catalog, faults, clock and task. */
  static final class Run {
    final long seed;
    final Random random;
    final Faults faults = RowLevelChangesTest.withoutDataFileFaults(Faults.create());
    final Tuples tuples = new Tuples(RowLevelChangesTest.FIELDS);
    final AtomicLong clock = new AtomicLong(1_000_000);
    final RecordingCollector recorder = new RecordingCollector();
    final List<Tuple> log = new ArrayList<>();
    final Table[] tables = new Table[TABLES];
    final Long[] lastChecked = new Long[TABLES];
    final IcebergOptions options;
    RowLevelChangesTest.ModelSink sink;
    boolean restarted;
    long nextOffset;

    /** @param split through the split sink rather than IcebergBolt */
    Run(long seed, Path dir, boolean split) {
      this.seed = seed;
      this.random = new Random(seed);
      // SQLite, as RowLevelChangesTest's runs: a HadoopCatalog's commits cost several times more here.
      Map<String, String> real = TestCatalogs.jdbcSqlite(dir);
      Catalog catalog = TestCatalogs.load(real);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
      String formatVersion = random.nextBoolean() ? "2" : "3";
      for (int t = 0; t < TABLES; t++) {
        tables[t] = catalog.createTable(TableIdentifier.of("db", "accounts_" + t), RowLevelChangesTest.SCHEMA,
            PartitionSpec.unpartitioned(), Map.of(TableProperties.FORMAT_VERSION, formatVersion,
                TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "1", TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "2"));
      }
      IcebergOptions.Builder builder = new IcebergOptions.Builder().withCatalogName("test")
          .withCatalogProperties(FaultInjectingCatalog.properties(real, faults))
          .withTableRouter(new KeyRouter()).withMaxOpenTables(random.nextInt(3) == 0 ? 1 : TABLES)
          .withCommitIntervalRecords(2 + random.nextInt(6)).withCommitIntervalMillis(30_000)
          .withCommitRetryBackoffMillis(10).withWriteMode(WriteMode.CHANGELOG).withChangeFields("op", "seq")
          .withSourcePositions(new FieldPositions());
      if (split) {
        builder.withGroupCommitIntervalMillis(1 + random.nextInt(2) * 1_000).withGroupCommitMaxDataFiles(1 + random.nextInt(4));
      }
      options = builder.build();
      sink = split ? new SplitChangeRun(options, options, 1, clock, recorder, () -> { }) : new RoutedBolt(open(), this::open);
    }

    RoutedSinkTask open() {
      return RoutedSinkTask.open(settings(options),
          TaskEnvironment.detached(SinkTaskTest.TASK, recorder.collector(), clock::get), SinkTasks::open);
    }

    void play() {
      String[] ops = {"c", "u", "d", "r", "UPDATE_BEFORE", "UPDATE_AFTER", "I", "D"};
      int changes = 16 + random.nextInt(30);
      int chunk = 2 + random.nextInt(6);
      for (int sent = 0; sent < changes; sent += chunk) {
        List<Tuple> batch = new ArrayList<>();
        for (int i = sent; i < Math.min(changes, sent + chunk); i++) {
          long key = random.nextInt(4);
          String op = ops[random.nextInt(ops.length)];
          String payload = op.equals("d") || op.equals("D") || op.equals("UPDATE_BEFORE") ? null : "v" + seed + "-" + i;
          batch.add(tuples.tuple(key, "eu", payload, op, (long) i, "accounts", 0, nextOffset++));
        }
        log.addAll(batch);
        if (random.nextInt(3) == 0) {
          // Ten refusals outlast Iceberg's retries: that table's batch fails and replays. The others are ambiguous and land.
          CommitFault fault = new CommitFault[] {CommitFault.FAIL_BEFORE, CommitFault.UNKNOWN_AFTER,
              CommitFault.UNKNOWN_STALE_AFTER_RETRY}[random.nextInt(3)];
          faults.onlyTable = "db.accounts_" + random.nextInt(TABLES);
          faults.inject(fault, fault == CommitFault.FAIL_BEFORE ? 10 : 1);
        }
        batch.forEach(this::execute);
        faults.clear();
        if (random.nextInt(6) == 0) {
          // A worker dies: what it held is lost unacked, and a new incarnation takes the replays.
          sink = sink.restart(random);
          restarted = true;
        }
        if (random.nextInt(3) == 0) {
          // Some retries come back while later changes keep coming.
          List<Tuple> some = new ArrayList<>(RowLevelChangesTest.unacked(recorder, log));
          some.removeIf(tuple -> random.nextBoolean());
          some.forEach(tuple -> execute(again(tuple)));
        }
        if (random.nextInt(3) == 0 || sent + chunk >= changes) {
          replayUntilAcked();
          for (int t = 0; t < TABLES; t++) {
            assertThat(rows(t)).as("seed %d: %s once every change sent is acked", seed, tables[t].name())
                .isEqualTo(model(t, log));
          }
        }
      }
      sink.close();
    }

    /** Sends one tuple; then, for each table that committed, checks it against its model. */
    void execute(Tuple tuple) {
      sink.execute(tuple);
      for (int t = 0; t < TABLES; t++) {
        tables[t].refresh();
        Snapshot current = tables[t].currentSnapshot();
        Long id = current == null ? null : current.snapshotId();
        if (id != null && !id.equals(lastChecked[t])) {
          lastChecked[t] = id;
          checkCommitted(t);
        }
      }
    }

    /** The table equals the model of the changes its ledger holds; until a restart, the ledger runs from 0 without a hole. */
    void checkCommitted(int t) {
      Positions committed = new PositionsLedger(settings(options).commits().walNamespace(), settings(options).commits().branch())
          .committed(tables[t]).positions();
      long largest = committed.largest("accounts", 0);
      if (!restarted) {
        assertThat(largest < 0 || committed.holdsAll("accounts", 0, 0, largest))
            .as("seed %d: %s's positions %s are one range from 0", seed, tables[t].name(), committed).isTrue();
      }
      List<Tuple> landed = log.stream().filter(change -> committed.contains(
          new SourcePosition("accounts", 0, change.getLongByField("offset")))).toList();
      assertThat(rows(t)).as("seed %d: %s after a commit holding %s", seed, tables[t].name(), committed)
          .isEqualTo(model(t, landed));
    }

    /** The spout replays what is unacked, with a random earlier stretch of the log, until everything is acked. */
    void replayUntilAcked() {
      for (int round = 0; !RowLevelChangesTest.unacked(recorder, log).isEmpty(); round++) {
        assertThat(round).as("seed %d: replays settle", seed).isLessThan(40);
        List<Tuple> replay = new ArrayList<>(RowLevelChangesTest.unacked(recorder, log));
        int from = random.nextInt(log.size());
        replay.addAll(0, log.subList(from, Math.min(log.size(), from + random.nextInt(6))));
        replay.sort(java.util.Comparator.comparingLong(tuple -> tuple.getLongByField("offset")));
        replay.forEach(tuple -> execute(again(tuple)));
        if (!RowLevelChangesTest.unacked(recorder, log).isEmpty()) {
          // A short replay leaves a partial batch open: a tick past its age seals it.
          clock.addAndGet(60_000);
          execute(tuples.tick());
        }
      }
    }

    Tuple again(Tuple record) {
      return tuples.tuple(record.getValues().toArray());
    }

    /** The model of the changes of table {@code t}'s keys among {@code changes}. */
    static Map<Long, String> model(int t, List<Tuple> changes) {
      return RowLevelChangesTest.model(changes.stream().filter(change -> change.getLongByField("id") % TABLES == t).toList());
    }

    /** Table {@code t} read back with every delete applied: id to payload. */
    Map<Long, String> rows(int t) {
      tables[t].refresh();
      Map<Long, String> rows = new TreeMap<>();
      try (CloseableIterable<Record> records = IcebergGenerics.read(tables[t]).build()) {
        for (Record record : records) {
          String previous = rows.put((Long) record.getField("id"), (String) record.getField("payload"));
          assertThat(previous).as("seed %d: key %s twice in %s", seed, record.getField("id"), tables[t].name()).isNull();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return rows;
    }
  }
}
