package org.apache.storm.iceberg.kernel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.FileScanTask;
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
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;

/**
 * Random fault schedules against IcebergBolt's task, on a real (in-memory) Iceberg catalog wrapped
 * with {@link FaultInjectingCatalog}. A source model replays whatever is failed or times out (held
 * by a task that crashed). Each schedule draws, from its seed: the table's spec, the batch size, and
 * at every step whether to send, tick, crash the task, or arm a fault at a named point: a data file
 * that cannot be written or closed; a WAL entry that cannot be written (before or after its bytes
 * land) or deleted; a commit rejected, answered with a lost answer after or without applying,
 * applied late, or followed by its stale first attempt; the catalog down for a while; the worker
 * dying after the commit, before the ack.
 *
 * <p>After each schedule it checks what a user would: every id is in the table; every snapshot adds
 * whole batches only; a duplicate only for an id that was failed or timed out and replayed; the
 * table reads cleanly; and no WAL entry is left once a last incarnation has started.
 *
 * <p>Run many on demand: {@code mvn -pl kernel test -Dtest=RandomFaultSchedulesTest -Dschedules=100000}.
 */
final class RandomFaultSchedules {
  private static final Faults.CommitFault[] FAULTS = {
    Faults.CommitFault.FAIL_BEFORE, Faults.CommitFault.UNKNOWN_AFTER, Faults.CommitFault.UNKNOWN_NOT_APPLIED,
    Faults.CommitFault.UNKNOWN_LANDS_LATE, Faults.CommitFault.UNKNOWN_STALE_AFTER_RETRY, Faults.CommitFault.UNREACHABLE
  };

  private static final String[] REGIONS = {"eu", "us", "apac"};

  /** What one schedule did, for the summary. */
  record Outcome(long seed, int ids, int steps, int faults, int crashes, int replays, int snapshots) {}

  private final Path dir;

  RandomFaultSchedules(Path dir) {
    this.dir = dir;
  }

  Outcome run(long seed) {
    Random random = new Random(seed);
    String key = "schedule-" + seed + "-" + System.nanoTime();
    Faults faults = Faults.create();
    Map<String, String> catalogProperties = FaultInjectingCatalog.sharedInMemory(key, faults);
    try {
      return run(seed, key, random, faults, catalogProperties);
    } finally {
      FaultInjectingCatalog.dropShared(key);
      org.apache.storm.iceberg.testing.MemoryWalStoreFactory.drop(key);
    }
  }

  private Outcome run(long seed, String key, Random random, Faults faults, Map<String, String> catalogProperties) {
    Catalog catalog = org.apache.iceberg.CatalogUtil.buildIcebergCatalog("test", catalogProperties, new org.apache.hadoop.conf.Configuration());
    ((org.apache.iceberg.catalog.SupportsNamespaces) catalog).createNamespace(org.apache.iceberg.catalog.Namespace.of("db"));
    PartitionSpec spec = random.nextBoolean() ? PartitionSpec.unpartitioned() : TestTables.REGION_DAY;
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, spec,
        Map.of(TableProperties.COMMIT_NUM_RETRIES, "1", TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "1",
            TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "2", TableProperties.MANIFEST_MERGE_ENABLED, "false",
            TableProperties.METADATA_COMPRESSION, "none"));
    IcebergOptions options = new IcebergOptions.Builder()
        .withCatalogName("test").withCatalogProperties(catalogProperties).withTable("db.events")
        .withWalStore("test-memory", Map.of("space", key, "fault-key", faults.key))
        .withCommitIntervalRecords(2 + random.nextInt(8))
        .withCommitIntervalMillis(1_000)
        .withCommitRetries(2).withCommitRetryBackoffMillis(0)
        .build();

    int idCount = 10 + random.nextInt(25);
    Deque<Long> toSend = new ArrayDeque<>();
    for (long id = 0; id < idCount; id++) {
      toSend.add(id);
    }
    Set<Long> acked = new HashSet<>();
    Set<Long> replayed = new HashSet<>();
    // Ids replayed because their task crashed or their commit definitely failed: a duplicate is
    // allowed for these only. An ambiguous commit (lost answer) must never lead to a duplicate.
    Set<Long> duplicatesAllowed = new HashSet<>();
    List<Set<Long>> ackedBatches = new ArrayList<>();
    AtomicLong clock = new AtomicLong(1_000_000);
    Tuples tuples = new Tuples(TestTables.FIELDS);
    RecordingCollector recorder = new RecordingCollector();
    Map<Tuple, Long> inFlight = new HashMap<>();
    SinkTask sink = SinkTask.open(options, SinkTaskTest.TASK, recorder.collector(), clock::get);
    int steps = 0;
    int faultsArmed = 0;
    int crashes = 0;
    int downFor = 0;

    while ((acked.size() < idCount) && steps < 20_000) {
      steps++;
      int acksBefore = recorder.acked.size();
      int failsBefore = recorder.failed.size();
      int errorsBefore = recorder.errors.size();
      int roll = random.nextInt(100);
      if (downFor > 0 && --downFor == 0) {
        faults.clear();
      }
      boolean died = false;
      if (roll < 8 && downFor == 0) {
        faultsArmed++;
        downFor = armRandomFault(random, faults, recorder);
      } else if (roll < 10 && downFor == 0) {
        died = true;
      } else {
        try {
          if (roll < 20 || toSend.isEmpty()) {
            clock.addAndGet(random.nextInt(1_500));
            sink.execute(tuples.tick());
          } else {
            long id = toSend.poll();
            Tuple tuple = tuples.tuple(id, REGIONS[(int) (id % REGIONS.length)],
                java.time.Instant.ofEpochSecond(1_793_534_400L + 86_400L * (id % 3)), "p" + id);
            inFlight.put(tuple, id);
            sink.execute(tuple);
          }
        } catch (RecordingCollector.WorkerDied e) {
          died = true;
        }
      }
      if (died) {
        // The task dies: whatever it holds times out at the spout and replays; a new incarnation starts.
        sink.close();
        recordAcks(recorder, acksBefore, inFlight, acked, ackedBatches);
        for (Long id : inFlight.values()) {
          toSend.add(id);
          replayed.add(id);
          duplicatesAllowed.add(id);
        }
        inFlight.clear();
        sink = SinkTask.open(options, SinkTaskTest.TASK, recorder.collector(), clock::get);
        crashes++;
        continue;
      }
      recordAcks(recorder, acksBefore, inFlight, acked, ackedBatches);
      boolean ambiguous = recorder.errors.subList(errorsBefore, recorder.errors.size()).stream().anyMatch(RandomFaultSchedules::isLostAnswer);
      for (Tuple tuple : recorder.failed.subList(failsBefore, recorder.failed.size())) {
        Long id = inFlight.remove(tuple);
        if (id != null) {
          toSend.add(id);
          replayed.add(id);
          if (!ambiguous) {
            duplicatesAllowed.add(id);
          }
        }
      }
    }
    faults.clear();
    sink.close();
    // A last incarnation starts and settles whatever a crashed or unsettled one left.
    SinkTask.open(options, SinkTaskTest.TASK, recorder.collector(), clock::get).close();

    check(seed, table, idCount, acked, duplicatesAllowed, ackedBatches, key, faults);
    int snapshots = 0;
    for (Snapshot ignored : table.snapshots()) {
      snapshots++;
    }
    return new Outcome(seed, idCount, steps, faultsArmed, crashes, replayed.size(), snapshots);
  }

  /** The acks of one step are one batch: a task acks a whole batch at once. */
  private static void recordAcks(RecordingCollector recorder, int acksBefore, Map<Tuple, Long> inFlight, Set<Long> acked,
      List<Set<Long>> ackedBatches) {
    Set<Long> batch = new HashSet<>();
    for (Tuple tuple : recorder.acked.subList(acksBefore, recorder.acked.size())) {
      Long id = inFlight.remove(tuple);
      if (id != null) {
        batch.add(id);
        acked.add(id);
      }
    }
    if (!batch.isEmpty()) {
      ackedBatches.add(batch);
    }
  }

  /** Arms one fault at a named point; returns for how many steps the catalog stays down. */
  private static int armRandomFault(Random random, Faults faults, RecordingCollector recorder) {
    int point = random.nextInt(FAULTS.length + 6);
    if (point < FAULTS.length) {
      Faults.CommitFault fault = FAULTS[point];
      faults.inject(fault, 1 + random.nextInt(2));
      return fault == Faults.CommitFault.UNREACHABLE ? 1 + random.nextInt(6) : 0;
    }
    switch (point - FAULTS.length) {
      case 0 -> faults.dataFileWriteFailures.incrementAndGet();
      case 1 -> faults.dataFileCloseFailures.incrementAndGet();
      case 2 -> faults.walWriteFailuresBefore.incrementAndGet();
      case 3 -> faults.walWriteFailuresAfter.incrementAndGet();
      case 4 -> faults.walDeleteFailures.incrementAndGet();
      default -> recorder.dieOnNextAck.set(true);
    }
    return 0;
  }

  private static boolean isLostAnswer(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof org.apache.iceberg.exceptions.CommitStateUnknownException) {
        return true;
      }
    }
    return false;
  }

  private static void check(long seed, Table table, int idCount, Set<Long> acked, Set<Long> duplicatesAllowed,
      List<Set<Long>> ackedBatches, String walSpace, Faults faults) {
    String schedule = "schedule " + seed + ": ";
    if (acked.size() != idCount) {
      throw new AssertionError(schedule + "only " + acked.size() + " of " + idCount + " ids acked");
    }
    table.refresh();
    Map<Long, Integer> copies = new HashMap<>();
    Map<Long, Set<Long>> idsBySnapshot = new HashMap<>();
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
      Set<Long> ids = new HashSet<>();
      for (var dataFile : snapshot.addedDataFiles(table.io())) {
        try (CloseableIterable<Record> rows = org.apache.iceberg.parquet.Parquet.read(table.io().newInputFile(dataFile.location()))
            .project(table.schema()).createReaderFunc(s -> org.apache.iceberg.data.parquet.GenericParquetReaders.buildReader(table.schema(), s))
            .build()) {
          for (Record row : rows) {
            ids.add((Long) row.getField("id"));
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      long added = Long.parseLong(snapshot.summary().get("added-records"));
      if (added != ids.size()) {
        throw new AssertionError(schedule + "snapshot " + snapshot.snapshotId() + " adds " + added + " rows but " + ids.size() + " ids");
      }
      idsBySnapshot.put(snapshot.snapshotId(), ids);
      ids.forEach(id -> copies.merge(id, 1, Integer::sum));
    }
    if (rowsRead != copies.values().stream().mapToInt(Integer::intValue).sum()) {
      throw new AssertionError(schedule + "the table reads " + rowsRead + " rows, its snapshots added " + copies.size());
    }
    for (long id = 0; id < idCount; id++) {
      int n = copies.getOrDefault(id, 0);
      if (n == 0) {
        throw new AssertionError(schedule + "id " + id + " was acked but is not in the table");
      }
      if (n > 1 && !duplicatesAllowed.contains(id)) {
        throw new AssertionError(schedule + "id " + id + " is in the table " + n
            + " times but was never replayed after a crash or a definite commit failure");
      }
    }
    for (Set<Long> batch : ackedBatches) {
      boolean whole = idsBySnapshot.values().stream().anyMatch(ids -> ids.containsAll(batch));
      if (!whole) {
        throw new AssertionError(schedule + "acked batch " + batch + " is not whole in any one snapshot");
      }
    }
    if (faults.staleApplied.get() > 0) {
      throw new AssertionError(schedule + "a stale first attempt was applied after its retry");
    }
    if (!org.apache.storm.iceberg.testing.MemoryWalStoreFactory.entries(walSpace).isEmpty()) {
      throw new AssertionError(schedule + "WAL entries left after a last incarnation started: "
          + org.apache.storm.iceberg.testing.MemoryWalStoreFactory.entries(walSpace).keySet());
    }
  }
}
