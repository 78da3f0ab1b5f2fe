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

import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.batch.ByteEstimates;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.TupleMappingException;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.iceberg.kernel.ack.HeldTuples;
import org.apache.storm.iceberg.kernel.ack.Holders;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.TupleImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** IcebergBolt's task logic against real HadoopCatalog and JdbcCatalog (SQLite) tables. */
class SinkTaskTest {
  enum CatalogKind {
    HADOOP,
    JDBC_SQLITE
  }

  static final TaskIdentity TASK = new TaskIdentity("topology", "iceberg", 7, 0, 1);
  static final TableIdentifier EVENTS = TableIdentifier.of("db", "events");

  @TempDir Path dir;
  final AtomicLong clock = new AtomicLong(1_000_000);
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples tuples = new Tuples(TestTables.FIELDS);
  Map<String, String> catalogProperties;
  Catalog catalog;

  void start(CatalogKind kind) {
    catalogProperties =
        kind == CatalogKind.HADOOP ? TestCatalogs.hadoop(dir) : TestCatalogs.jdbcSqlite(dir);
    catalog = TestCatalogs.load(catalogProperties);
    if (catalog instanceof SupportsNamespaces) {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    }
  }

  Table createTable(PartitionSpec spec, Map<String, String> properties) {
    return catalog.createTable(EVENTS, TestTables.SCHEMA, spec, properties);
  }

  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.events");
  }

  SinkTask open(IcebergOptions options) {
    return SinkTasks.open(settings(options), TASK, recorder.collector(), clock::get);
  }

  void send(SinkTask sink, long fromId, long toIdExclusive) {
    for (long id = fromId; id < toIdExclusive; id++) {
      sink.execute(event(id, "eu", Instant.parse("2026-11-01T10:00:00Z")));
    }
  }

  org.apache.storm.tuple.Tuple event(long id, String region, Instant time) {
    return tuples.tuple(id, region, time, "payload-" + id);
  }

  static List<Long> range(long from, long toExclusive) {
    return LongStream.range(from, toExclusive).boxed().collect(Collectors.toList());
  }

  @Test
  void heldAckIdsSpillIntoTheConfiguredDirectoryAndTheFileGoesWithTheBatch() throws Exception {
    start(CatalogKind.HADOOP);
    createTable(PartitionSpec.unpartitioned(), Map.of());
    Path spill = Files.createDirectory(dir.resolve("spill"));
    SinkTask sink = open(options().withCommitIntervalRecords(1_000_000).withSpillDirectory(spill.toString()).build());
    // Tuples of their own, not Tuples': its registry would keep these 262,145 for the JVM's life.
    GeneralTopologyContext context =
        new GeneralTopologyContext(new StormTopology(), new HashMap<>(), Map.of(1, "events"), Map.of("events", List.of(1)),
            Map.of("events", Map.of("default", new Fields(TestTables.FIELDS))), "test-1");
    Instant time = Instant.parse("2026-11-01T10:00:00Z");
    for (long id = 0; id <= (long) Holders.COMPACT_TUPLES_ON_HEAP; id++) {
      sink.execute(new TupleImpl(context, List.of(id, "eu", time, "p"), "events", 1, "default", MessageId.makeRootId(id, id)));
    }

    try (var files = Files.list(spill)) {
      assertThat(files.map(file -> file.getFileName().toString())).singleElement().asString().startsWith("storm-iceberg-held-");
    }
    sink.close();
    try (var files = Files.list(spill)) {
      assertThat(files.toList()).as("the abandoned batch's spill file").isEmpty();
    }
  }

  @Test
  void aSpillDirectoryThatIsNotThereFailsTheTaskAtStartWithTheFix() {
    start(CatalogKind.HADOOP);
    createTable(PartitionSpec.unpartitioned(), Map.of());
    Path missing = dir.resolve("missing");
    IcebergOptions options = options().withSpillDirectory(missing.toString()).build();

    assertThatThrownBy(() -> open(options))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the spill directory for held ack ids, " + missing + ", is not a writable directory on this worker;"
            + " create it on every worker, or set withSpillDirectory to one that is (the default is the worker JVM's"
            + " java.io.tmpdir)");
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void batchIsCommittedInOneAppendAndAckedOnlyAfterIt(CatalogKind kind) {
    start(kind);
    Table table = createTable(PartitionSpec.unpartitioned(), Map.of());
    SinkTask sink = open(options().withCommitIntervalRecords(10).build());

    send(sink, 0, 9);
    assertThat(recorder.acked).isEmpty();
    assertThat(TestTables.snapshots(table)).isEmpty();

    send(sink, 9, 10);
    assertThat(recorder.ackedIds()).containsExactlyElementsOf(range(0, 10));
    assertThat(recorder.failed).isEmpty();
    List<Snapshot> snapshots = TestTables.snapshots(table);
    assertThat(snapshots).hasSize(1);
    assertThat(snapshots.get(0).operation()).isEqualTo("append");
    assertThat(snapshots.get(0).summary())
        .containsKey(IcebergOptions.COMMIT_ID_PROPERTY)
        .containsEntry("added-records", "10")
        .containsEntry("storm.iceberg.topology", "topology")
        .containsEntry("storm.iceberg.component", "iceberg");
    assertThat(TestTables.ids(table)).containsExactlyElementsOf(range(0, 10));
    assertThat(TestTables.walEntries(table)).isEmpty();
    sink.close();
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void withNoThresholdABatchClosesAtOneThousandRecords(CatalogKind kind) {
    start(kind);
    Table table = createTable(PartitionSpec.unpartitioned(), Map.of());
    SinkTask sink = open(options().build());

    send(sink, 0, 999);
    assertThat(recorder.acked).isEmpty();
    send(sink, 999, 1000);
    assertThat(recorder.acked).hasSize(1000);
    assertThat(TestTables.snapshots(table)).hasSize(1);
    sink.close();
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void bytesThresholdSealsOnceTheFilesHoldThatManyBytes(CatalogKind kind) {
    start(kind);
    Table table = createTable(PartitionSpec.unpartitioned(), Map.of());
    SinkTask sink = open(options().withCommitIntervalBytes(1536 * 1024).build());

    // 1 KiB payloads of random base64: 1.5 MiB is crossed after roughly 1,500 to 2,000 records (the
    // writer's estimate counts finished Parquet pages compressed), and the estimate is refreshed
    // more often as the batch nears it (LargeTuplesTest holds it to one record).
    int refresh = ByteEstimates.MAX_GAP_RECORDS;
    java.util.Random random = new java.util.Random(42);
    for (long id = 0; id < 4 * refresh && TestTables.snapshots(table).isEmpty(); id++) {
      byte[] bytes = new byte[768];
      random.nextBytes(bytes);
      sink.execute(tuples.tuple(id, "eu", null, java.util.Base64.getEncoder().encodeToString(bytes)));
    }
    List<Snapshot> snapshots = TestTables.snapshots(table);
    assertThat(snapshots).hasSize(1);
    long records = Long.parseLong(snapshots.get(0).summary().get("added-records"));
    assertThat(records).as("sealed soon after 1.5 MiB").isBetween(1_400L, 2_100L);
    assertThat(recorder.acked).hasSize((int) records);
    sink.close();
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void ageThresholdSealsOnATickAndOnATuple(CatalogKind kind) {
    start(kind);
    Table table = createTable(PartitionSpec.unpartitioned(), Map.of());
    SinkTask sink = open(options().withCommitIntervalMillis(5_000).build());

    send(sink, 0, 3);
    clock.addAndGet(4_999);
    sink.execute(tuples.tick());
    assertThat(recorder.acked).isEmpty();
    clock.addAndGet(1);
    sink.execute(tuples.tick());
    assertThat(recorder.ackedIds()).containsExactlyElementsOf(range(0, 3));
    assertThat(TestTables.snapshots(table)).hasSize(1);

    // A tick with nothing open commits nothing.
    clock.addAndGet(60_000);
    sink.execute(tuples.tick());
    assertThat(TestTables.snapshots(table)).hasSize(1);

    // Without tick tuples configured, age is also checked against the clock on every tuple.
    send(sink, 3, 4);
    clock.addAndGet(5_000);
    send(sink, 4, 5);
    assertThat(recorder.ackedIds()).containsExactlyElementsOf(range(0, 5));
    assertThat(TestTables.snapshots(table)).hasSize(2);
    sink.close();
  }

  @Test
  void withoutTicksATimeThresholdSealsOnTheFirstRecordAfterItPasses() {
    start(CatalogKind.HADOOP);
    Table table = createTable(PartitionSpec.unpartitioned(), Map.of());
    SealPolicy everyTenSeconds = (SealPolicy & java.io.Serializable) stats -> stats.ageMillis() >= 10_000;
    SinkTask sink = open(options().withCommitIntervalMillis(5_000).withSealPolicy(everyTenSeconds).build());

    send(sink, 0, 3);
    clock.addAndGet(5_000);
    send(sink, 3, 4);
    assertThat(recorder.ackedIds()).as("the age threshold").containsExactlyElementsOf(range(0, 4));
    sink.close();

    SinkTask plugInOnly = open(options().withSealPolicy(everyTenSeconds).build());
    send(plugInOnly, 4, 6);
    clock.addAndGet(10_000);
    send(plugInOnly, 6, 7);
    assertThat(recorder.ackedIds()).as("a plug-in policy on time").containsExactlyElementsOf(range(0, 7));
    assertThat(TestTables.snapshots(table)).hasSize(2);
    plugInOnly.close();
  }

  @Test
  void withTickTuplesATimeThresholdSealsWithinAFewRecordsOrOneTickOfPassing() {
    start(CatalogKind.HADOOP);
    Table table = createTable(PartitionSpec.unpartitioned(), Map.of());
    var env = TaskEnvironment.detached(TASK, recorder.collector(), clock::get);
    SinkTask sink =
        SinkTasks.open(
            settings(options().withCommitIntervalMillis(5_000).build()),
            new TaskEnvironment(env.task(), env.collector(), env.clock(), env.metrics(), Map.of(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 2)));

    send(sink, 0, 1);
    clock.addAndGet(5_000);
    long next = 1;
    while (TestTables.snapshots(table).isEmpty() && next <= SinkTask.RECORDS_PER_CLOCK_READ + 1) {
      send(sink, next, next + 1);
      next++;
    }
    assertThat(next - 1).as("records sent after the threshold passed until the batch sealed")
        .isBetween(1L, (long) SinkTask.RECORDS_PER_CLOCK_READ);
    assertThat(recorder.ackedIds()).containsExactlyElementsOf(range(0, next));

    send(sink, next, next + 1);
    clock.addAndGet(5_000);
    sink.execute(tuples.tick());
    assertThat(TestTables.snapshots(table)).as("a tick after the threshold seals at once").hasSize(2);
    assertThat(recorder.ackedIds()).containsExactlyElementsOf(range(0, next + 1));
    sink.close();
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void oneBatchSpanningManyPartitionsIsOneSnapshot(CatalogKind kind) {
    start(kind);
    Table table = createTable(TestTables.REGION_DAY, Map.of());
    SinkTask sink = open(options().withCommitIntervalRecords(200).build());

    String[] regions = {"eu", "us", "apac", "latam"};
    Instant day0 = Instant.parse("2026-11-01T12:00:00Z");
    for (long id = 0; id < 200; id++) {
      String region = regions[(int) (id % 4)];
      Instant time = day0.plusSeconds(86_400L * ((id / 4) % 5));
      sink.execute(event(id, region, time));
    }

    List<Snapshot> snapshots = TestTables.snapshots(table);
    assertThat(snapshots).hasSize(1);
    assertThat(snapshots.get(0).summary()).containsEntry("added-data-files", "20").containsEntry("changed-partition-count", "20");
    List<Record> rows = TestTables.rows(table);
    assertThat(rows).hasSize(200);
    Record row7 = rows.stream().filter(r -> (Long) r.getField("id") == 7L).findFirst().orElseThrow();
    assertThat(row7.getField("region")).isEqualTo("latam");
    assertThat(row7.getField("event_time"))
        .isEqualTo(OffsetDateTime.ofInstant(day0.plusSeconds(86_400L), ZoneOffset.UTC));
    sink.close();
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void autoCreateMakesAVersionTwoTableWithTheGivenSpec(CatalogKind kind) {
    start(kind);
    SinkTask sink =
        open(options().withCommitIntervalRecords(5).withAutoCreate(TestTables.SCHEMA, TestTables.REGION_DAY).build());
    send(sink, 0, 5);

    Table table = catalog.loadTable(EVENTS);
    assertThat(table.spec().fields()).extracting(f -> f.name()).containsExactly("region", "event_time_day");
    assertThat(org.apache.iceberg.TableUtil.formatVersion(table)).isEqualTo(2);
    assertThat(TestTables.ids(table)).containsExactlyElementsOf(range(0, 5));
    sink.close();
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void anExistingTableKeepsItsOwnSpecOverTheAutoCreateOne(CatalogKind kind) {
    start(kind);
    createTable(PartitionSpec.unpartitioned(), Map.of());
    SinkTask sink =
        open(options().withCommitIntervalRecords(5).withAutoCreate(TestTables.SCHEMA, TestTables.REGION_DAY).build());
    send(sink, 0, 5);
    Table table = catalog.loadTable(EVENTS);
    assertThat(table.spec().isUnpartitioned()).isTrue();
    assertThat(TestTables.ids(table)).hasSize(5);
    sink.close();
  }

  /** Appends go to tables of format versions 1 to 3; the row-level modes refuse version 1 ({@code RowLevelChangesTest}). */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"1", "3"})
  void tablesOfFormatVersionsOneAndThreeTakeAppends(String version) {
    start(CatalogKind.JDBC_SQLITE);
    createTable(PartitionSpec.unpartitioned(), Map.of(TableProperties.FORMAT_VERSION, version));
    SinkTask sink = open(options().withCommitIntervalRecords(5).build());
    send(sink, 0, 5);
    Table table = catalog.loadTable(EVENTS);
    assertThat(TestTables.ids(table)).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L);
    assertThat(org.apache.iceberg.TableUtil.formatVersion(table)).isEqualTo(Integer.parseInt(version));
    sink.close();
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void aColumnAddedFromOutsideIsPickedUpAtTheNextBatch(CatalogKind kind) {
    start(kind);
    createTable(PartitionSpec.unpartitioned(), Map.of());
    Tuples withNote = new Tuples("id", "region", "event_time", "payload", "note");
    SinkTask sink = open(options().withCommitIntervalRecords(2).build());
    sink.execute(withNote.tuple(1L, "eu", null, "p", "ignored: no such column yet"));
    sink.execute(withNote.tuple(2L, "eu", null, "p", "ignored: no such column yet"));

    Table outside = TestCatalogs.load(catalogProperties).loadTable(EVENTS);
    outside.updateSchema().addColumn("note", Types.StringType.get()).commit();

    sink.execute(withNote.tuple(3L, "eu", null, "p", "third"));
    sink.execute(withNote.tuple(4L, "eu", null, "p", "fourth"));
    List<Record> rows = TestTables.rows(catalog.loadTable(EVENTS));
    assertThat(rows).extracting(r -> r.getField("id") + "=" + r.getField("note"))
        .containsExactlyInAnyOrder("1=null", "2=null", "3=third", "4=fourth");
    assertThat(recorder.acked).hasSize(4);
    sink.close();
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void aSpecChangedFromOutsideIsWrittenAndCommittedFromTheNextBatch(CatalogKind kind) {
    start(kind);
    createTable(PartitionSpec.unpartitioned(), Map.of());
    SinkTask sink = open(options().withCommitIntervalRecords(2).build());
    send(sink, 1, 3);

    Table outside = TestCatalogs.load(catalogProperties).loadTable(EVENTS);
    outside.updateSpec().addField("region").commit();

    send(sink, 3, 5);
    Table table = catalog.loadTable(EVENTS);
    assertThat(TestTables.ids(table)).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
    assertThat(table.currentSnapshot().addedDataFiles(table.io())).extracting(DataFile::specId).containsOnly(1);
    assertThat(recorder.failed).isEmpty();
    assertThat(recorder.acked).hasSize(4);
    sink.close();
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void theTableWriteFormatIsHonoured(CatalogKind kind) {
    start(kind);
    for (FileFormat format : new FileFormat[] {FileFormat.ORC, FileFormat.AVRO, FileFormat.PARQUET}) {
      TableIdentifier id = TableIdentifier.of("db", "events_" + format.name().toLowerCase());
      Table table =
          catalog.createTable(
              id, TestTables.SCHEMA, PartitionSpec.unpartitioned(), Map.of(TableProperties.DEFAULT_FILE_FORMAT, format.name().toLowerCase()));
      SinkTask sink = open(options().withTable(id.toString()).withCommitIntervalRecords(3).build());
      send(sink, 0, 3);
      List<DataFile> files = new ArrayList<>();
      table.refresh();
      SnapshotChanges.builderFor(table).snapshot(table.currentSnapshot()).build().addedDataFiles().forEach(files::add);
      assertThat(files).extracting(DataFile::format).containsOnly(format);
      assertThat(TestTables.ids(table)).containsExactly(0L, 1L, 2L);
      sink.close();
    }
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void theTargetFileSizeRollsFilesWithinABatch(CatalogKind kind) {
    start(kind);
    // Iceberg's rolling writer checks the size every 1000 rows, so a 1-byte target gives
    // one file per 1000 rows.
    Table table = createTable(PartitionSpec.unpartitioned(), Map.of(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "1"));
    SinkTask sink = open(options().withCommitIntervalRecords(2500).build());
    send(sink, 0, 2500);
    assertThat(TestTables.snapshots(table)).hasSize(1);
    assertThat(table.currentSnapshot().summary()).containsEntry("added-data-files", "3");
    sink.close();
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void aTupleThatCannotBeMappedIsFailedWithAClearErrorAndTheBatchGoesOn(CatalogKind kind) {
    start(kind);
    Table table = createTable(PartitionSpec.unpartitioned(), Map.of());
    SinkTask sink = open(options().withCommitIntervalRecords(2).build());

    org.apache.storm.tuple.Tuple noId = tuples.tuple(null, "eu", null, "p");
    sink.execute(noId);
    assertThat(recorder.failed).containsExactly(noId);
    assertThat(recorder.errors).singleElement().isInstanceOf(TupleMappingException.class);
    assertThat(recorder.errors.get(0).getMessage())
        .contains("Cannot map tuple to table test.db.events")
        .contains("Cannot map tuple to table test.db.events: required column 'id' (long) has no value")
        .contains("component 'events'")
        .contains("[id, region, event_time, payload]");

    send(sink, 10, 12);
    assertThat(recorder.ackedIds()).containsExactly(10L, 11L);
    assertThat(TestTables.ids(table)).containsExactly(10L, 11L);
    sink.close();
  }

  /** A custom mapper that gets one tuple wrong: a Long where the day-partitioned timestamptz goes. */
  static final class SloppyMapper implements org.apache.storm.iceberg.spi.RecordMapper {
    @Override
    public Record map(org.apache.storm.tuple.ITuple tuple, org.apache.iceberg.Schema schema) {
      Record record = org.apache.iceberg.data.GenericRecord.create(schema);
      record.setField("id", tuple.getLongByField("id"));
      record.setField("region", "eu");
      record.setField(
          "event_time",
          tuple.getLongByField("id") == 3L ? (Object) 0L : OffsetDateTime.parse("2026-11-01T10:00:00Z"));
      return record;
    }
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void aRecordWhosePartitionCannotBeComputedFailsAloneAndTheBatchGoesOn(CatalogKind kind) {
    start(kind);
    Table table = createTable(TestTables.REGION_DAY, Map.of());
    SinkTask sink = open(options().withRecordMapper(new SloppyMapper()).withCommitIntervalRecords(4).build());

    send(sink, 0, 5);

    assertThat(recorder.failedIds()).containsExactly(3L);
    assertThat(recorder.errors).singleElement().satisfies(e -> assertThat(e.getMessage())
        .startsWith("Cannot map tuple to table test.db.events: column 'event_time' (timestamptz) takes"
            + " java.time.OffsetDateTime, got java.lang.Long: the file writer would refuse it"));
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 4L);
    assertThat(TestTables.ids(table)).containsExactly(0L, 1L, 2L, 4L);
    sink.close();
  }

  @ParameterizedTest
  @EnumSource(CatalogKind.class)
  void aWalEntryLeftByAPreviousIncarnationIsDroppedAtStartup(CatalogKind kind) {
    start(kind);
    Table table = createTable(PartitionSpec.unpartitioned(), Map.of());
    var store = ProviderRegistry.find(org.apache.storm.iceberg.spi.WalStoreFactory.class, "table-fileio", getClass().getClassLoader())
        .create(Map.of());
    var scope = new org.apache.storm.iceberg.spi.WalScope(table, "default", "topology", "iceberg", 0);
    store.put(scope, "stale-commit", DataFilesCodec.encode(new DataFilesCodec.Entry("stale-commit", table.name(), "iceberg", 0, 1L, List.of()), table.specs()));
    var otherTask = new org.apache.storm.iceberg.spi.WalScope(table, "default", "topology", "iceberg", 1);
    store.put(otherTask, "other-task-commit", DataFilesCodec.encode(new DataFilesCodec.Entry("other-task-commit", table.name(), "iceberg", 1, 1L, List.of()), table.specs()));
    assertThat(TestTables.walEntries(table)).hasSize(2);

    SinkTask sink = open(options().build());

    assertThat(store.list(scope)).isEmpty();
    assertThat(store.list(otherTask)).extracting(e -> e.commitId()).containsExactly("other-task-commit");
    sink.close();
  }
}
