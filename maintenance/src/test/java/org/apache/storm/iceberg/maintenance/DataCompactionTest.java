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

package org.apache.storm.iceberg.maintenance;

import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.WriteMode;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.spi.SinkSnapshotKeys;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.RestCatalogServer;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.iceberg.wal.TableFileIoWalStoreFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compaction of tables a real sink task writes in upsert mode (equality deletes), on format versions
 * 2 and 3, on a JDBC catalog and (the races) on Iceberg's REST catalog server: after it the table reads back equal to a model of the source, with
 * fewer files; when the sink commits updates while a compaction is between plan and commit, the
 * compaction still commits and the sink's updates still win; when another engine deletes a row by
 * position (a v2 position-delete file, a v3 deletion vector) meanwhile, the group holding that row is
 * refused and rewritten by the next run; and deletes by position left pointing at rewritten files are removed.
 */
class DataCompactionTest {
  static final Schema SCHEMA = new Schema(
      List.of(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "region", Types.StringType.get()),
          Types.NestedField.optional(3, "payload", Types.StringType.get())),
      Set.of(1));
  static final String[] FIELDS = {"id", "region", "payload", "op", "topic", "partition", "offset"};
  static final Map<String, String> SMALL_FILES = Map.of("min-input-files", "2");

  @TempDir Path dir;
  /** The branch the sink writes, or null for main. */
  String sinkBranch;
  final AtomicLong clock = new AtomicLong(1_000_000);
  final Tuples tuples = new Tuples(FIELDS);
  final Map<Long, String> model = new TreeMap<>();
  Map<String, String> catalogProperties;
  Table table;
  SinkTask sink;
  long nextOffset;

  RestCatalogServer rest;

  @AfterEach
  void forgetIdentities() throws Exception {
    FieldPositions.IDENTITIES.clear();
    if (rest != null) {
      rest.close();
    }
  }

  void start(int formatVersion) throws Exception {
    start("jdbc", formatVersion);
  }

  /** A table in {@code catalog}: "jdbc" (SQLite) or "rest" (Iceberg's REST catalog server, in-process on 127.0.0.1). */
  void start(String catalog, int formatVersion) throws Exception {
    if (catalog.equals("rest")) {
      rest = new RestCatalogServer(dir.resolve("rest"));
      catalogProperties = rest.clientProperties();
    } else {
      catalogProperties = TestCatalogs.jdbcSqlite(dir);
    }
    start(catalogProperties, formatVersion);
  }

  private void start(Map<String, String> catalogProperties, int formatVersion) {
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "accounts"), SCHEMA, PartitionSpec.builderFor(SCHEMA).bucket("id", 2).build(),
        Map.of(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion)));
    IcebergOptions.Builder options = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.accounts")
        .withCommitIntervalRecords(4)
        .withWriteMode(WriteMode.UPSERT)
        .withChangeFields("op", null)
        .withSourcePositions(new FieldPositions());
    if (sinkBranch != null) {
      table.manageSnapshots().createBranch(sinkBranch).commit();
      options.withBranch(sinkBranch);
    }
    sink = SinkTasks.open(settings(options.build()), new TaskIdentity("accounts", "iceberg", 7, 0, 1), new RecordingCollector().collector(), clock::get);
  }

  /** Upserts {@code ids}, each to a payload naming {@code round}, in batches of four; the model follows. */
  void upsert(String round, long... ids) {
    for (long id : ids) {
      String payload = round + "-" + id;
      sink.execute(tuples.tuple(id, "eu", payload, "u", "accounts", 0, nextOffset++));
      model.put(id, payload);
    }
  }

  Map<Long, String> rows() {
    return rows("main");
  }

  Map<Long, String> rows(String branch) {
    table.refresh();
    Map<Long, String> rows = new TreeMap<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).useSnapshot(table.snapshot(branch).snapshotId()).build()) {
      for (Record record : records) {
        assertThat(rows.put((Long) record.getField("id"), (String) record.getField("payload"))).as("key %s twice", record.getField("id")).isNull();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  int dataFiles() {
    return dataFiles("main");
  }

  int dataFiles(String branch) {
    table.refresh();
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().useRef(branch).planFiles()) {
      for (FileScanTask ignored : tasks) {
        files++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /** The data files of main's head. */
  Set<String> dataFileLocations() {
    table.refresh();
    Set<String> files = new java.util.HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> files.add(task.file().location()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /** The live delete files of main's head, whether or not any data file still needs them. */
  Set<String> deleteFileLocations() {
    table.refresh();
    Set<String> files = new java.util.HashSet<>();
    for (ManifestFile manifest : table.currentSnapshot().deleteManifests(table.io())) {
      try (ManifestReader<DeleteFile> deletes = ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        deletes.forEach(delete -> files.add(delete.location()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files;
  }

  /**
   * A sink writing a branch: the pass compacts the branch its options name and leaves main as it
   * was; it skips the manifest rewrite, which Iceberg commits to main only.
   */
  @Test
  void aPassCompactsTheBranchItsOptionsNameAndLeavesMainAlone() throws Exception {
    sinkBranch = "audit";
    start(2);
    for (int round = 0; round < 4; round++) {
      upsert("r" + round, 1, 2, 3, 4, 5, 6, 7, 8);
    }
    // Main gets small files and manifests of its own (the branch's files, one append each), so that a
    // compaction or a manifest rewrite that went to main would show.
    table.refresh();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().useRef("audit").planFiles()) {
      for (FileScanTask task : tasks) {
        table.newFastAppend().appendFile(task.file()).commit();
      }
    }
    table.refresh();
    long mainHead = table.currentSnapshot().snapshotId();
    int mainFiles = dataFiles("main");
    long branchHead = table.snapshot("audit").snapshotId();
    int before = dataFiles("audit");
    MaintenanceOptions options = new MaintenanceOptions.Builder()
        .withCatalogProperties(catalogProperties)
        .withCompaction(true, SMALL_FILES)
        .withExpiry(false)
        .withManifestRewrite(true, 1)
        .withOrphanRemoval(false, Duration.ofDays(3), Duration.ofDays(1))
        .withLease(false, Duration.ofSeconds(30))
        .withBranch("audit")
        .build();

    MaintenancePass.Result result = new MaintenancePass(options, new TableFileIoWalStoreFactory().create(Map.of()))
        .run(table, clock.get());

    assertThat(result.failures()).isZero();
    table.refresh();
    assertThat(table.snapshot("audit").snapshotId()).as("the branch was compacted").isNotEqualTo(branchHead);
    assertThat(dataFiles("audit")).as("data files on the branch (%s before)", before).isLessThanOrEqualTo(2).isLessThan(before);
    assertThat(rows("audit")).isEqualTo(model);
    assertThat(table.currentSnapshot().snapshotId()).as("main untouched: no compaction, no manifest rewrite").isEqualTo(mainHead);
    assertThat(dataFiles("main")).isEqualTo(mainFiles).isGreaterThan(2);
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void compactionLeavesTheModelsRowsInFewerFiles(int formatVersion) throws Exception {
    start(formatVersion);
    for (int round = 0; round < 6; round++) {
      upsert("r" + round, 1, 2, 3, 4, 5, 6, 7, 8);
    }
    assertThat(rows()).isEqualTo(model);
    int before = dataFiles();

    DataCompaction.Result result = new DataCompaction(SMALL_FILES).run(table, "main");

    assertThat(result.groupsCommitted()).isEqualTo(result.groupsPlanned()).isPositive();
    assertThat(rows()).isEqualTo(model);
    assertThat(dataFiles()).as("data files after compaction (%s before)", before).isLessThanOrEqualTo(2).isLessThan(before);
    assertThat(result.deleteFilesRemoved()).as("the equality deletes the compaction absorbed").isPositive();
    assertThat(table.currentSnapshot().summary()).containsEntry(DataCompaction.SUMMARY_KEY, "dangling-deletes")
        .containsEntry("total-delete-files", "0");
  }

  /**
   * What compaction writes with: Iceberg's generic writers in the table's {@code write.format.default}
   * and write properties as they stand when it runs (not the format the sink wrote, nor the sink's
   * own provider). Here the sink wrote Parquet with column metrics; the table was then switched to
   * Avro without metrics, and every file the compaction adds is Avro without bounds.
   */
  @Test
  void compactedFilesTakeTheTablesCurrentFormatAndWriteProperties() throws Exception {
    start(2);
    for (int round = 0; round < 4; round++) {
      upsert("r" + round, 1, 2, 3, 4);
    }
    table.refresh();
    long before = table.currentSnapshot().snapshotId();
    assertThat(table.currentSnapshot().addedDataFiles(table.io())).allSatisfy(file -> {
      assertThat(file.format()).isEqualTo(FileFormat.PARQUET);
      assertThat(file.lowerBounds()).isNotEmpty();
    });
    table.updateProperties()
        .set(TableProperties.DEFAULT_FILE_FORMAT, "avro")
        .set(TableProperties.DEFAULT_WRITE_METRICS_MODE, "none")
        .commit();

    DataCompaction.Result result = new DataCompaction(SMALL_FILES).run(table, "main");

    assertThat(result.filesAdded()).isPositive();
    assertThat(rows()).isEqualTo(model);
    List<DataFile> added = new java.util.ArrayList<>();
    for (Snapshot snapshot : SnapshotUtil.ancestorsBetween(table, table.currentSnapshot().snapshotId(), before)) {
      snapshot.addedDataFiles(table.io()).forEach(added::add);
    }
    assertThat(added).hasSize(result.filesAdded()).allSatisfy(file -> {
      assertThat(file.format()).isEqualTo(FileFormat.AVRO);
      assertThat(file.lowerBounds()).as("no column metrics: write.metadata.metrics.default=none").isNullOrEmpty();
    });
  }

  /**
   * The race the sink must always win: the sink commits updates of the very keys a compaction is
   * rewriting, after the compaction planned and wrote and before it commits. Its equality deletes
   * must still reach the compacted rows (starting sequence number), so the compaction commits and
   * the newest values are what the table holds.
   */
  @ParameterizedTest(name = "{0}, format v{1}")
  @CsvSource({"jdbc, 2", "jdbc, 3", "rest, 2", "rest, 3"})
  void theSinksUpdatesCommittedDuringACompactionStillWin(String catalog, int formatVersion) throws Exception {
    start(catalog, formatVersion);
    for (int round = 0; round < 4; round++) {
      upsert("r" + round, 1, 2, 3, 4);
    }
    table.refresh();
    Table compacting = withCommitHook(table, () -> upsert("during-compaction", 1, 2, 3, 4));

    DataCompaction.Result result = new DataCompaction(SMALL_FILES).run(compacting, "main");

    assertThat(rows()).isEqualTo(model).containsEntry(1L, "during-compaction-1");
    assertThat(result.groupsCommitted()).as("groups committed of %s", result.groupsPlanned()).isEqualTo(result.groupsPlanned()).isPositive();
    List<String> since = new java.util.ArrayList<>();
    for (Snapshot snapshot : SnapshotUtil.ancestorsBetween(table, table.currentSnapshot().snapshotId(), result.startingSnapshotId())) {
      since.add(0, snapshot.summary().getOrDefault(DataCompaction.SUMMARY_KEY, "sink"));
    }
    assertThat(since).as("the sink's commit landed first, then each group's, then the dangling deletes' removal")
        .startsWith("sink").endsWith("dangling-deletes").filteredOn("compaction"::equals).hasSize(result.groupsCommitted());
    assertThat(table.currentSnapshot().summary().get("total-delete-files")).as("the sink's newer deletes stay: they apply")
        .isNotEqualTo("0");
  }

  /**
   * The race with a delete by position: after the compaction planned, the sink commits updates and
   * another engine deletes a row of a file the compaction is rewriting, by a deletion vector (v3) or
   * a position-delete file (v2). A position does not follow its row into a new file, so Iceberg's
   * validation refuses that group's commit and the group is dropped with its files; the other group
   * commits. The next run plans the refused group again, now with the delete applied, and commits it;
   * the delete, dangling once its file is rewritten away, is removed. The rows are the model's throughout.
   */
  @ParameterizedTest(name = "{0}, format v{1}")
  @CsvSource({"jdbc, 2", "jdbc, 3", "rest, 2", "rest, 3"})
  void aDeleteByPositionDuringACompactionRefusesItsGroupAndTheNextRunRewritesIt(String catalog, int formatVersion) throws Exception {
    start(catalog, formatVersion);
    for (int round = 0; round < 4; round++) {
      upsert("r" + round, 1, 2, 3, 4);
    }
    table.refresh();
    AtomicReference<PositionDeletes.Written> deleted = new AtomicReference<>();
    Table compacting = withCommitHook(table, () -> {
      upsert("during-compaction", 1, 2, 5, 6);
      deleted.set(PositionDeletes.deleteRow(table, "id", 3L));
      model.remove(3L);
    });

    DataCompaction.Result first = new DataCompaction(SMALL_FILES).run(compacting, "main");

    assertThat(rows()).isEqualTo(model).doesNotContainKey(3L).containsEntry(1L, "during-compaction-1");
    assertThat(deleted.get().deleteFile().format()).isEqualTo(formatVersion >= 3 ? FileFormat.PUFFIN : FileFormat.PARQUET);
    assertThat(first.groupsAbandoned()).as("groups refused of %s planned", first.groupsPlanned()).isEqualTo(1);
    assertThat(first.groupsCommitted()).isEqualTo(first.groupsPlanned() - 1);
    assertThat(dataFileLocations()).as("the refused group's files are still the table's").contains(deleted.get().dataFile());
    assertThat(deleteFileLocations()).contains(deleted.get().deleteFile().location());

    DataCompaction.Result next = new DataCompaction(SMALL_FILES).run(table, "main");

    assertThat(rows()).isEqualTo(model);
    assertThat(next.groupsCommitted()).isEqualTo(next.groupsPlanned()).isPositive();
    assertThat(dataFileLocations()).as("the refused group was rewritten").doesNotContain(deleted.get().dataFile());
    assertThat(deleteFileLocations()).as("the position delete, dangling after the rewrite, is removed")
        .doesNotContain(deleted.get().deleteFile().location());
  }

  /**
   * Deletes by position whose data file a compaction rewrites away: after the pass none is left, each
   * removed exactly once, and the rows stay the model's. On v3 Iceberg's rewrite commit itself drops
   * the deletion vector of each data file it removes (a DV belongs to one file). On v2 the
   * position-delete file is removed either by that commit too (Iceberg drops deletes older than every
   * data file of the table) or, when not, by the pass's dangling-deletes commit.
   */
  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aPassLeavesNoPositionDeleteWhoseDataFileItRewroteAway(int formatVersion) throws Exception {
    start(formatVersion);
    for (int round = 0; round < 4; round++) {
      upsert("r" + round, 1, 2, 3, 4);
    }
    PositionDeletes.Written deleted = PositionDeletes.deleteRow(table, "id", 3L);
    model.remove(3L);
    assertThat(rows()).isEqualTo(model);
    long before = table.currentSnapshot().snapshotId();

    MaintenancePass.Result result = compactionPass().run(table, clock.get());

    assertThat(result.failures()).isZero();
    assertThat(rows()).isEqualTo(model);
    assertThat(dataFileLocations()).doesNotContain(deleted.dataFile());
    assertThat(deleteFileLocations()).as("live delete files after the pass").isEmpty();
    List<String> removedBy = removedBy(deleted.deleteFile(), before);
    assertThat(removedBy).as("the commits that removed the position delete").hasSize(1).isSubsetOf("compaction", "dangling-deletes");
    if (formatVersion >= 3) {
      assertThat(removedBy).containsExactly("compaction");
    }
  }

  /**
   * A dangling delete by position: a position-delete file (v2) or a deletion vector (v3) written
   * against a data file that a compaction then rewrote away, committed without validation (as an
   * engine that skips {@code validateDataFilesExist} would), applies to nothing. The next maintenance
   * pass removes it in its dangling-deletes commit, and the rows stay the model's. The pass compacts
   * only the other partition, so every data file of the delete's partition stays older than it and
   * Iceberg's own commit does not drop it: only the dangling-deletes removal can.
   */
  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aPassRemovesADeleteByPositionWhoseDataFileWasRewrittenAway(int formatVersion) throws Exception {
    start(formatVersion);
    for (int round = 0; round < 4; round++) {
      upsert("r" + round, 1, 2, 3, 4);
    }
    PositionDeletes.Written late = PositionDeletes.write(table, "id", 3L);
    assertThat(new DataCompaction(SMALL_FILES).run(table, "main").groupsCommitted()).isPositive();
    late.commitUnvalidated();
    assertThat(deleteFileLocations()).contains(late.deleteFile().location());
    assertThat(dataFileLocations()).doesNotContain(late.dataFile());
    long[] otherPartition = LongStream.range(100, 200).filter(id -> bucket(id) != bucket(3L)).limit(4).toArray();
    for (int round = 0; round < 2; round++) {
      upsert("after-" + round, otherPartition);
    }
    assertThat(rows()).as("the late delete applies to no live file").isEqualTo(model).containsKey(3L);
    long before = table.currentSnapshot().snapshotId();

    MaintenancePass.Result result = compactionPass().run(table, clock.get());

    assertThat(result.failures()).isZero();
    assertThat(result.compaction().groupsCommitted()).isEqualTo(1);
    assertThat(rows()).isEqualTo(model);
    assertThat(deleteFileLocations()).as("live delete files after the pass").doesNotContain(late.deleteFile().location());
    assertThat(removedBy(late.deleteFile(), before)).as("the commits that removed the late delete").containsExactly("dangling-deletes");
  }

  static int bucket(long id) {
    return Transforms.bucket(2).<Long>bind(Types.LongType.get()).apply(id);
  }

  /** A maintenance pass that compacts main and does nothing else. */
  MaintenancePass compactionPass() {
    MaintenanceOptions options = new MaintenanceOptions.Builder()
        .withCatalogProperties(catalogProperties)
        .withCompaction(true, SMALL_FILES)
        .withExpiry(false)
        .withManifestRewrite(false, 1)
        .withOrphanRemoval(false, Duration.ofDays(3), Duration.ofDays(1))
        .withLease(false, Duration.ofSeconds(30))
        .build();
    return new MaintenancePass(options, new TableFileIoWalStoreFactory().create(Map.of()));
  }

  /** What removed {@code delete} from main after snapshot {@code since}: each commit's maintenance kind, "sink" for others. */
  List<String> removedBy(DeleteFile delete, long since) {
    table.refresh();
    List<String> removedBy = new java.util.ArrayList<>();
    for (Snapshot snapshot : SnapshotUtil.ancestorsBetween(table, table.currentSnapshot().snapshotId(), since)) {
      for (DeleteFile removed : snapshot.removedDeleteFiles(table.io())) {
        if (removed.location().equals(delete.location())) {
          removedBy.add(snapshot.summary().getOrDefault(DataCompaction.SUMMARY_KEY, "sink"));
        }
      }
    }
    return removedBy;
  }

  /**
   * Expiry during a compaction: between the compaction's plan and its commit, the sink commits,
   * another writer commits after it (so the sink's token is not the head, which {@code retainLast(1)}
   * would keep anyway), and expiry removes every snapshot it may (the compaction's starting snapshot
   * among them). Whatever the compaction then does, commit or drop its groups, the table holds the
   * model's rows, and the sink's token survives: without the guard ({@link SinkTokens}) it is expired.
   */
  @ParameterizedTest(name = "{0}, format v{1}")
  @CsvSource({"jdbc, 2", "jdbc, 3", "rest, 2", "rest, 3"})
  void expiryDuringACompactionLosesNoRowAndKeepsTheToken(String catalog, int formatVersion) throws Exception {
    start(catalog, formatVersion);
    for (int round = 0; round < 4; round++) {
      upsert("r" + round, 1, 2, 3, 4);
    }
    table.refresh();
    SnapshotExpiry expiry = new SnapshotExpiry(new SnapshotExpiry.Settings(Duration.ZERO, 1, true, Set.of()),
        new TableFileIoWalStoreFactory().create(Map.of()));
    AtomicReference<SnapshotExpiry.Result> expired = new AtomicReference<>();
    Table compacting = withCommitHook(table, () -> {
      upsert("during-compaction", 1, 2, 3, 4);
      table.refresh();
      table.newFastAppend().set("writer", "another-job").commit();
      table.refresh();
      expired.set(expiry.run(table, System.currentTimeMillis() + 1, false));
    });

    DataCompaction.Result result = new DataCompaction(SMALL_FILES).run(compacting, "main");

    assertThat(rows()).isEqualTo(model).containsEntry(1L, "during-compaction-1");
    assertThat(result.groupsCommitted() + result.groupsAbandoned()).isEqualTo(result.groupsPlanned()).isPositive();
    table.refresh();
    Snapshot token = null;
    for (Snapshot snapshot : TestTables.snapshots(table)) {
      if (snapshot.summary().containsKey(SinkSnapshotKeys.SOURCE_POSITIONS)) {
        token = snapshot;
      }
    }
    assertThat(token).as("the sink's token survived").isNotNull();
    assertThat(token.summary().get(SinkSnapshotKeys.SOURCE_POSITIONS)).endsWith("=0-19");
    assertThat(expired.get().expiredSnapshotIds()).as("expiry ran and expired the compaction's starting snapshot")
        .contains(result.startingSnapshotId());
    assertThat(expired.get().tokenKept()).as("the guard held expiry back for the sink's token").isTrue();
  }

  /** The table, its commits preceded, once, by {@code beforeFirstCommit}. */
  static Table withCommitHook(Table table, Runnable beforeFirstCommit) {
    return new ForwardingOperations(table) {
      boolean ran;

      @Override
      public void commit(TableMetadata base, TableMetadata metadata) {
        if (!ran) {
          ran = true;
          beforeFirstCommit.run();
        }
        real.commit(base, metadata);
      }

      @Override
      public LocationProvider locationProvider() {
        return LocationProviders.locationsFor(current().location(), current().properties());
      }
    }.table(table);
  }
}
