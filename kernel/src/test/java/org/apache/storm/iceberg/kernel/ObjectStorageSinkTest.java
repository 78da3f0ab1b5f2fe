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

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.S3MockServer;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The sink on object storage: tables on an S3-compatible server ({@link S3MockServer}) written
 * through {@link S3FileIO}, behind a JdbcCatalog (quick tier) and the REST catalog (long tier). The
 * commit-failure suite runs on the same catalogs in the long tier ({@link CommitFailureTest}).
 */
class ObjectStorageSinkTest {
  static final TableIdentifier EVENTS = TableIdentifier.of("db", "events");

  @TempDir Path dir;
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples tuples = new Tuples(TestTables.FIELDS);
  final Faults faults = Faults.create();
  final AtomicLong clock = new AtomicLong(1_000_000);
  TestCatalogs.Running running;

  @AfterEach
  void stopCatalog() throws Exception {
    if (running != null) {
      running.close();
    }
  }

  Table startWithTable(TestCatalogs.Kind kind) throws Exception {
    if (kind == TestCatalogs.Kind.REST_ON_S3) {
      TestTiers.longTierOnly("the JdbcCatalog case runs the same sink on S3 in the quick tier");
    }
    running = TestCatalogs.start(kind, dir);
    Catalog catalog = TestCatalogs.load(running.properties());
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    return catalog.createTable(EVENTS, TestTables.SCHEMA, TestTables.REGION_DAY);
  }

  @ParameterizedTest
  @EnumSource(value = TestCatalogs.Kind.class, names = {"JDBC_SQLITE_ON_S3", "REST_ON_S3"})
  void aBatchIsWrittenToTheBucketCommittedThroughItsWalAndAcked(TestCatalogs.Kind kind) throws Exception {
    Table table = startWithTable(kind);
    IcebergOptions options = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(FaultInjectingCatalog.properties(running.properties(), faults))
        .withTable("db.events")
        .withCommitIntervalRecords(6)
        .build();
    // The sink's WAL entry, listed by prefix on S3 while the append commits.
    List<String> walDuringCommit = new CopyOnWriteArrayList<>();
    faults.duringCommit = () -> walDuringCommit.addAll(TestTables.walEntryLocations(table));
    SinkTask sink = SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector(), clock::get);

    Instant time = Instant.parse("2026-11-01T10:00:00Z");
    for (long id = 0; id < 6; id++) {
      sink.execute(tuples.tuple(id, id % 2 == 0 ? "eu" : "us", time, "p" + id));
    }

    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
    assertThat(recorder.failed).isEmpty();
    assertThat(table.io()).isInstanceOf(S3FileIO.class);
    Snapshot snapshot = TestTables.snapshots(table).get(0);
    assertThat(TestTables.snapshots(table)).hasSize(1);
    assertThat(snapshot.summary()).containsKey(IcebergOptions.COMMIT_ID_PROPERTY).containsEntry("added-data-files", "2");
    List<DataFile> added = new java.util.ArrayList<>();
    SnapshotChanges.builderFor(table).snapshot(snapshot).build().addedDataFiles().forEach(added::add);
    assertThat(added).extracting(DataFile::location)
        .allSatisfy(location -> assertThat(location).startsWith("s3://" + S3MockServer.BUCKET + "/"));
    assertThat(TestTables.ids(table)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
    assertThat(walDuringCommit).singleElement().satisfies(entry ->
        assertThat(entry).startsWith(table.location()).contains("/metadata/_storm_wal/"));
    assertThat(TestTables.walEntryLocations(table)).as("the WAL entry is deleted once the commit settles").isEmpty();
    assertThat(options.toString()).doesNotContain(S3MockServer.SECRET_ACCESS_KEY);
    sink.close();
  }

  /**
   * A task finds, by prefix listing on S3, the WAL entry an earlier incarnation of itself left,
   * settles it (its commit never landed) and deletes it, and leaves another task's entry alone.
   */
  @ParameterizedTest
  @EnumSource(value = TestCatalogs.Kind.class, names = {"JDBC_SQLITE_ON_S3", "REST_ON_S3"})
  void aWalEntryLeftOnS3ByAnEarlierIncarnationIsFoundAndDroppedAtStartup(TestCatalogs.Kind kind) throws Exception {
    Table table = startWithTable(kind);
    WalStore store = ProviderRegistry.find(WalStoreFactory.class, "table-fileio", getClass().getClassLoader()).create(Map.of());
    WalScope own = new WalScope(table, "default", SinkTaskTest.TASK.topology(), SinkTaskTest.TASK.component(), SinkTaskTest.TASK.taskIndex());
    WalScope otherTask = new WalScope(table, "default", SinkTaskTest.TASK.topology(), SinkTaskTest.TASK.component(), SinkTaskTest.TASK.taskIndex() + 1);
    store.put(own, "stale-commit", DataFilesCodec.encode(
        new DataFilesCodec.Entry("stale-commit", table.name(), own.component(), own.taskIndex(), 1L, List.of()), table.specs()));
    String othersEntry = store.put(otherTask, "other-task-commit", DataFilesCodec.encode(
        new DataFilesCodec.Entry("other-task-commit", table.name(), otherTask.component(), otherTask.taskIndex(), 1L, List.of()),
        table.specs()));
    assertThat(TestTables.walEntryLocations(table)).hasSize(2);

    IcebergOptions options = new IcebergOptions.Builder()
        .withCatalogName("test").withCatalogProperties(running.properties()).withTable("db.events").build();
    SinkTask sink = SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector(), clock::get);

    assertThat(TestTables.walEntryLocations(table)).containsExactly(othersEntry);
    assertThat(TestTables.snapshots(table)).as("an entry whose commit never landed is not committed at startup").isEmpty();
    sink.close();
  }
}
