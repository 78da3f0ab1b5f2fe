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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
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
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.WriteMode;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.Faults.CommitFault;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The row-level write modes on real catalogs, checked as a user would: the table read back through
 * Iceberg's generic reader (equality deletes applied) equals a model of the source, row for row.
 * A truth table of one key's changes, then seeded random change streams with replays and commit
 * faults, on format versions 2 and 3 and in every file format.
 */
class RowLevelChangesTest {
  static final Schema SCHEMA = new Schema(
      List.of(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "region", Types.StringType.get()),
          Types.NestedField.optional(3, "payload", Types.StringType.get())),
      java.util.Set.of(1));
  static final String[] FIELDS = {"id", "region", "payload", "op", "seq", "topic", "partition", "offset"};
  static final TableIdentifier ID = TableIdentifier.of("db", "accounts");
  /** Threads running seeded runs side by side ({@code -Drow-level.threads=N}). */
  static final int RUN_THREADS = Integer.getInteger("row-level.threads", 2);

  @TempDir Path dir;
  final AtomicLong clock = new AtomicLong(1_000_000);
  final Tuples tuples = new Tuples(FIELDS);
  final Faults faults = withoutDataFileFaults(Faults.create());
  Map<String, String> catalogProperties;
  Table table;
  long nextOffset;
  /** The seeded runs' {@code withMaxHeldChangeKeys}; 0 for the default (never reached by their few keys). */
  int maxHeldKeys;

  /** These tests fail commits only, so data files go to the writers as the real FileIO made them. */
  static Faults withoutDataFileFaults(Faults faults) {
    faults.dataFileFaults = false;
    return faults;
  }

  @AfterEach
  void forgetIdentities() {
    FieldPositions.IDENTITIES.clear();
  }

  void createTable(int formatVersion, PartitionSpec spec) {
    createTable(formatVersion, spec, TestCatalogs.jdbcSqlite(dir));
  }

  void createTable(int formatVersion, PartitionSpec spec, Map<String, String> real) {
    Catalog catalog = TestCatalogs.load(real);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    // Iceberg's default retries (4) are kept, so ten refusals still outlast them; its default waits
    // (100 ms, doubling) only made a refused batch sleep 1.5 s per attempt.
    table = catalog.createTable(ID, SCHEMA, spec, Map.of(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion),
        TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "1", TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "2"));
    catalogProperties = FaultInjectingCatalog.properties(real, faults);
  }

  IcebergOptions.Builder options(WriteMode mode, int batch) {
    IcebergOptions.Builder options = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.accounts")
        .withCommitIntervalRecords(batch)
        .withCommitRetryBackoffMillis(10)
        .withWriteMode(mode)
        .withSourcePositions(new FieldPositions());
    return mode == WriteMode.CHANGELOG ? options.withChangeFields("op", "seq") : options.withChangeFields("op", null);
  }

  final com.codahale.metrics.MetricRegistry registry = new com.codahale.metrics.MetricRegistry();

  SinkTask open(IcebergOptions options, RecordingCollector recorder) {
    TaskIdentity task = new TaskIdentity("accounts", "iceberg", 7, 0, 1);
    return SinkTasks.open(settings(options), new org.apache.storm.iceberg.kernel.env.TaskEnvironment(task,
        recorder.collector(), clock::get, org.apache.storm.iceberg.kernel.metrics.SinkMetrics.detached(registry, clock::get),
        Map.of()));
  }

  long counter(String name) {
    return registry.counter(name).getCount();
  }

  /** A change of key {@code id} at the next offset of partition 0, its sequence number {@code seq}. */
  Tuple change(String op, long id, String payload, long seq) {
    long offset = nextOffset++;
    return tuples.tuple(id, "eu", payload, op, seq, "accounts", 0, offset);
  }

  /** Offsets of each partition, for the split runs' changes. */
  final long[] nextOffsets = new long[2];

  /** A change at the next offset of {@code partition}. */
  Tuple change(String op, long id, String payload, long seq, int partition) {
    return tuples.tuple(id, "eu", payload, op, seq, "accounts", partition, nextOffsets[partition]++);
  }

  /** The table read back with every delete applied: id to payload. */
  Map<Long, String> rows() {
    table.refresh();
    Map<Long, String> rows = new TreeMap<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        String previous = rows.put((Long) record.getField("id"), (String) record.getField("payload"));
        assertThat(previous).as("key %s twice in the table", record.getField("id")).isNull();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  Snapshot current() {
    table.refresh();
    return table.currentSnapshot();
  }

  static String summary(Snapshot snapshot, String key) {
    return snapshot.summary().getOrDefault(key, "0");
  }

  // ---- the truth table: one key's changes within a batch and across batches

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', value = {
      // name | changes (op:payload:seq, one batch) | expected payload of key 1 (- for none) | eq deletes | data files
      "insert, update, delete                | c:a:1 u:b:2 d:-:3       | -  | 1 | 0",
      "delete of a key never written         | d:-:1                   | -  | 1 | 0",
      "update-before without an after-image  | I:a:1 UPDATE_BEFORE:a:2 | -  | 1 | 0",
      "the same sequence twice: last wins    | c:a:1 u:b:2 u:c:2       | c  | 1 | 1",
      "before- and after-image at one seq    | UPDATE_AFTER:b:2 UPDATE_BEFORE:a:2 | b | 1 | 1",
      "out of order: the higher seq wins     | u:new:9 u:old:3         | new | 1 | 1",
      "delete then re-insert                 | c:a:1 d:-:2 r:b:3       | b  | 1 | 1",
  })
  void oneKeysChangesInOneBatchCollapseToItsFinalState(String name, String changes, String expected, long eqDeletes,
      long dataFiles) {
    createTable(2, PartitionSpec.unpartitioned());
    String[] steps = changes.trim().split(" +");
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options(WriteMode.CHANGELOG, steps.length).build(), recorder);
    for (String step : steps) {
      String[] parts = step.split(":");
      sink.execute(change(parts[0], 1, parts[1].equals("-") ? null : parts[1], Long.parseLong(parts[2])));
    }

    assertThat(recorder.failedIds()).isEmpty();
    assertThat(rows()).isEqualTo(expected.equals("-") ? Map.of() : Map.of(1L, expected));
    Snapshot snapshot = current();
    assertThat(summary(snapshot, "added-equality-deletes")).as("one key-only equality delete").isEqualTo(String.valueOf(eqDeletes));
    assertThat(summary(snapshot, "added-data-files")).isEqualTo(String.valueOf(dataFiles));
    assertThat(summary(snapshot, "added-records")).as("a superseded row is never written").isEqualTo(String.valueOf(dataFiles));
    assertThat(summary(snapshot, "added-position-deletes")).isEqualTo("0");
  }

  @ParameterizedTest
  @CsvSource({"2", "3"})
  void changesAcrossBatchesReplaceAndRemoveRowsOfEarlierCommits(int formatVersion) {
    createTable(formatVersion, PartitionSpec.builderFor(SCHEMA).bucket("id", 4).build());
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options(WriteMode.CHANGELOG, 2).build(), recorder);
    sink.execute(change("c", 1, "a", 1));
    sink.execute(change("c", 2, "x", 2));
    assertThat(rows()).isEqualTo(Map.of(1L, "a", 2L, "x"));
    sink.execute(change("u", 1, "b", 3));
    sink.execute(change("d", 2, null, 4));
    assertThat(rows()).isEqualTo(Map.of(1L, "b"));
    Snapshot second = current();
    assertThat(second.operation()).isEqualTo("overwrite");
    assertThat(summary(second, "added-equality-deletes")).isEqualTo("2");
    assertThat(summary(second, "added-position-deletes")).as("no position deletes, no deletion vectors").isEqualTo("0");
    assertThat(second.summary()).containsKey("storm.iceberg.commit-id").containsKey("storm.iceberg.source-positions");
    sink.execute(change("d", 1, null, 5));
    sink.execute(change("c", 2, "y", 6));
    assertThat(rows()).isEqualTo(Map.of(2L, "y"));
    assertThat(recorder.failedIds()).isEmpty();
    assertThat(counter("iceberg-fields-unmatched"))
        .as("the operation and sequence fields are read by the sink: only topic, partition and offset go unwritten")
        .isEqualTo(3);
  }

  @Test
  void upsertModeReplacesEachKeysRowDeletesOnADeleteAndDropsUpdateBeforeImages() {
    createTable(3, PartitionSpec.unpartitioned());
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options(WriteMode.UPSERT, 3).build(), recorder);
    sink.execute(change("c", 1, "a", 0));
    sink.execute(change("c", 2, "b", 0));
    sink.execute(change("c", 1, "a2", 0));
    assertThat(rows()).isEqualTo(Map.of(1L, "a2", 2L, "b"));
    sink.execute(change("UPDATE_BEFORE", 1, "a2", 0));
    sink.execute(change("d", 2, null, 0));
    sink.execute(change("u", 3, "c", 0));
    assertThat(rows()).isEqualTo(Map.of(1L, "a2", 3L, "c"));
    assertThat(recorder.ackedIds()).hasSize(6);
    assertThat(counter("iceberg-update-before-dropped")).isEqualTo(1);
    assertThat(counter("iceberg-equality-deletes-committed")).as("one per key a batch changed: 1, 2; then 2, 3").isEqualTo(4);
    assertThat(counter("iceberg-delete-files-committed")).isEqualTo(2);
  }

  /**
   * A partition spec changed from outside while a task writes changes: the task keeps writing its
   * rows and deletes under the spec it started with (a delete under the new spec could not reach the
   * rows of the old one), counts the change once and says what to do.
   */
  @Test
  void aSpecChangedFromOutsideIsCountedAndTheTaskKeepsWritingUnderTheSpecItStartedWith() throws Exception {
    createTable(2, PartitionSpec.unpartitioned());
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options(WriteMode.CHANGELOG, 2).build(), recorder);
    try (org.apache.storm.iceberg.testing.LogCapture log = new org.apache.storm.iceberg.testing.LogCapture()) {
      sink.execute(change("c", 1, "a", 1));
      sink.execute(change("c", 2, "b", 2));
      assertThat(rows()).isEqualTo(Map.of(1L, "a", 2L, "b"));

      table.updateSpec().addField(org.apache.iceberg.expressions.Expressions.bucket("id", 4)).commit();
      sink.execute(change("u", 1, "a2", 3));
      sink.execute(change("d", 2, null, 4));
      assertThat(rows()).as("the update and the delete reached the rows written before the change").isEqualTo(Map.of(1L, "a2"));
      Snapshot last = current();
      List<Integer> specs = new ArrayList<>();
      last.addedDataFiles(table.io()).forEach(file -> specs.add(file.specId()));
      last.addedDeleteFiles(table.io()).forEach(file -> specs.add(file.specId()));
      assertThat(specs).as("the spec of each file the batch added").isNotEmpty().containsOnly(0);

      sink.execute(change("c", 3, "c", 5));
      sink.execute(change("u", 1, "a3", 6));
      assertThat(rows()).isEqualTo(Map.of(1L, "a3", 3L, "c"));
      assertThat(counter("iceberg-spec-changes")).as("counted once").isEqualTo(1);
      assertThat(log.lines.stream().filter(line -> line.contains("The partition spec of test.db.accounts changed to spec 1")))
          .singleElement().asString().contains("it keeps writing under spec 0");
    }
    assertThat(recorder.failedIds()).isEmpty();
    sink.close();
  }

  /** The same, for a batch that streams past its held keys: its files too are named and written under the pinned spec. */
  @Test
  void aStreamingBatchAfterASpecChangeStillWritesUnderTheSpecItStartedWith() {
    createTable(3, PartitionSpec.builderFor(SCHEMA).bucket("id", 4).build());
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options(WriteMode.CHANGELOG, 4).withMaxHeldChangeKeys(1).build(), recorder);
    sink.execute(change("c", 1, "a", 1));
    sink.execute(change("c", 2, "b", 2));
    sink.execute(change("c", 3, "c", 3));
    sink.execute(change("c", 4, "d", 4));
    table.updateSpec().addField("region").commit();

    sink.execute(change("u", 1, "a2", 5));
    sink.execute(change("d", 2, null, 6));
    sink.execute(change("c", 5, "e", 7));
    sink.execute(change("u", 5, "e2", 8));
    assertThat(recorder.failedIds()).isEmpty();
    assertThat(rows()).isEqualTo(Map.of(1L, "a2", 3L, "c", 4L, "d", 5L, "e2"));
    Snapshot last = current();
    assertThat(last.summary()).containsKey("added-dvs");
    List<Integer> specs = new ArrayList<>();
    last.addedDataFiles(table.io()).forEach(file -> specs.add(file.specId()));
    last.addedDeleteFiles(table.io()).forEach(file -> specs.add(file.specId()));
    assertThat(specs).isNotEmpty().containsOnly(0);
    sink.close();
  }

  /**
   * With schema evolution on, a change whose tuple brings a new field adds the column, and one whose
   * key no longer fits the key column widens it (int to long): the open batch commits first, under the
   * old schema, and the next batches delete by the widened key. The table read back equals the model
   * after every batch.
   */
  @Test
  void schemaEvolutionAddsAColumnAndWidensTheKeyBetweenBatchesOfChanges() {
    Map<String, String> real = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(real);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(ID, new Schema(List.of(
            Types.NestedField.required(1, "id", Types.IntegerType.get()),
            Types.NestedField.optional(2, "payload", Types.StringType.get())), java.util.Set.of(1)),
        PartitionSpec.unpartitioned(), Map.of(TableProperties.FORMAT_VERSION, "2"));
    catalogProperties = real;
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options(WriteMode.CHANGELOG, 3)
        .withSchemaEvolution(org.apache.storm.iceberg.SchemaEvolution.ADD_AND_WIDEN).build(), recorder);
    Tuples plain = new Tuples("id", "payload", "op", "seq", "topic", "partition", "offset");
    Tuples scored = new Tuples("id", "payload", "score", "op", "seq", "topic", "partition", "offset");
    long[] offset = {0};
    java.util.function.BiFunction<Tuples, Object[], Tuple> at = (fields, values) -> {
      Object[] all = java.util.Arrays.copyOf(values, values.length + 3);
      all[values.length] = "accounts";
      all[values.length + 1] = 0;
      all[values.length + 2] = offset[0]++;
      return fields.tuple(all);
    };

    sink.execute(at.apply(plain, new Object[] {1, "a", "c", 1L}));
    sink.execute(at.apply(plain, new Object[] {2, "b", "c", 2L}));
    sink.execute(at.apply(plain, new Object[] {1, "a2", "u", 3L}));
    assertThat(evolvingRows()).isEqualTo(Map.of(1L, "a2/null", 2L, "b/null"));

    sink.execute(at.apply(plain, new Object[] {2, null, "d", 4L}));
    sink.execute(at.apply(scored, new Object[] {3, "c", 7, "c", 5L}));
    assertThat(evolvingRows()).as("the delete committed alone, before the column was added").isEqualTo(Map.of(1L, "a2/null"));
    assertThat(table.schema().findField("score")).isNotNull();
    assertThat(table.schema().findField("op")).as("the change fields are read, never added as columns").isNull();
    assertThat(table.schema().findField("seq")).isNull();
    sink.execute(at.apply(scored, new Object[] {1, "a3", 8, "u", 6L}));
    sink.execute(at.apply(plain, new Object[] {4, "d", "c", 7L}));
    assertThat(evolvingRows()).isEqualTo(Map.of(1L, "a3/8", 3L, "c/7", 4L, "d/null"));

    sink.execute(at.apply(plain, new Object[] {5_000_000_000L, "e", "c", 8L}));
    table.refresh();
    assertThat(table.schema().findField("id").type()).as("the key widened").isEqualTo(Types.LongType.get());
    sink.execute(at.apply(plain, new Object[] {3L, null, "d", 9L}));
    sink.execute(at.apply(scored, new Object[] {1L, "a4", 9, "u", 10L}));
    assertThat(evolvingRows()).isEqualTo(Map.of(1L, "a4/9", 4L, "d/null", 5_000_000_000L, "e/null"));
    assertThat(recorder.failedIds()).isEmpty();
    assertThat(recorder.errors).isEmpty();
    sink.close();
  }

  /** The evolving table read back: id to payload/score, a key twice failing. */
  Map<Long, String> evolvingRows() {
    table.refresh();
    Map<Long, String> rows = new TreeMap<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        Object score = table.schema().findField("score") == null ? null : record.getField("score");
        String previous = rows.put(((Number) record.getField("id")).longValue(), record.getField("payload") + "/" + score);
        assertThat(previous).as("key %s twice in the table", record.getField("id")).isNull();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  @Test
  void aKeyColumnRenamedFromOutsideIsStillReadUnderItsFormerNameForDeletesToo() {
    createTable(2, PartitionSpec.unpartitioned());
    table.updateSchema().renameColumn("id", "account_id").commit();
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options(WriteMode.UPSERT, 2).build(), recorder);
    sink.execute(change("c", 1, "a", 0));
    sink.execute(change("c", 2, "b", 0));
    sink.execute(change("d", 1, null, 0));
    sink.execute(change("u", 2, "b2", 0));

    assertThat(recorder.errors).as("errors reported").isEmpty();
    assertThat(recorder.failedIds()).isEmpty();
    table.refresh();
    Map<Long, String> rows = new TreeMap<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(record -> rows.put((Long) record.getField("account_id"), (String) record.getField("payload")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(rows).isEqualTo(Map.of(2L, "b2"));
  }

  /**
   * A batch holding a change older than one the task committed (a key's changes reaching the task
   * out of order) lands as sent, and is counted and logged with the key and both sequence numbers.
   */
  @Test
  void aBatchOlderThanOneTheTaskCommittedIsCountedAndLoggedNamingTheKey() throws Exception {
    createTable(2, PartitionSpec.unpartitioned());
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options(WriteMode.CHANGELOG, 2).build(), recorder);
    sink.execute(change("c", 1, "new", 20));
    sink.execute(change("c", 2, "x", 21));
    try (org.apache.storm.iceberg.testing.LogCapture log = new org.apache.storm.iceberg.testing.LogCapture()) {
      sink.execute(change("u", 1, "old", 10));
      sink.execute(change("u", 2, "y", 22));
      assertThat(log.lines).anySatisfy(line -> assertThat(line).contains("holds sequence number 10 (key id=1, from"
          + " accounts/0), below 21, the largest this task committed before from that source"));
    }
    assertThat(counter("iceberg-sequence-inversions")).isEqualTo(1);
    assertThat(rows()).as("the sink applies what it was sent").isEqualTo(Map.of(1L, "old", 2L, "y"));
  }

  /**
   * A delete of a key no data file of the table could hold (by partition and column bounds) is
   * applied, counted and logged naming the key; a delete of a key the table holds, or of one written
   * in the same batch, is not. The first batch's parent is the empty table.
   */
  @ParameterizedTest
  @CsvSource({"unpartitioned", "bucketed"})
  void aDeleteOfAKeyTheTableCouldNotHoldIsAppliedCountedAndLogged(String partitioning) throws Exception {
    createTable(2, partitioning.equals("bucketed")
        ? PartitionSpec.builderFor(SCHEMA).bucket("id", 4).build() : PartitionSpec.unpartitioned());
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options(WriteMode.CHANGELOG, 4).build(), recorder);
    try (org.apache.storm.iceberg.testing.LogCapture log = new org.apache.storm.iceberg.testing.LogCapture()) {
      sink.execute(change("c", 1, "a", 1));
      sink.execute(change("c", 100, "b", 2));
      sink.execute(change("c", 200, "c", 3));
      sink.execute(change("d", 9, null, 4));
      org.apache.storm.iceberg.testing.Deadline.await(java.time.Duration.ofSeconds(30),
          () -> counter("iceberg-deletes-of-unseen-keys") == 1, () -> "the first batch's unseen key counted; log: " + log.lines);

      sink.execute(change("d", 1, null, 5));
      sink.execute(change("c", 7, "d", 6));
      sink.execute(change("d", 7, null, 7));
      sink.execute(change("d", 500, null, 8));
      org.apache.storm.iceberg.testing.Deadline.await(java.time.Duration.ofSeconds(30),
          () -> counter("iceberg-deletes-of-unseen-keys") == 2, () -> "the second batch's unseen key counted; log: " + log.lines);

      assertThat(log.lines.stream().filter(line -> line.contains("no data file of the table could hold")))
          .as("one warning a batch, each naming its one unseen key")
          .hasSize(2)
          .anySatisfy(line -> assertThat(line).contains("of test.db.accounts deleted 1 key(s) that no data file of the table"
              + " could hold before it (id=9)"))
          .anySatisfy(line -> assertThat(line).contains("deleted 1 key(s)").contains("(id=500)").doesNotContain("id=1)"));
    }
    sink.close();
    assertThat(counter("iceberg-deletes-of-unseen-keys")).isEqualTo(2);
    assertThat(recorder.failedIds()).isEmpty();
    assertThat(rows()).as("the deletes are applied all the same").isEqualTo(Map.of(100L, "b", 200L, "c"));
  }

  /** The split sink's committer runs the same check on the keys each writer batch removed. */
  @ParameterizedTest
  @CsvSource({"unpartitioned", "bucketed"})
  void theSplitSinksCommitterCountsAndLogsADeleteOfAKeyTheTableCouldNotHold(String partitioning) throws Exception {
    createTable(2, partitioning.equals("bucketed")
        ? PartitionSpec.builderFor(SCHEMA).bucket("id", 4).build() : PartitionSpec.unpartitioned());
    RecordingCollector spout = new RecordingCollector();
    SplitChangeRun split = new SplitChangeRun(options(WriteMode.CHANGELOG, 4).build(),
        options(WriteMode.CHANGELOG, 4).withGroupCommitMaxDataFiles(1).build(), 1, clock, spout, () -> {});
    try (org.apache.storm.iceberg.testing.LogCapture log = new org.apache.storm.iceberg.testing.LogCapture()) {
      split.execute(change("c", 1, "a", 1));
      split.execute(change("c", 100, "b", 2));
      split.execute(change("d", 9, null, 3));
      split.execute(change("c", 200, "c", 4));
      // A batch of deletes alone waits for the committer's interval: this one brings rows too.
      split.execute(change("d", 1, null, 5));
      split.execute(change("d", 500, null, 6));
      split.execute(change("c", 7, "d", 7));
      split.execute(change("c", 300, "e", 8));
      split.settleInFlight();
      org.apache.storm.iceberg.testing.Deadline.await(java.time.Duration.ofSeconds(30),
          () -> split.committerMetrics.counter("iceberg-deletes-of-unseen-keys").getCount() == 2,
          () -> "both batches' unseen keys counted; log: " + log.lines);
      assertThat(log.lines.stream().filter(line -> line.contains("no data file of the table could hold")))
          .hasSize(2)
          .anySatisfy(line -> assertThat(line).contains("of test.db.accounts deleted 1 key(s)").contains("(id=9)"))
          .anySatisfy(line -> assertThat(line).contains("deleted 1 key(s)").contains("(id=500)").doesNotContain("id=1)"));
    }
    split.close();
    assertThat(spout.acked).hasSize(8);
    assertThat(rows()).isEqualTo(Map.of(100L, "b", 200L, "c", 7L, "d", 300L, "e"));
  }

  @Test
  void theSplitSinksCommitterCommitsEachBatchOfChangesAloneInArrivalOrderWithItsDeletesAndTripwire() {
    createTable(2, PartitionSpec.unpartitioned());
    RecordingCollector spout = new RecordingCollector();
    // The committer holds both writer batches until its interval passes: they reach it as one group.
    SplitChangeRun split = new SplitChangeRun(options(WriteMode.CHANGELOG, 2).build(), options(WriteMode.CHANGELOG, 2)
        .withGroupCommitMaxDataFiles(100).withGroupCommitIntervalMillis(1_000).build(), 1, clock, spout, () -> {});
    split.execute(change("c", 1, "a", 20));
    split.execute(change("c", 2, "x", 21));
    split.execute(change("u", 1, "b", 22));
    split.execute(change("d", 2, null, 23));
    split.settleInFlight();

    assertThat(spout.acked).hasSize(4);
    assertThat(rows()).isEqualTo(Map.of(1L, "b"));
    List<Snapshot> snapshots = new ArrayList<>();
    table.refresh();
    table.snapshots().forEach(snapshots::add);
    assertThat(snapshots).extracting(snapshot -> summary(snapshot, "storm.iceberg.writer-batches") + " batch, "
            + summary(snapshot, "added-equality-deletes") + " deletes, " + summary(snapshot, "added-records") + " rows")
        .containsExactly("1 batch, 2 deletes, 2 rows", "1 batch, 2 deletes, 1 rows");
    assertThat(split.committerMetrics.counter("iceberg-equality-deletes-committed").getCount()).isEqualTo(4);
    assertThat(split.committerMetrics.counter("iceberg-delete-files-committed").getCount()).isEqualTo(2);

    // An older change after newer ones of its partition: the committer's tripwire counts it.
    split.execute(change("u", 1, "old", 10));
    split.execute(change("u", 3, "y", 24));
    split.settleInFlight();
    assertThat(split.committerMetrics.counter("iceberg-sequence-inversions").getCount()).isEqualTo(1);
    split.close();
  }

  @Test
  void aWriterThatHeldBackAChangeBeyondAGapLiftsItsFenceOnceTheBatchIsHandedOnWithoutWaitingItOut() {
    createTable(2, PartitionSpec.unpartitioned());
    RecordingCollector spout = new RecordingCollector();
    SplitChangeRun split = new SplitChangeRun(options(WriteMode.CHANGELOG, 2).withCommitIntervalMillis(1_000).build(),
        options(WriteMode.CHANGELOG, 2).withGroupCommitMaxDataFiles(1).build(), 1, clock, spout, () -> {});
    Tuple beyondTheGap = tuples.tuple(1L, "eu", "b", "u", 2L, "accounts", 0, 1L);
    try (org.apache.storm.iceberg.testing.LogCapture log = new org.apache.storm.iceberg.testing.LogCapture()) {
      split.execute(beyondTheGap);
      assertThat(spout.failed).as("offset 1 before offset 0: a predecessor may have held 0").containsExactly(beyondTheGap);
      split.execute(tuples.tuple(1L, "eu", "a", "c", 1L, "accounts", 0, 0L));
      split.execute(again(beyondTheGap));
      assertThat(rows()).isEqualTo(Map.of(1L, "b"));

      clock.addAndGet(10 * 60_000);
      split.execute(tuples.tuple(1L, "eu", "c", "u", 3L, "accounts", 0, 2L));
      split.settleInFlight();
      assertThat(rows()).isEqualTo(Map.of(1L, "c"));
      assertThat(log.lines).noneMatch(line -> line.contains("No longer holding back changes"));
    }
    split.close();
  }

  @Test
  void aChangeThatCannotBeReadIsFailedNamingWhyAndNothingElseIsLost() {
    createTable(2, PartitionSpec.unpartitioned());
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = open(options(WriteMode.CHANGELOG, 3).build(), recorder);
    sink.execute(change("x", 1, "a", 1));
    sink.execute(tuples.tuple(2L, "eu", "b", "c", "not a number", "accounts", 0, nextOffset++));
    sink.execute(tuples.tuple(null, "eu", "c", "c", 3L, "accounts", 0, nextOffset++));
    sink.execute(change("c", 4, "d", 4));
    sink.execute(change("c", 5, "e", 5));
    sink.execute(change("c", 6, "f", 6));

    assertThat(recorder.errors).hasSize(3);
    assertThat(recorder.errors.get(0)).hasMessageContaining("operation field 'op' holds 'x' (java.lang.String), not an"
        + " operation: accepted are Debezium's c, r, u, d; I, U, D; INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE (any case)");
    assertThat(recorder.errors.get(1)).hasMessageContaining("sequence field 'seq' holds 'not a number' (java.lang.String),"
        + " not a whole number growing per key");
    assertThat(recorder.errors.get(2)).hasMessageContaining("db.accounts");
    assertThat(rows()).isEqualTo(Map.of(4L, "d", 5L, "e", 6L, "f"));
  }

  @Test
  void theChangeOrderWaitIsRefusedAtBuildOutsideTheRowLevelModesAndWhenNegative() {
    createTable(2, PartitionSpec.unpartitioned());
    assertThatThrownBy(() -> options(WriteMode.APPEND, 3).withChangeFields(null, null).withChangeOrderWaitMillis(60_000).build())
        .hasMessage("withKeyColumns, withChangeFields, withChangeOrderWaitMillis and withMaxHeldChangeKeys apply to the row-level"
            + " write modes;"
            + " set withWriteMode(WriteMode.UPSERT) or withWriteMode(WriteMode.CHANGELOG), or remove them");
    assertThatThrownBy(() -> options(WriteMode.CHANGELOG, 3).withChangeOrderWaitMillis(-1).build())
        .hasMessageContaining("withChangeOrderWaitMillis");
    assertThat(settings(options(WriteMode.CHANGELOG, 3).withChangeOrderWaitMillis(90_000).build()).rowLevel().orderWaitMillis())
        .isEqualTo(90_000);
  }

  @Test
  void theHeldKeysBoundDefaultsTo100000AndIsRefusedAtBuildOutsideTheRowLevelModesAndWhenNotPositive() {
    createTable(2, PartitionSpec.unpartitioned());
    assertThat(settings(options(WriteMode.CHANGELOG, 3).build()).rowLevel().maxHeldKeys())
        .isEqualTo(IcebergOptions.DEFAULT_MAX_HELD_CHANGE_KEYS).isEqualTo(100_000);
    assertThatThrownBy(() -> options(WriteMode.APPEND, 3).withChangeFields(null, null).withMaxHeldChangeKeys(10).build())
        .hasMessageContaining("withMaxHeldChangeKeys apply to the row-level write modes");
    assertThatThrownBy(() -> options(WriteMode.CHANGELOG, 3).withMaxHeldChangeKeys(0).build())
        .hasMessage("withMaxHeldChangeKeys must be positive, got 0");
    Map<String, Object> flux = Map.of("catalog", catalogProperties, "table", "db.accounts", "write-mode", "upsert",
        "max-held-change-keys", 3);
    assertThat(settings(IcebergOptions.fromMap(flux)).rowLevel().maxHeldKeys()).isEqualTo(3);
  }

  @Test
  void aTableTheModeCannotChangeIsRefusedWhenTheTaskOpensNamingTheColumn() {
    Map<String, String> real = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(real);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Schema noKey = new Schema(SCHEMA.columns());
    catalog.createTable(ID, noKey, PartitionSpec.builderFor(noKey).identity("region").build(),
        Map.of(TableProperties.FORMAT_VERSION, "2"));
    catalogProperties = real;
    RecordingCollector recorder = new RecordingCollector();

    assertThatThrownBy(() -> open(options(WriteMode.UPSERT, 3).build(), recorder))
        .hasMessageContaining("Table test.db.accounts has no identifier fields and the options name no key");
    assertThatThrownBy(() -> open(options(WriteMode.UPSERT, 3).withKeyColumns("payload").build(), recorder))
        .hasMessageContaining("Key column payload of table test.db.accounts is optional");
    assertThatThrownBy(() -> open(options(WriteMode.UPSERT, 3).withKeyColumns("account").build(), recorder))
        .hasMessageContaining("Key column account is not a column of table test.db.accounts");
    assertThatThrownBy(() -> open(options(WriteMode.UPSERT, 3).withKeyColumns("id").build(), recorder))
        .hasMessageContaining("is partitioned by region, which is not a key column");
    catalog.dropTable(ID);
    catalog.createTable(ID, SCHEMA, PartitionSpec.unpartitioned(), Map.of(TableProperties.FORMAT_VERSION, "1"));
    assertThatThrownBy(() -> open(options(WriteMode.UPSERT, 3).build(), recorder))
        .hasMessageContaining("has format version 1; write mode upsert writes delete files, which need format version 2");
  }

  /** Debezium's envelope through the json mapper: the row in after (before for a delete), op and source.lsn read as JSON paths. */
  @Test
  void debeziumEnvelopesThroughTheJsonMapperLeaveTheSourcesRows() {
    createTable(2, PartitionSpec.unpartitioned());
    RecordingCollector recorder = new RecordingCollector();
    IcebergOptions options = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.accounts")
        .withCommitIntervalRecords(3)
        .withRecordMapper("json", Map.of("field", "value", "row-path", "after,before"))
        .withWriteMode(WriteMode.CHANGELOG)
        .withChangeFields("op", "source.lsn")
        .withSourcePositions(new FieldPositions())
        .build();
    SinkTask sink = open(options, recorder);
    Tuples kafka = new Tuples("value", "topic", "partition", "offset");
    String[] events = {
        "{\"before\":null,\"after\":{\"id\":1,\"region\":\"eu\",\"payload\":\"a\"},\"op\":\"c\",\"source\":{\"lsn\":100}}",
        "{\"before\":null,\"after\":{\"id\":2,\"region\":\"us\",\"payload\":\"b\"},\"op\":\"r\",\"source\":{\"lsn\":101}}",
        "{\"before\":{\"id\":1,\"region\":\"eu\",\"payload\":\"a\"},\"after\":{\"id\":1,\"region\":\"eu\",\"payload\":\"a2\"},\"op\":\"u\",\"source\":{\"lsn\":102}}",
        "{\"before\":{\"id\":2},\"after\":null,\"op\":\"d\",\"source\":{\"lsn\":103}}",
        "{\"before\":null,\"after\":{\"id\":3,\"region\":\"eu\",\"payload\":\"c\"},\"op\":\"c\",\"source\":{\"lsn\":104}}",
        "{\"before\":null,\"after\":{\"id\":1,\"region\":\"eu\",\"payload\":\"a3\"},\"op\":\"u\",\"source\":{\"lsn\":105}}",
    };
    for (int offset = 0; offset < events.length; offset++) {
      sink.execute(kafka.tuple(events[offset], "accounts", 0, (long) offset));
    }

    assertThat(recorder.errors).isEmpty();
    assertThat(recorder.failed).isEmpty();
    assertThat(recorder.acked).hasSize(6);
    assertThat(rows()).isEqualTo(Map.of(1L, "a3", 3L, "c"));
  }

  // ---- seeded model runs: random keys, operations and batch boundaries, replays and commit faults

  /**
   * One seeded run: few keys, many changes each, sent a batch's worth at a time with random commit
   * faults. In an aligned run each chunk is replayed until acked before the next is sent, and its
   * sequence numbers may be out of order within it; in an interleaved run the replays of a failed
   * batch come after later changes, some of them at a time, as a spout's retries do, and the task
   * may restart between chunks.
   * Whenever everything sent is acked, the table equals the model of every change sent.
   */
  void seededRun(long seed, int formatVersion, String fileFormat) {
    seededRun(seed, formatVersion, fileFormat, false);
  }

  /**
   * As above, through IcebergBolt's task, or with {@code split} through the split sink: a writer task
   * per Kafka partition (two, each key in one), one committer, each descriptor delivered as emitted
   * ({@link SplitChangeRun}); a dying worker is a writer's or the committer's. The split runs keep
   * each chunk's sequence numbers in order (a writer's batch does not line up with a chunk), and
   * after each descriptor that lands they check what the committer must keep: each partition's
   * committed offsets are one run from 0, and the table equals the model of those changes.
   */
  void seededRun(long seed, int formatVersion, String fileFormat, boolean split) {
    Random random = new Random(seed);
    nextOffset = 0;
    java.util.Arrays.fill(nextOffsets, 0);
    createTable(formatVersion, random.nextBoolean() ? PartitionSpec.unpartitioned()
        : PartitionSpec.builderFor(SCHEMA).bucket("id", 3).build(),
        random.nextInt(4) == 0 ? TestCatalogs.jdbcSqlite(dir) : TestCatalogs.hadoop(dir));
    int batch = 2 + random.nextInt(9);
    boolean interleaved = random.nextBoolean();
    RecordingCollector recorder = new RecordingCollector();
    // A split run's writers seal smaller batches than a chunk, so one partition's batches meet at the committer.
    IcebergOptions.Builder writerOptions = options(WriteMode.CHANGELOG, split ? 1 + random.nextInt(batch) : batch)
        .withCommitIntervalMillis(split ? 1_000 : 30_000).withFileFormat(fileFormat);
    IcebergOptions options = (maxHeldKeys > 0 ? writerOptions.withMaxHeldChangeKeys(maxHeldKeys) : writerOptions).build();
    List<Tuple> log = new ArrayList<>();
    ModelSink sink = split
        ? new SplitChangeRun(options, options(WriteMode.CHANGELOG, batch).withGroupCommitMaxDataFiles(1 + random.nextInt(6))
            .withGroupCommitIntervalMillis(1_000).build(), 2, clock, recorder,
            () -> assertCommittedPrefix(seed, options, log))
        : new BoltSink(open(options, recorder), () -> open(options, recorder));
    String[] ops = {"c", "u", "d", "r", "UPDATE_BEFORE", "UPDATE_AFTER", "I", "D"};
    int changes = 12 + random.nextInt(30);
    int sentUpTo = 0;
    while (sentUpTo < changes) {
      int count = Math.min(batch, changes - sentUpTo);
      long[] sequences = java.util.stream.LongStream.range(sentUpTo, sentUpTo + count).toArray();
      if (!split && !interleaved && count > 1 && random.nextInt(3) == 0) {
        long first = sequences[0];
        sequences[0] = sequences[count - 1];
        sequences[count - 1] = first;
      }
      List<Tuple> chunk = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        long key = random.nextInt(4);
        String op = ops[random.nextInt(ops.length)];
        String payload = op.equals("d") || op.equals("D") || op.equals("UPDATE_BEFORE") ? null : "v" + seed + "-" + (sentUpTo + i);
        chunk.add(split ? change(op, key, payload, sequences[i], (int) (key % 2)) : change(op, key, payload, sequences[i]));
      }
      log.addAll(chunk);
      sentUpTo += count;
      boolean faulty = random.nextInt(3) == 0;
      if (faulty) {
        // Ten refusals outlast Iceberg's own retries: the batch fails and replays. The others are ambiguous and land.
        CommitFault fault = new CommitFault[] {CommitFault.FAIL_BEFORE, CommitFault.UNKNOWN_AFTER, CommitFault.UNKNOWN_LANDS_LATE,
            CommitFault.UNKNOWN_STALE_AFTER_RETRY}[random.nextInt(4)];
        faults.inject(fault, fault == CommitFault.FAIL_BEFORE ? 10 : 1);
      }
      chunk.forEach(sink::execute);
      if (split && faulty) {
        // The committer holds descriptors until its interval passes: let it commit them while the fault is armed.
        sink.settleInFlight();
      }
      faults.clear();
      if (interleaved && random.nextInt(6) == 0) {
        // The worker dies: the open batch is lost unacked, and a new incarnation takes the replays.
        sink = sink.restart(random);
      }
      if (interleaved && random.nextInt(3) == 0) {
        // Some retries come back (those whose backoff ended) while later changes keep coming.
        List<Tuple> some = new ArrayList<>(unacked(recorder, log));
        some.removeIf(tuple -> random.nextBoolean());
        some.stream().map(this::again).forEach(sink::execute);
      }
      if (!interleaved || random.nextInt(3) == 0 || sentUpTo == changes) {
        sink = replayUntilAcked(sink, recorder, log, random, batch, seed);
        assertThat(rows()).as("seed %d after offset %d", seed, sentUpTo - 1).isEqualTo(model(log));
      }
    }
    sink.close();
  }

  /** The spout replays what is unacked, with a random earlier stretch of the log, until everything is acked. */
  private ModelSink replayUntilAcked(ModelSink sink, RecordingCollector recorder, List<Tuple> log, Random random, int batch, long seed) {
    for (int round = 0; !unacked(recorder, log).isEmpty(); round++) {
      sink.settleInFlight();
      assertThat(round).as("seed %d: replays settle", seed).isLessThan(40);
      List<Tuple> replay = new ArrayList<>(unacked(recorder, log));
      int from = random.nextInt(log.size());
      replay.addAll(0, log.subList(from, Math.min(log.size(), from + random.nextInt(batch + 1))));
      replay.sort(java.util.Comparator.comparingLong(t -> t.getLongByField("offset")));
      replay.stream().map(this::again).forEach(sink::execute);
      if (!unacked(recorder, log).isEmpty()) {
        // A short replay leaves a partial batch open: the next tuples, or a tick past its age, seal it.
        clock.addAndGet(60_000);
        sink.execute(tuples.tick());
      }
    }
    return sink;
  }

  /** The source's state after {@code log}: each chunk's changes by key, in sequence order, removals before after-images. */
  static Map<Long, String> model(List<Tuple> log) {
    Map<Long, String> model = new TreeMap<>();
    apply(model, log);
    return model;
  }

  /** The same record again, as a spout replays it: a new tuple at the same offset. */
  Tuple again(Tuple record) {
    return tuples.tuple(record.getValues().toArray());
  }

  /** The log's records no acked tuple carries. */
  static List<Tuple> unacked(RecordingCollector recorder, List<Tuple> log) {
    java.util.Set<String> acked = new java.util.HashSet<>();
    recorder.acked.forEach(t -> acked.add(at(t)));
    return log.stream().filter(t -> !acked.contains(at(t))).toList();
  }

  /** A change's partition and offset: its identity. */
  static String at(Tuple change) {
    return change.getIntegerByField("partition") + "/" + change.getLongByField("offset");
  }

  /**
   * What must hold after each commit of the split sink: each partition's committed offsets (the
   * positions ledger) run from 0 without a hole, and the table read back equals the model of the
   * committed changes.
   */
  void assertCommittedPrefix(long seed, IcebergOptions options, List<Tuple> log) {
    table.refresh();
    org.apache.storm.iceberg.kernel.position.Positions committed = new org.apache.storm.iceberg.kernel.commit.PositionsLedger(
        settings(options).commits().walNamespace(), settings(options).commits().branch()).committed(table).positions();
    for (int partition = 0; partition < nextOffsets.length; partition++) {
      long largest = committed.largest("accounts", partition);
      assertThat(largest < 0 || committed.holdsAll("accounts", partition, 0, largest))
          .as("seed %d: partition %d's committed offsets %s run from 0", seed, partition, committed).isTrue();
    }
    List<Tuple> landed = log.stream().filter(t -> committed.contains(new org.apache.storm.iceberg.spi.SourcePosition(
        "accounts", t.getIntegerByField("partition"), t.getLongByField("offset")))).toList();
    assertThat(rows()).as("seed %d after a commit holding up to %s", seed, committed).isEqualTo(model(landed));
  }

  /** What a model run drives: IcebergBolt's task, or the split sink's two halves ({@link SplitChangeRun}). */
  interface ModelSink {
    void execute(Tuple tuple);

    void close();

    /** Before the spout replays: lets what the sink holds in flight settle. */
    default void settleInFlight() {}

    /** The worker of one of the sink's tasks dies, losing what it holds unsettled; returns the sink to go on with. */
    ModelSink restart(Random random);
  }

  /** IcebergBolt's task as a model run's sink; a dying worker is replaced by {@code reopen}'s task. */
  record BoltSink(SinkTask task, java.util.function.Supplier<SinkTask> reopen) implements ModelSink {
    @Override
    public void execute(Tuple tuple) {
      task.execute(tuple);
    }

    @Override
    public void close() {
      task.close();
    }

    @Override
    public ModelSink restart(Random random) {
      return new BoltSink(reopen.get(), reopen);
    }
  }

  /** The source's state after {@code changes}: by key, in sequence order, removals before after-images. */
  static void apply(Map<Long, String> model, List<Tuple> changes) {
    List<Tuple> ordered = new ArrayList<>(changes);
    ordered.sort(java.util.Comparator.<Tuple>comparingLong(t -> t.getLongByField("seq"))
        .thenComparingInt(t -> removes(t) ? 0 : 1)
        .thenComparingLong(t -> t.getLongByField("offset")));
    for (Tuple change : ordered) {
      if (removes(change)) {
        model.remove(change.getLongByField("id"));
      } else {
        model.put(change.getLongByField("id"), change.getStringByField("payload"));
      }
    }
  }

  static boolean removes(Tuple change) {
    String op = change.getStringByField("op").toLowerCase(java.util.Locale.ROOT);
    return op.equals("d") || op.equals("update_before");
  }

  /**
   * Seeded model runs on every format case: 250 each in the long tier (1,000 in all, as issue #31
   * asks; they took 5:15 on 2 threads), 3 in the quick tier; {@code
   * -Drow-level.schedules=N} runs N, {@code -Drow-level.seed=S} replays seed S alone. Every run is
   * played to its end and the failing seeds are reported together, first seed first.
   */
  @ParameterizedTest(name = "format v{0}, {1}")
  @CsvSource({"2, parquet", "3, parquet", "2, avro", "3, orc"})
  void seededChangeStreamsWithReplaysAndCommitFaultsLeaveTheTableEqualToTheSource(int formatVersion, String fileFormat)
      throws Exception {
    runSeeds(formatVersion, fileFormat, false, TestTiers.isLongTier() ? 250 : 3);
  }

  /**
   * The same model runs through the split sink ({@link SplitChangeRun}): two writers, one committer
   * that commits each row-level descriptor alone behind the fence, the table checked after every
   * commit. 3 runs a case in the quick tier, 10 in the long tier; {@code -Drow-level.seed=S} replays one.
   */
  @ParameterizedTest(name = "split sink, format v{0}, {1}")
  @CsvSource({"2, parquet", "3, parquet", "2, avro", "3, orc"})
  void seededChangeStreamsThroughTheSplitSinkLeaveTheTableEqualToTheSourceAfterEveryCommit(int formatVersion,
      String fileFormat) throws Exception {
    runSeeds(formatVersion, fileFormat, true, TestTiers.isLongTier() ? 10 : 3);
  }

  /**
   * The same model runs with {@code withMaxHeldChangeKeys(1)}: a batch that changes a second key
   * streams the rest through Iceberg's delta writer (position deletes on v2, deletion vectors on v3),
   * through IcebergBolt's task and the split sink (whose descriptors carry the position deletes).
   * 1 run a case in the quick tier (about 1-4 s each), 20 in the long tier.
   */
  @ParameterizedTest(name = "held keys bound 1, format v{0}, {1}, split sink {2}")
  @CsvSource({"2, parquet, false", "3, parquet, false", "3, orc, true"})
  void seededChangeStreamsBeyondTheHeldKeysBoundLeaveTheTableEqualToTheSource(int formatVersion, String fileFormat,
      boolean split) throws Exception {
    runSeeds(formatVersion, fileFormat, split, TestTiers.isLongTier() ? 20 : 1, 1);
  }

  /** Runs {@code defaultRuns} seeded model runs of one case, or as the system properties say, and reports every failing seed. */
  private void runSeeds(int formatVersion, String fileFormat, boolean split, int defaultRuns) throws Exception {
    runSeeds(formatVersion, fileFormat, split, defaultRuns, 0);
  }

  /** As above, each run holding at most {@code maxHeldKeys} keys a batch (0: the default). */
  private void runSeeds(int formatVersion, String fileFormat, boolean split, int defaultRuns, int maxHeldKeys) throws Exception {
    Long only = Long.getLong("row-level.seed");
    int runs = only != null ? 1 : Integer.getInteger("row-level.schedules", defaultRuns);
    Map<Long, String> failures = new java.util.concurrent.ConcurrentSkipListMap<>();
    long started = System.nanoTime();
    long cpuStarted = processCpuNanos();
    // Runs are independent (each its own directory, catalog, faults, clock and task), so both cores
    // run them. Plain threads: in a parallel stream the waiting thread spun in ForkJoinPool.helpComplete
    // for minutes while Iceberg's pools blocked the worker.
    java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(RUN_THREADS);
    try {
      List<java.util.concurrent.Future<?>> done = new ArrayList<>();
      for (long n = 1; n <= runs; n++) {
        long seed = only != null ? only : n * 7919 + formatVersion;
        done.add(threads.submit(() -> {
          String failure = seededRunFailure(seed, formatVersion, fileFormat, split, maxHeldKeys);
          if (failure != null) {
            failures.put(seed, failure);
            System.out.printf("row-level model run%s, v%d %s, seed %d failed: %s%n", split ? " (split sink)" : "",
                formatVersion, fileFormat, seed, failure);
          }
        }));
      }
      for (java.util.concurrent.Future<?> run : done) {
        run.get();
      }
    } finally {
      threads.shutdownNow();
    }
    System.out.printf("row-level model runs%s, v%d %s: %d runs in %d ms (%d ms of CPU), %d failed%n", split ? " (split sink)" : "", formatVersion,
        fileFormat, runs, (System.nanoTime() - started) / 1_000_000, (processCpuNanos() - cpuStarted) / 1_000_000,
        failures.size());
    assertThat(failures).as("v%d %s: seeds whose table differs from the model (replay one with -Drow-level.seed=S)",
        formatVersion, fileFormat).isEmpty();
  }

  /** Why seed {@code seed}'s run failed, in one line, or null when it passed. */
  String seededRunFailure(long seed, int formatVersion, String fileFormat, boolean split, int maxHeldKeys) {
    RowLevelChangesTest run = new RowLevelChangesTest();
    run.maxHeldKeys = maxHeldKeys;
    try {
      run.dir = java.nio.file.Files.createDirectories(dir.resolve("run-" + seed));
      run.seededRun(seed, formatVersion, fileFormat, split);
      // Removed on the run's thread: left to @TempDir, 250 runs' files took 35 s of one thread per case.
      try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(run.dir)) {
        for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
          java.nio.file.Files.delete(file);
        }
      }
      return null;
    } catch (IOException | RuntimeException | AssertionError e) {
      String message = e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).replaceAll("\\s+", " ");
      return message.substring(0, Math.min(message.length(), 600));
    }
  }

  /** The JVM's CPU time: other builds share the machine, so wall time alone says little. */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
