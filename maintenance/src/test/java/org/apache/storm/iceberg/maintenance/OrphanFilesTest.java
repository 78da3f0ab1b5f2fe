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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.ReachableFileUtil;
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
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.iceberg.wal.HadoopFsWalStoreFactory;
import org.apache.storm.iceberg.wal.TableFileIoWalStoreFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Orphan-file removal on a real JDBC (SQLite) catalog with its default Hadoop FileIO, whose listing
 * spells locations {@code file:/...} where Iceberg wrote {@code file:///...}, after real sink-task
 * commits. Each safety rule has a case that fails when the rule is dropped.
 */
class OrphanFilesTest {
  static final String[] FIELDS = {"id", "region", "event_time", "payload", "topic", "partition", "offset"};
  static final Duration HOUR = Duration.ofHours(1);
  static final OrphanFiles.Settings DELETE_OLDER_THAN_AN_HOUR = new OrphanFiles.Settings(HOUR, false);

  @TempDir Path dir;
  final Tuples tuples = new Tuples(FIELDS);
  final AtomicLong clock = new AtomicLong(1_000_000);
  Map<String, String> catalogProperties;
  Table table;
  WalStore wal;
  long now;

  @BeforeEach
  void start() {
    catalogProperties = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    wal = new TableFileIoWalStoreFactory().create(Map.of());
    send(sink(), 0, 10);
    table.refresh();
    now = System.currentTimeMillis();
  }

  @AfterEach
  void forgetIdentities() {
    FieldPositions.IDENTITIES.clear();
  }

  SinkTask sink() {
    IcebergOptions options = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.events")
        .withCommitIntervalRecords(5)
        .withSourcePositions(new FieldPositions())
        .build();
    return SinkTasks.open(settings(options), new TaskIdentity("orders-v1", "iceberg", 7, 0, 1), new RecordingCollector().collector(), clock::get);
  }

  void send(SinkTask sink, long fromOffset, long toOffsetExclusive) {
    for (long offset = fromOffset; offset < toOffsetExclusive; offset++) {
      sink.execute(tuples.tuple(offset, "eu", null, "p" + offset, "events", 0, offset));
    }
  }

  /** A file under the table location, written through the table's FileIO, {@code age} old; its location as Iceberg spells it. */
  String file(String relative, Duration age) {
    String location = table.location() + "/" + relative;
    OutputFile out = table.io().newOutputFile(location);
    try (OutputStream stream = out.createOrOverwrite()) {
      stream.write("not referenced by anything".getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      Files.setLastModifiedTime(local(location), FileTime.fromMillis(now - age.toMillis()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return location;
  }

  static Path local(String location) {
    return Path.of(URI.create(location));
  }

  boolean exists(String location) {
    return Files.exists(local(location));
  }

  long rowCount(Table readFrom) {
    readFrom.refresh();
    long rows = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(readFrom).build()) {
      for (Record ignored : records) {
        rows++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  long filesOnDisk() {
    try (Stream<Path> files = Files.walk(local(table.location()))) {
      return files.filter(Files::isRegularFile).filter(file -> !file.getFileName().toString().endsWith(".crc")).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every location the table's metadata reaches, as Iceberg spells it. */
  List<String> reachable() {
    table.refresh();
    List<String> locations = new ArrayList<>(ReachableFileUtil.metadataFileLocations(table, false));
    for (Snapshot snapshot : table.snapshots()) {
      locations.add(snapshot.manifestListLocation());
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        locations.add(manifest.path());
      }
    }
    for (FileScanTask task : table.newScan().planFiles()) {
      locations.add(task.file().location());
    }
    return locations;
  }

  @Test
  void aTrueOrphanOlderThanTheMinimumAgeIsDeletedAndTheTableStillReadsBack() {
    assertThat(table.io()).isInstanceOf(SupportsPrefixOperations.class);
    String orphan = file("data/00000-orphan-of-a-failed-commit.parquet", Duration.ofHours(2));

    OrphanFiles.Result result = new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(table, now);

    assertThat(result.deleted()).singleElement().satisfies(deleted -> assertThat(local(deleted)).isEqualTo(local(orphan)));
    assertThat(exists(orphan)).isFalse();
    assertThat(result.filesListed()).isEqualTo(filesOnDisk() + 1);
    assertThat(rowCount(table)).isEqualTo(10);
  }

  @Test
  void aYoungOrphanSurvives() {
    String orphan = file("data/00001-still-being-written.parquet", Duration.ofMinutes(59));

    OrphanFiles.Result result = new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(table, now);

    assertThat(result.deleted()).isEmpty();
    assertThat(result.keptYoung()).hasSize(1);
    assertThat(exists(orphan)).isTrue();
  }

  /** A crashed task's WAL entry, in the kernel's own format, for a commit of {@code dataFileLocation}. */
  void pendingEntry(WalStore walStore, Table of, String dataFileLocation) {
    DataFile dataFile = DataFiles.builder(of.spec()).withPath(dataFileLocation).withFileSizeInBytes(26).withRecordCount(1)
        .withFormat(FileFormat.PARQUET).build();
    byte[] payload = DataFilesCodec.encode(
        new DataFilesCodec.Entry("commit-of-a-crashed-task", of.name(), "iceberg", 0, now, List.of(dataFile)), of.specs());
    walStore.put(new WalScope(of, "default", "orders-v1", "iceberg", 0), "commit-of-a-crashed-task", payload);
  }

  /** The data files of a commit not yet settled, named by its WAL entry in the kernel's own format. */
  @Test
  void aFileAPendingWalEntryNamesSurvives() {
    String pending = file("data/00002-of-a-commit-not-settled.parquet", Duration.ofHours(2));
    pendingEntry(wal, table, pending);

    OrphanFiles.Result result = new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(table, now);

    assertThat(result.deleted()).isEmpty();
    assertThat(result.keptForWal()).hasSize(1);
    assertThat(exists(pending)).isTrue();
    assertThat(TestTables.walEntryLocations(table)).as("the entry itself stays").hasSize(1);
  }

  @Test
  void aDryRunDeletesNothingButReportsWhatItWould() {
    String orphan = file("metadata/00003-abandoned.avro", Duration.ofHours(2));

    OrphanFiles.Result result = new OrphanFiles(new OrphanFiles.Settings(HOUR, true), wal).run(table, now);

    assertThat(result.dryRun()).isTrue();
    assertThat(result.deleted()).singleElement().satisfies(deleted -> assertThat(local(deleted)).isEqualTo(local(orphan)));
    assertThat(exists(orphan)).isTrue();
  }

  @Test
  void aListingThatFailsPartwayDeletesNothing() {
    String orphan = file("data/00004-orphan.parquet", Duration.ofHours(2));
    Table failing = withIo(table, new FailingListing(table.io(), "00004-orphan.parquet"));

    assertThatThrownBy(() -> new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(failing, now))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("listing broke off");
    assertThat(exists(orphan)).isTrue();
    assertThat(rowCount(table)).isEqualTo(10);
  }

  /**
   * A listing that breaks off (a file deleted while listed) is listed again, up to the last attempt,
   * and the run goes on with that one listing alone.
   */
  @Test
  void aListingThatBreaksOffIsListedAgain() {
    String orphan = file("data/00004-orphan.parquet", Duration.ofHours(2));
    Table failingOnce = withIo(table, new FailingListing(table.io(), "00004-orphan.parquet", OrphanFiles.LISTING_ATTEMPTS - 1));

    OrphanFiles.Result result = new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(failingOnce, now);

    assertThat(result.deleted()).singleElement().satisfies(deleted -> assertThat(local(deleted)).isEqualTo(local(orphan)));
    assertThat(exists(orphan)).isFalse();
    assertThat(result.filesListed()).as("the last listing's files, not the broken ones' as well").isEqualTo(filesOnDisk() + 1);
    assertThat(rowCount(table)).isEqualTo(10);
  }

  /**
   * A FileIO that cannot list by prefix, with the WAL on a Hadoop file system as such a table needs:
   * Hadoop's file system lists the table location, and the same rules decide what goes.
   */
  @Test
  void withoutPrefixListingHadoopListsTheTableAndOnlyTheTrueOrphanGoes() {
    String orphan = file("data/00010-orphan.parquet", Duration.ofHours(2));
    String youngOrphan = file("data/00011-still-being-written.parquet", Duration.ofMinutes(59));
    String pending = file("data/00012-of-a-commit-not-settled.parquet", Duration.ofHours(2));
    WalStore hadoopWal = new HadoopFsWalStoreFactory().create(Map.of("path", dir.resolve("wal").toUri().toString()));
    Table unlisted = withIo(table, new PlainIo(table.io()));
    pendingEntry(hadoopWal, unlisted, pending);
    List<String> reachable = reachable();

    OrphanFiles.Result result = new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, hadoopWal).run(unlisted, now);

    assertThat(result.deleted()).singleElement().satisfies(deleted -> assertThat(local(deleted)).isEqualTo(local(orphan)));
    assertThat(exists(orphan)).isFalse();
    assertThat(result.keptYoung()).singleElement().satisfies(kept -> assertThat(local(kept)).isEqualTo(local(youngOrphan)));
    assertThat(result.keptForWal()).singleElement().satisfies(kept -> assertThat(local(kept)).isEqualTo(local(pending)));
    assertThat(exists(youngOrphan)).isTrue();
    assertThat(exists(pending)).isTrue();
    assertThat(result.filesListed()).isEqualTo(filesOnDisk() + 1);
    assertThat(reachable).allSatisfy(location -> assertThat(exists(location)).as(location).isTrue());
    assertThat(rowCount(table)).isEqualTo(10);
  }

  @Test
  void aHadoopListingThatFailsPartwayDeletesNothing() {
    String orphan = file("data/00013-orphan.parquet", Duration.ofHours(2));
    WalStore hadoopWal = new HadoopFsWalStoreFactory().create(Map.of("path", dir.resolve("wal").toUri().toString()));
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
    conf.set("fs.file.impl", BrokenListingFileSystem.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    Table unlisted = withIo(table, new ConfiguredPlainIo(table.io(), conf));

    assertThatThrownBy(() -> new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, hadoopWal).run(unlisted, now))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageStartingWith("Cannot list file:")
        .hasMessageEndingWith(" with Hadoop's file system")
        .hasRootCauseMessage("listing broke off after 00013-orphan.parquet");
    assertThat(exists(orphan)).isTrue();
    assertThat(rowCount(table)).isEqualTo(10);
  }

  /** Hadoop is on the class path, but has no file system for the location's scheme. */
  @Test
  void aFileIoThatCannotListOnASchemeHadoopCannotListIsRefused() {
    org.apache.iceberg.inmemory.InMemoryCatalog catalog = new org.apache.iceberg.inmemory.InMemoryCatalog();
    catalog.initialize("memory", Map.of("warehouse", "nohadoopfs://warehouse"));
    catalog.createNamespace(Namespace.of("db"));
    Table inMemory = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    String orphan = inMemory.location() + "/data/00005-orphan.parquet";
    ((org.apache.iceberg.inmemory.InMemoryFileIO) inMemory.io()).addFile(orphan, new byte[] {1});

    assertThatThrownBy(() -> new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(inMemory, now + Duration.ofDays(1).toMillis()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot remove orphan files of memory.db.events: its FileIO org.apache.iceberg.inmemory.InMemoryFileIO"
            + " cannot list by prefix (SupportsPrefixOperations) and Hadoop has no file system for"
            + " nohadoopfs://warehouse/db/events (No FileSystem for scheme \"nohadoopfs\"), so the files under its location"
            + " cannot be found; use a FileIO that lists (HadoopFileIO, S3FileIO, ResolvingFileIO do), or put Hadoop's"
            + " client and a Hadoop FileSystem for the location's scheme on the class path");
    assertThat(((org.apache.iceberg.inmemory.InMemoryFileIO) inMemory.io()).fileExists(orphan)).isTrue();
  }

  @Test
  void aFileIoThatCannotListWithoutHadoopIsRefused() {
    Table unlisted = withIo(table, new PlainIo(table.io()));

    assertThatThrownBy(() -> TableFileListing.of(unlisted, false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Cannot remove orphan files of test.db.events: its FileIO " + PlainIo.class.getName()
            + " cannot list by prefix (SupportsPrefixOperations) and Hadoop is not on the class path, so the files");
  }

  @Test
  void aWalEntryThatIsNotJsonDeletesNothingAndSaysWhy() {
    String orphan = file("data/00006-orphan.parquet", Duration.ofHours(2));
    wal.put(new WalScope(table, "default", "orders-v1", "preflight", 0), "a-probe-left-behind",
        "storm-iceberg preflight probe".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(table, now))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Cannot remove orphan files of test.db.events: the payload of WAL entry ")
        .hasMessageContaining("a-probe-left-behind")
        .hasMessageContaining(" is not JSON (Unrecognized token 'storm'")
        .hasMessageEndingWith("), so the files it names cannot be told; settle or remove the entry first");
    assertThat(exists(orphan)).isTrue();
  }

  /** A preflight probe whose delete failed: the kernel's probe payload, under the probe's own scope. */
  @Test
  void aProbeThePreflightLeftBehindIsPassedOverWithAWarning() {
    String orphan = file("data/00014-orphan.parquet", Duration.ofHours(2));
    wal.put(new WalScope(table, "default", WalScope.PREFLIGHT_TOPOLOGY, WalScope.PREFLIGHT_COMPONENT, 0),
        "preflight-left-behind", "storm-iceberg preflight probe".getBytes(StandardCharsets.UTF_8));

    OrphanFiles.Result result;
    try (LogCapture logs = new LogCapture()) {
      result = new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(table, now);

      assertThat(logs.lines).anySatisfy(line -> assertThat(line)
          .startsWith("WARN Orphan files of test.db.events: WAL entry file:/")
          .endsWith("/metadata/_storm_wal/default/storm-iceberg-preflight/preflight/0/preflight-left-behind.json is a probe"
              + " the preflight check left behind (its payload is not JSON and names no file); it is passed over, delete it"
              + " by hand"));
    }
    assertThat(result.deleted()).singleElement().satisfies(deleted -> assertThat(local(deleted)).isEqualTo(local(orphan)));
    assertThat(exists(orphan)).isFalse();
    assertThat(TestTables.walEntryLocations(table)).as("the probe stays for the operator").hasSize(1);
  }

  /** The probe's topology, but another component: not the probe's scope, so its payload must be JSON. */
  @Test
  void aNonJsonEntryBesideTheProbesScopeStillDeletesNothing() {
    String orphan = file("data/00015-orphan.parquet", Duration.ofHours(2));
    wal.put(new WalScope(table, "default", WalScope.PREFLIGHT_TOPOLOGY, "iceberg", 0), "not-a-probe",
        "storm-iceberg preflight probe".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(table, now))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not-a-probe")
        .hasMessageContaining(" is not JSON (Unrecognized token 'storm'");
    assertThat(exists(orphan)).isTrue();
  }

  @Test
  void aWalStoreThatCannotListDeletesNothingAndSaysWhy() {
    String orphan = file("data/00007-orphan.parquet", Duration.ofHours(2));
    WalStore unlisted = new NonListingWalStore();

    assertThatThrownBy(() -> new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, unlisted).run(table, now))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Cannot remove orphan files of test.db.events: its WAL store")
        .hasMessageEndingWith("use a WAL store that lists (the default, table FileIO, does)");
    assertThat(exists(orphan)).isTrue();
  }

  /**
   * Several sink commits, snapshots expired without their files deleted and a short metadata log:
   * the expired manifest lists and the metadata files that fell off the log go; everything the table
   * reaches stays.
   */
  @Test
  void everyReachableFileSurvivesARunWithAMinimumAgeOfOneMillisecond() {
    table.updateProperties().set(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "2").commit();
    send(sink(), 10, 40);
    table.refresh();
    List<String> metadataBefore = List.copyOf(ReachableFileUtil.metadataFileLocations(table, false));
    Map<Long, String> manifestLists = new HashMap<>();
    table.snapshots().forEach(snapshot -> manifestLists.put(snapshot.snapshotId(), snapshot.manifestListLocation()));
    SnapshotExpiry.Result expired = new SnapshotExpiry(new SnapshotExpiry.Settings(Duration.ZERO, 2, false, Set.of()), wal)
        .run(table, System.currentTimeMillis() + 1, false);
    assertThat(expired.expiredSnapshotIds()).hasSizeGreaterThanOrEqualTo(4);
    List<String> reachable = reachable();

    OrphanFiles.Result result = new OrphanFiles(new OrphanFiles.Settings(Duration.ofMillis(1), false), wal)
        .run(table, System.currentTimeMillis() + 1_000);

    assertThat(reachable).allSatisfy(location -> assertThat(exists(location)).as(location).isTrue());
    assertThat(result.deleted()).as("the expired snapshots' manifest lists and the metadata files off the log")
        .hasSizeGreaterThanOrEqualTo(expired.expiredSnapshotIds().size())
        .allSatisfy(deleted -> assertThat(deleted).contains("/metadata/"));
    assertThat(expired.expiredSnapshotIds()).allSatisfy(id -> assertThat(exists(manifestLists.get(id))).isFalse());
    assertThat(metadataBefore).anySatisfy(location -> assertThat(exists(location)).isFalse());
    assertThat(result.keptYoung()).isEmpty();
    assertThat(rowCount(table)).isEqualTo(40);
    assertThat(TestTables.ids(table)).hasSize(40);
  }

  /** Iceberg wrote {@code file:/...}; a listing that spells {@code file:///...} names the same files. */
  @Test
  void aListingThatSpellsLocationsOtherwiseStillKeepsEveryReachableFile() {
    send(sink(), 10, 20);
    String orphan = file("data/00008-orphan.parquet", Duration.ofHours(2));
    List<String> reachable = reachable();
    assertThat(reachable).allSatisfy(location -> assertThat(location).startsWith("file:/").doesNotStartWith("file:///"));
    Table respelled = withIo(table, new RespelledListing(table.io(), location -> location.replace("file:/", "file:///")));

    OrphanFiles.Result result = new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(respelled, now + HOUR.toMillis());

    assertThat(result.deleted()).singleElement().satisfies(deleted -> {
      assertThat(deleted).startsWith("file:///");
      assertThat(local(deleted)).isEqualTo(local(orphan));
    });
    assertThat(exists(orphan)).isFalse();
    assertThat(reachable).allSatisfy(location -> assertThat(exists(location)).as(location).isTrue());
    assertThat(rowCount(table)).isEqualTo(20);
  }

  /** A listing that names files otherwise than by their location (here relative keys) could match none of the table's. */
  @Test
  void aListingOfFilesOutsideTheTableLocationDeletesNothing() {
    String orphan = file("data/00009-orphan.parquet", Duration.ofHours(2));
    Table relative = withIo(table, new RespelledListing(table.io(), location -> location.substring(location.indexOf("/db/events/") + 1)));

    assertThatThrownBy(() -> new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(relative, now + HOUR.toMillis()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Cannot remove orphan files of test.db.events: listing ")
        .hasMessageContaining(" gave db/events/")
        .hasMessageEndingWith(", which is not under the table location, so listed files cannot be matched to the table's;"
            + " nothing is deleted");
    assertThat(exists(orphan)).isTrue();
    assertThat(rowCount(table)).isEqualTo(10);
  }

  /**
   * The metadata names a file under the table's path in bucket-a (registered from there), while the
   * FileIO lists bucket-b: matching by path would take bucket-b's files for the table's. Nothing is
   * deleted, and the error and its WARN say which file systems disagree and what to check; the same
   * run over a listing that names no other authority deletes the orphan.
   */
  @Test
  void aListingUnderAnotherAuthorityThanTheMetadataDeletesNothingAndSaysWhy() {
    String orphan = file("data/00015-orphan.parquet", Duration.ofHours(2));
    String registered = "file://bucket-a" + OrphanFiles.Location.of(table.location()).path() + "/data/00016-registered.parquet";
    table.newAppend().appendFile(DataFiles.builder(table.spec()).withPath(registered).withFileSizeInBytes(26).withRecordCount(1)
        .withFormat(FileFormat.PARQUET).build()).commit();
    Table otherBucket = withIo(table, new RespelledListing(table.io(), location -> location.replace("file:/", "file://bucket-b/")));
    long onDisk = filesOnDisk();

    try (LogCapture logs = new LogCapture()) {
      assertThatThrownBy(() -> new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(otherBucket, now))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("Cannot remove orphan files of test.db.events: the table's metadata and the listing of its"
              + " location name different file systems (authorities [bucket-a, bucket-b]): the table's metadata names " + registered
              + ", but the listing gave file://bucket-b/")
          .hasMessageEndingWith(". Files cannot be matched by path across file systems, so nothing is deleted. Check that the"
              + " catalog's FileIO (io-impl, its endpoint, bucket or access-point settings, fs.defaultFS) lists the bucket or name"
              + " node the table's metadata names, and whether the table or some of its files were copied, moved or registered"
              + " from another one");
      assertThat(logs.lines).anySatisfy(line -> assertThat(line)
          .startsWith("WARN Cannot remove orphan files of test.db.events: the table's metadata and the listing"));
    }
    assertThat(exists(orphan)).isTrue();
    assertThat(filesOnDisk()).isEqualTo(onDisk);

    OrphanFiles.Result sameBucket = new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(table, now);
    assertThat(sameBucket.deleted()).singleElement().satisfies(deleted -> assertThat(local(deleted)).isEqualTo(local(orphan)));
  }

  /** A FileIO that lists the table's files under another scheme than its metadata's: nothing is deleted. */
  @Test
  void aListingUnderAnotherSchemeDeletesNothing() {
    String orphan = file("data/00017-orphan.parquet", Duration.ofHours(2));
    Table otherScheme = withIo(table, new RespelledListing(table.io(), location -> location.replace("file:/", "hdfs://nn/")));

    assertThatThrownBy(() -> new OrphanFiles(DELETE_OLDER_THAN_AN_HOUR, wal).run(otherScheme, now))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("name different file systems (schemes [file, hdfs]): the table location is file:/")
        .hasMessageContaining(", but the listing gave hdfs://nn/");
    assertThat(exists(orphan)).isTrue();
    assertThat(rowCount(table)).isEqualTo(10);
  }

  @Test
  void schemeAliasesAndAMissingAuthorityNameOneFileSystemAndAnotherBucketDoesNot() {
    OrphanFiles.Location table = OrphanFiles.Location.of("s3://bucket-a/db/events");
    List<OrphanFiles.Location> reachable = List.of(OrphanFiles.Location.of("s3://bucket-a/db/events/data/a.parquet"),
        OrphanFiles.Location.of("s3://lake/external/b.parquet"));
    assertThat(OrphanFiles.fileSystemDisagreement(table, reachable,
        List.of("s3a://bucket-a/db/events/data/a.parquet", "s3n://bucket-a/db/events/data/c.parquet"))).isNull();
    assertThat(OrphanFiles.fileSystemDisagreement(OrphanFiles.Location.of("hdfs:///w/t"),
        List.of(OrphanFiles.Location.of("hdfs:/w/t/data/a.parquet")), List.of("hdfs://nn:8020/w/t/data/a.parquet"))).isNull();
    assertThat(OrphanFiles.fileSystemDisagreement(table, reachable, List.of("s3a://bucket-b/db/events/data/a.parquet")))
        .isEqualTo("the table's metadata and the listing of its location name different file systems (authorities [bucket-a,"
            + " bucket-b]): the table location is s3://bucket-a/db/events, but the listing gave s3a://bucket-b/db/events/data/a.parquet");
    assertThat(OrphanFiles.fileSystemDisagreement(OrphanFiles.Location.of("s3://bucket-b/db/events"),
        List.of(OrphanFiles.Location.of("s3://bucket-a/db/events/data/a.parquet")), List.of("s3://bucket-b/db/events/data/a.parquet")))
        .as("a reachable file under the table's path in another bucket").contains("authorities [bucket-b, bucket-a]");
  }

  @Test
  void locationsAreComparedWithSchemeAliasesAndEmptyAuthoritiesFolded() {
    assertThat(OrphanFiles.Location.of("s3a://bucket/db/events/data/a.parquet"))
        .isEqualTo(OrphanFiles.Location.of("s3://bucket/db/events/data/a.parquet"))
        .isEqualTo(OrphanFiles.Location.of("S3N://bucket/db/events//data/a.parquet"));
    assertThat(OrphanFiles.Location.of("file:/tmp/t/data/a.parquet"))
        .isEqualTo(OrphanFiles.Location.of("file:///tmp/t/data/a.parquet"));
    assertThat(OrphanFiles.Location.of("hdfs://nn:8020/t/a").sameFileSystem(OrphanFiles.Location.of("hdfs://other/t/a"))).isFalse();
    assertThat(OrphanFiles.Location.of("/t/a").sameFileSystem(OrphanFiles.Location.of("hdfs://nn/t/a"))).isTrue();
  }

  @Test
  void aMinimumAgeThatIsNotPositiveIsRefusedWithTheFix() {
    assertThatThrownBy(() -> new OrphanFiles.Settings(Duration.ZERO, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("orphan-file min age PT0S is not positive: give the age a file must reach before it may be deleted,"
            + " longer than any writer holds a file it has not committed, e.g. PT72H");
    assertThatThrownBy(() -> new OrphanFiles.Settings(Duration.ofHours(-1), true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("orphan-file min age PT-1H is not positive");
  }

  /** The table over the same metadata, seen through {@code io}. */
  static Table withIo(Table table, FileIO io) {
    return new ForwardingOperations(table) {
      @Override
      public FileIO io() {
        return io;
      }
    }.table(table);
  }

  /** A FileIO that only reads, writes and deletes. */
  static class PlainIo implements FileIO {
    final FileIO delegate;

    PlainIo(FileIO delegate) {
      this.delegate = delegate;
    }

    @Override
    public InputFile newInputFile(String path) {
      return delegate.newInputFile(path);
    }

    @Override
    public InputFile newInputFile(String path, long length) {
      return delegate.newInputFile(path, length);
    }

    @Override
    public OutputFile newOutputFile(String path) {
      return delegate.newOutputFile(path);
    }

    @Override
    public void deleteFile(String path) {
      delegate.deleteFile(path);
    }
  }

  /** A FileIO that cannot list, whose Hadoop configuration is {@code conf}. */
  static final class ConfiguredPlainIo extends PlainIo implements org.apache.hadoop.conf.Configurable {
    org.apache.hadoop.conf.Configuration conf;

    ConfiguredPlainIo(FileIO delegate, org.apache.hadoop.conf.Configuration conf) {
      super(delegate);
      this.conf = conf;
    }

    @Override
    public void setConf(org.apache.hadoop.conf.Configuration conf) {
      this.conf = conf;
    }

    @Override
    public org.apache.hadoop.conf.Configuration getConf() {
      return conf;
    }
  }

  /** Hadoop's local file system, whose recursive listing throws just after a file named {@code *-orphan.parquet}. */
  public static final class BrokenListingFileSystem extends org.apache.hadoop.fs.LocalFileSystem {
    @Override
    public org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> listFiles(
        org.apache.hadoop.fs.Path path, boolean recursive) throws IOException {
      org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files = super.listFiles(path, recursive);
      return new org.apache.hadoop.fs.RemoteIterator<>() {
        String brokenAfter;

        @Override
        public boolean hasNext() throws IOException {
          if (brokenAfter != null) {
            throw new IOException("listing broke off after " + brokenAfter);
          }
          return files.hasNext();
        }

        @Override
        public org.apache.hadoop.fs.LocatedFileStatus next() throws IOException {
          org.apache.hadoop.fs.LocatedFileStatus file = files.next();
          if (file.getPath().getName().endsWith("-orphan.parquet")) {
            brokenAfter = file.getPath().getName();
          }
          return file;
        }
      };
    }
  }

  /** Lists every file under another spelling of its location. */
  static final class RespelledListing extends PlainIo implements SupportsPrefixOperations {
    final UnaryOperator<String> respell;

    RespelledListing(FileIO delegate, UnaryOperator<String> respell) {
      super(delegate);
      this.respell = respell;
    }

    @Override
    public Iterable<FileInfo> listPrefix(String prefix) {
      List<FileInfo> respelled = new ArrayList<>();
      for (FileInfo file : ((SupportsPrefixOperations) delegate).listPrefix(prefix)) {
        respelled.add(new FileInfo(respell.apply(file.location()), file.size(), file.createdAtMillis()));
      }
      return respelled;
    }

    @Override
    public void deletePrefix(String prefix) {
      throw new UnsupportedOperationException("never needed");
    }
  }

  /**
   * Lists the table's files until just after {@code breakAfter}, then throws, the first {@code
   * failures} times; lists the WAL as it is.
   */
  static final class FailingListing extends PlainIo implements SupportsPrefixOperations {
    final String breakAfter;
    int failures;

    FailingListing(FileIO delegate, String breakAfter) {
      this(delegate, breakAfter, Integer.MAX_VALUE);
    }

    FailingListing(FileIO delegate, String breakAfter, int failures) {
      super(delegate);
      this.breakAfter = breakAfter;
      this.failures = failures;
    }

    @Override
    public Iterable<FileInfo> listPrefix(String prefix) {
      Iterable<FileInfo> listed = ((SupportsPrefixOperations) delegate).listPrefix(prefix);
      if (prefix.contains(OrphanFiles.WAL_DIRECTORY) || failures-- <= 0) {
        return listed;
      }
      return () -> new Iterator<>() {
        final Iterator<FileInfo> files = listed.iterator();
        boolean broken;

        @Override
        public boolean hasNext() {
          if (broken) {
            throw new UncheckedIOException(new IOException("listing broke off after " + breakAfter));
          }
          return files.hasNext();
        }

        @Override
        public FileInfo next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          FileInfo file = files.next();
          broken = file.location().endsWith(breakAfter);
          return file;
        }
      };
    }

    @Override
    public void deletePrefix(String prefix) {
      throw new UnsupportedOperationException("never needed");
    }
  }
}
