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

package org.apache.storm.iceberg.kernel.evolve;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.DeadLetterFields;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.SchemaEvolution;
import org.apache.storm.iceberg.TupleMappingException;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.RestCatalogServer;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Schema evolution from tuples on real catalogs (Hadoop, JDBC on SQLite, the REST server), one task at a time: new
 * top-level and nested fields add columns, wider values widen them, conflicting types are mapping
 * errors that leave the table alone, and a schema commit that races another task's or loses its
 * answer is settled by reading the schema, adding each column once.
 */
class SchemaEvolutionTest {
  static final Schema SCHEMA = new Schema(
      required(1, "id", Types.LongType.get()),
      optional(2, "payload", Types.StringType.get()),
      optional(3, "count", Types.IntegerType.get()),
      optional(4, "address", Types.StructType.of(optional(5, "city", Types.StringType.get()))));

  @TempDir Path dir;
  final MetricRegistry registry = new MetricRegistry();
  final AtomicLong clock = new AtomicLong(1_000_000);
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples base = new Tuples("id", "payload", "count", "address");
  final Tuples evolved = new Tuples("id", "payload", "count", "address", "score");
  Map<String, String> catalogProperties;
  Table table;

  void createTable(Map<String, String> properties) {
    createTable(properties, properties);
  }

  /** Creates the table in the real catalog {@code real}; the sink opens it through {@code sinkCatalog}. */
  void createTable(Map<String, String> real, Map<String, String> sinkCatalog) {
    catalogProperties = sinkCatalog;
    Catalog catalog = TestCatalogs.load(real);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "events"), SCHEMA, PartitionSpec.unpartitioned());
  }

  RestCatalogServer rest;

  @AfterEach
  void stopRest() throws Exception {
    if (rest != null) {
      rest.close();
    }
  }

  Map<String, String> catalog(String type) throws Exception {
    if (type.equals("rest")) {
      TestTiers.longTierOnly("starting the REST server costs seconds; the quick tier has Hadoop and JDBC");
      rest = new RestCatalogServer(dir.resolve("rest"));
      return rest.clientProperties();
    }
    return type.equals("jdbc") ? TestCatalogs.jdbcSqlite(dir) : TestCatalogs.hadoop(dir);
  }

  SinkTask open(Map<String, String> properties, int taskIndex) {
    return open(properties, taskIndex, null);
  }

  SinkTask open(Map<String, String> properties, int taskIndex, String deadLetterStream) {
    IcebergOptions.Builder builder = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(properties)
        .withTable("db.events")
        .withCommitIntervalRecords(3)
        .withCommitIntervalMillis(5_000)
        .withSchemaEvolution(SchemaEvolution.ADD_AND_WIDEN);
    IcebergOptions options = deadLetterStream == null ? builder.build() : builder.withDeadLetterStream(deadLetterStream).build();
    TaskIdentity task = new TaskIdentity("topology", "iceberg", 7 + taskIndex, taskIndex, 2);
    return SinkTasks.open(settings(options),
        new TaskEnvironment(task, recorder.collector(), clock::get, SinkMetrics.detached(registry, clock::get), Map.of()));
  }

  static Map<String, Object> address(String city, String zip) {
    Map<String, Object> address = new TreeMap<>();
    address.put("city", city);
    if (zip != null) {
      address.put("zip", zip);
    }
    return address;
  }

  void sendEvolved(SinkTask sink, long fromId, long toId) {
    for (long id = fromId; id < toId; id++) {
      sink.execute(evolved.tuple(id, "p" + id, (int) id, address("c" + id, "z" + id), id + 0.5));
    }
  }

  static Map<Long, Object> valuesById(List<Record> rows, String column) {
    Map<Long, Object> values = new TreeMap<>();
    rows.forEach(r -> values.put((Long) r.getField("id"), r.getField(column)));
    return values;
  }

  static Map<Long, Object> zipsById(List<Record> rows) {
    Map<Long, Object> values = new TreeMap<>();
    rows.forEach(r -> values.put((Long) r.getField("id"),
        r.getField("address") == null ? null : ((Record) r.getField("address")).getField("zip")));
    return values;
  }

  @ParameterizedTest
  @ValueSource(strings = {"hadoop", "jdbc"})
  void newTopLevelAndNestedFieldsAddColumnsAfterTheOpenBatchCommits(String catalogType) throws Exception {
    createTable(catalog(catalogType));
    int originalSchemaId = table.schema().schemaId();
    SinkTask sink = open(catalogProperties, 0);
    sink.execute(base.tuple(0L, "p0", 0, address("c0", null)));
    sink.execute(base.tuple(1L, "p1", 1, address("c1", null)));
    sendEvolved(sink, 2, 5);
    sink.close();

    assertThat(recorder.failedIds()).isEmpty();
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    table.refresh();
    assertThat(table.schemas()).as("one schema change for both new fields").hasSize(2);
    assertThat(table.schema().findField("score")).isEqualTo(optional(table.schema().findField("score").fieldId(), "score",
        Types.DoubleType.get()));
    assertThat(table.schema().findType("address.zip")).isEqualTo(Types.StringType.get());
    assertThat(table.schema().findField("id").isRequired()).isTrue();
    List<Snapshot> snapshots = TestTables.snapshots(table);
    assertThat(snapshots).hasSize(2);
    assertThat(snapshots.get(0).summary()).containsEntry("added-records", "2");
    assertThat(snapshots.get(0).schemaId()).as("the batch open before the change commits on the old schema")
        .isEqualTo(originalSchemaId);
    assertThat(snapshots.get(1).schemaId()).isEqualTo(table.schema().schemaId());
    List<Record> rows = TestTables.rows(table);
    assertThat(valuesById(rows, "score")).isEqualTo(expected(0L, null, 1L, null, 2L, 2.5, 3L, 3.5, 4L, 4.5));
    assertThat(zipsById(rows).values().stream().filter(v -> v != null).collect(Collectors.toList()))
        .containsExactly("z2", "z3", "z4");
  }

  /** Ids and values, alternating: a map that, unlike {@code Map.of}, holds nulls. */
  static Map<Long, Object> expected(Object... idsAndValues) {
    Map<Long, Object> values = new TreeMap<>();
    for (int i = 0; i < idsAndValues.length; i += 2) {
      values.put(((Number) idsAndValues[i]).longValue(), idsAndValues[i + 1]);
    }
    return values;
  }

  /** Seals the open batch: its age passes the commit interval, and a tick comes. */
  void flush(SinkTask sink) {
    clock.addAndGet(10_000);
    sink.execute(base.tick());
  }

  @Test
  void aNewMapFieldBecomesAStructAndAWiderValueWidensItsColumn() throws Exception {
    createTable(catalog("hadoop"));
    Tuples withGeo = new Tuples("id", "count", "geo", "price");
    SinkTask sink = open(catalogProperties, 0);
    sink.execute(withGeo.tuple(0L, 3_000_000_000L, new TreeMap<>(Map.of("lat", 1.5, "lon", 2.5f)), new BigDecimal("12.34")));
    sink.execute(withGeo.tuple(1L, 7, Map.of("lat", 3.5), new BigDecimal("123456.78")));
    sink.execute(withGeo.tuple(2L, 8, null, null));
    flush(sink);
    sink.close();

    assertThat(recorder.failedIds()).isEmpty();
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L);
    table.refresh();
    assertThat(table.schema().findType("count")).as("int widened to long").isEqualTo(Types.LongType.get());
    assertThat(table.schema().findType("geo")).isEqualTo(Types.StructType.of(
        optional(table.schema().findField("geo.lat").fieldId(), "lat", Types.DoubleType.get()),
        optional(table.schema().findField("geo.lon").fieldId(), "lon", Types.FloatType.get())));
    assertThat(table.schema().findType("price")).as("decimal precision widened")
        .isEqualTo(Types.DecimalType.of(8, 2));
    List<Record> rows = TestTables.rows(table);
    assertThat(valuesById(rows, "count")).isEqualTo(expected(0L, 3_000_000_000L, 1L, 7L, 2L, 8L));
    assertThat(valuesById(rows, "price").get(1L)).isEqualTo(new BigDecimal("123456.78"));
  }

  @Test
  void aConflictingTypeIsAMappingErrorAndTheTableIsUnchanged() throws Exception {
    createTable(catalog("jdbc"));
    String metadataBefore = ((org.apache.iceberg.HasTableOperations) table).operations().current().metadataFileLocation();
    SinkTask sink = open(catalogProperties, 0);
    sink.execute(base.tuple(0L, "p0", 0, null));
    sink.execute(base.tuple(1L, "p1", "lots", null));
    sink.execute(base.tuple(2L, "p2", 2, Map.of("city", 7)));

    assertThat(recorder.failedIds()).containsExactly(1L, 2L);
    assertThat(recorder.errors).hasSize(2).allMatch(e -> e instanceof TupleMappingException);
    assertThat(recorder.errors.get(0).getMessage()).contains("db.events", "column 'count' is int",
        "the value is a java.lang.String (string)", "Iceberg cannot change int to string");
    assertThat(((TupleMappingException) recorder.errors.get(0)).columnPath()).isEqualTo("count");
    assertThat(recorder.errors.get(1).getMessage()).contains("db.events", "column 'address.city' is string",
        "java.lang.Integer (int)");
    table.refresh();
    assertThat(((org.apache.iceberg.HasTableOperations) table).operations().current().metadataFileLocation())
        .as("no schema commit, and the open batch was not sealed").isEqualTo(metadataBefore);
    sink.execute(base.tuple(3L, "p3", 3, null));
    sink.execute(base.tuple(4L, "p4", 4, null));
    sink.close();
    assertThat(recorder.ackedIds()).containsExactly(0L, 3L, 4L);
    assertThat(TestTables.snapshots(table)).hasSize(1);
    assertThat(table.schemas()).hasSize(1);
  }

  @Test
  void aConflictingTypeGoesToTheDeadLetterStreamAndTheTableIsUnchanged() throws Exception {
    createTable(catalog("jdbc"));
    String metadataBefore = ((org.apache.iceberg.HasTableOperations) table).operations().current().metadataFileLocation();
    SinkTask sink = open(catalogProperties, 0, "bad-events");
    sink.execute(base.tuple(0L, "p0", 0, null));
    sink.execute(base.tuple(1L, "p1", "lots", null));

    assertThat(recorder.failed).as("dead-lettered, not failed").isEmpty();
    assertThat(recorder.emitted).singleElement().satisfies(letter -> {
      assertThat(letter.stream()).isEqualTo("bad-events");
      assertThat(letter.values().get(DeadLetterFields.fields().fieldIndex(DeadLetterFields.COLUMN))).isEqualTo("count");
      assertThat((String) letter.values().get(DeadLetterFields.fields().fieldIndex(DeadLetterFields.ERROR)))
          .contains("column 'count' is int", "the value is a java.lang.String (string)");
    });
    assertThat(recorder.ackedIds()).containsExactly(1L);
    table.refresh();
    assertThat(((org.apache.iceberg.HasTableOperations) table).operations().current().metadataFileLocation())
        .as("no schema commit").isEqualTo(metadataBefore);
    sink.execute(base.tuple(2L, "p2", 2, null));
    sink.execute(base.tuple(3L, "p3", 3, null));
    sink.close();
    assertThat(recorder.ackedIds()).as("the dead letter at once, the rest with their batch").containsExactly(1L, 0L, 2L, 3L);
    assertThat(table.schemas()).hasSize(1);
  }

  /** The schema commit's answer is lost; whether it landed or not, the sink reads the schema and goes on. */
  @ParameterizedTest
  @EnumSource(value = Faults.CommitFault.class, names = {"UNKNOWN_AFTER", "UNKNOWN_NOT_APPLIED", "FAIL_BEFORE"})
  void anAmbiguousOrRefusedSchemaCommitIsSettledByReadingTheSchema(Faults.CommitFault fault) {
    Faults faults = Faults.create();
    createTable(TestCatalogs.jdbcSqlite(dir), FaultInjectingCatalog.properties(TestCatalogs.jdbcSqlite(dir), faults));
    SinkTask sink = open(catalogProperties, 0);
    // An evolving tuple opening a batch: the schema commit is the next commit.
    faults.inject(fault, 1);
    sendEvolved(sink, 0, 3);
    sink.close();

    assertThat(faults.injected.get()).isEqualTo(1);
    assertThat(recorder.failedIds()).isEmpty();
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L);
    table.refresh();
    assertThat(table.schemas()).as("the column added once").hasSize(2);
    assertThat(valuesById(TestTables.rows(table), "score")).isEqualTo(expected(0L, 0.5, 1L, 1.5, 2L, 2.5));
  }

  /** Another task adds the same column between this task's look and its schema commit: the commit conflicts. */
  @Test
  void aSchemaCommitThatLosesTheRaceFindsTheColumnAndUsesIt() {
    Faults faults = Faults.create();
    Map<String, String> realCatalog = TestCatalogs.jdbcSqlite(dir);
    createTable(realCatalog, FaultInjectingCatalog.properties(realCatalog, faults));
    Table other = TestCatalogs.load(realCatalog).loadTable(TableIdentifier.of("db", "events"));
    AtomicBoolean raced = new AtomicBoolean();
    faults.duringCommit = () -> {
      if (raced.compareAndSet(false, true)) {
        other.updateSchema().addColumn("score", Types.DoubleType.get())
            .addColumn("address", "zip", Types.StringType.get()).commit();
      }
    };
    SinkTask sink = open(catalogProperties, 0);
    sendEvolved(sink, 0, 3);
    sink.close();

    assertThat(raced).isTrue();
    assertThat(recorder.failedIds()).isEmpty();
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L);
    table.refresh();
    assertThat(table.schemas()).as("only the other task's schema change").hasSize(2);
    assertThat(valuesById(TestTables.rows(table), "score")).isEqualTo(expected(0L, 0.5, 1L, 1.5, 2L, 2.5));
  }

  /** Two sinks, each with a batch open on the old schema, meet the same new fields: one schema change. */
  @ParameterizedTest
  @ValueSource(strings = {"hadoop", "jdbc", "rest"})
  void twoSinksMeetingTheSameNewFieldAddItOnce(String catalogType) throws Exception {
    createTable(catalog(catalogType));
    SinkTask first = open(catalogProperties, 0);
    SinkTask second = open(catalogProperties, 1);
    first.execute(base.tuple(0L, "p0", 0, null));
    second.execute(base.tuple(10L, "p10", 10, null));
    sendEvolved(first, 1, 3);
    sendEvolved(second, 11, 13);
    flush(first);
    flush(second);
    first.close();
    second.close();

    assertThat(recorder.failedIds()).isEmpty();
    assertThat(recorder.ackedIds()).containsExactlyInAnyOrder(0L, 1L, 2L, 10L, 11L, 12L);
    table.refresh();
    assertThat(table.schemas()).hasSize(2);
    List<Record> rows = TestTables.rows(table);
    assertThat(valuesById(rows, "score")).isEqualTo(expected(0L, null, 1L, 1.5,
        2L, 2.5, 10L, null, 11L, 11.5, 12L, 12.5));
    assertThat(zipsById(rows).values().stream().filter(v -> v != null).collect(Collectors.toList()))
        .containsExactly("z1", "z2", "z11", "z12");
  }

  /** The split sink's writer evolves the same way: the batch before the change goes out as its own descriptor. */
  @Test
  void theSplitSinkWriterSealsItsBatchAndEvolves() throws Exception {
    createTable(catalog("hadoop"));
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withCommitIntervalRecords(3).withSchemaEvolution(SchemaEvolution.ADD_AND_WIDEN).build();
    SinkTask writer = SinkTasks.openWriter(settings(options), new TaskIdentity("topology", "iceberg-writer", 10, 0, 1),
        recorder.collector(), clock::get);
    writer.execute(base.tuple(0L, "p0", 0, null));
    writer.execute(base.tuple(1L, "p1", 1, null));
    sendEvolved(writer, 2, 5);
    writer.close();

    assertThat(recorder.failedIds()).isEmpty();
    assertThat(recorder.emitted).as("one descriptor per schema").hasSize(2);
    assertThat(recorder.emitted.get(0).anchors()).hasSize(2);
    assertThat(recorder.emitted.get(1).anchors()).hasSize(3);
    table.refresh();
    assertThat(table.schema().findType("score")).isEqualTo(Types.DoubleType.get());
    assertThat(table.schema().findType("address.zip")).isEqualTo(Types.StringType.get());
  }
}
