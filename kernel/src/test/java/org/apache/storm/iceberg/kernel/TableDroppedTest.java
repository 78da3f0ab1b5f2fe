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
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import static org.apache.storm.iceberg.OptionsInternals.settings;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.TableDroppedException;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A table dropped, or dropped and recreated under the same name, while a task writes it: on a real
 * HadoopCatalog and a real JdbcCatalog on SQLite, each changed by a second catalog instance, as
 * another engine would.
 */
class TableDroppedTest {
  static final TableIdentifier EVENTS = TableIdentifier.of("db", "events");

  @TempDir Path dir;
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples tuples = new Tuples(TestTables.FIELDS);
  final AtomicLong clock = new AtomicLong(1_000_000);
  final MetricRegistry registry = new MetricRegistry();
  Catalog other;
  Table table;
  SinkTask sink;

  void start(SinkTaskTest.CatalogKind kind) {
    Map<String, String> real =
        kind == SinkTaskTest.CatalogKind.HADOOP ? TestCatalogs.hadoop(dir) : TestCatalogs.jdbcSqlite(dir);
    other = TestCatalogs.load(real);
    ((SupportsNamespaces) other).createNamespace(Namespace.of("db"));
    table = other.createTable(EVENTS, TestTables.SCHEMA, PartitionSpec.unpartitioned());
    IcebergOptions options =
        new IcebergOptions.Builder()
            .withCatalogName("test")
            .withCatalogProperties(real)
            .withTable("db.events")
            .withCommitIntervalRecords(5)
            .withCommitRetries(2)
            .withCommitRetryBackoffMillis(10)
            .build();
    TaskEnvironment env =
        new TaskEnvironment(SinkTaskTest.TASK, recorder.collector(), clock::get, SinkMetrics.detached(registry, clock::get), Map.of());
    sink = SinkTasks.open(settings(options), env);
  }

  void send(long fromId, long toIdExclusive) {
    for (long id = fromId; id < toIdExclusive; id++) {
      sink.execute(tuples.tuple(id, "eu", null, "p"));
    }
  }

  long droppedCount() {
    return registry.counter("iceberg-table-dropped").getCount();
  }

  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void aTableDroppedMidBatchFailsTheBatchWithAnErrorNamingItAndKeepsItsWalEntry(SinkTaskTest.CatalogKind kind) {
    start(kind);
    send(0, 5);
    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    String uuid = table.uuid().toString();

    send(5, 8);
    other.dropTable(EVENTS, false);
    send(8, 10);

    assertThat(recorder.ackedIds()).as("nothing after the drop is acked").containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.failedIds()).containsExactly(5L, 6L, 7L, 8L, 9L);
    assertThat(recorder.errors).singleElement().isInstanceOfSatisfying(TableDroppedException.class, e -> {
      assertThat(e.getMessage()).startsWith("Table db.events (UUID " + uuid + ") was dropped from catalog 'test' while the topology ran");
      assertThat(e.recreated()).isFalse();
    });
    assertThat(droppedCount()).isEqualTo(1);
    assertThat(TestTables.walEntries(table)).as("the failed commit's WAL entry stays").hasSize(1);

    // While it is gone, no batch opens: each tuple is failed with the same error, and counted.
    send(10, 11);
    assertThat(recorder.failedIds()).endsWith(10L);
    assertThat(recorder.errors).hasSize(2).last().isInstanceOf(TableDroppedException.class);
    assertThat(droppedCount()).isEqualTo(2);
    sink.close();
  }

  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void aTableRecreatedUnderItsNameIsRefusedWithBothUuidsUntilTheTopologyRestarts(SinkTaskTest.CatalogKind kind) {
    start(kind);
    send(0, 5);
    send(5, 10);
    String oldUuid = table.uuid().toString();
    send(10, 12);

    other.dropTable(EVENTS, false);
    Table recreated = other.createTable(EVENTS, TestTables.SCHEMA, TestTables.REGION_DAY);
    String newUuid = recreated.uuid().toString();
    try (LogCapture logs = new LogCapture()) {
      send(12, 15);
      send(15, 16);

      assertThat(recorder.ackedIds()).hasSize(10);
      assertThat(recorder.failedIds()).as("the batch open across the recreation, then each new tuple")
          .containsExactly(10L, 11L, 12L, 13L, 14L, 15L);
      assertThat(recorder.errors).hasSize(2).allSatisfy(error ->
          assertThat(error).isInstanceOfSatisfying(TableDroppedException.class, e -> {
            assertThat(e.openedUuid()).isEqualTo(oldUuid);
            assertThat(e.currentUuid()).isEqualTo(newUuid);
            assertThat(e.getMessage()).contains("was dropped and recreated", "restart the topology");
          }));
      assertThat(logs.lines).filteredOn(line -> line.startsWith("WARN Table db.events was dropped and recreated"))
          .as("logged once, with both UUIDs").singleElement().asString().contains(oldUuid, newUuid);
    }
    assertThat(TestTables.snapshots(recreated)).as("nothing written into the new table").isEmpty();
    assertThat(droppedCount()).isEqualTo(2);
    sink.close();
  }

  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void aTableRecreatedAfterTheSinkSawItDroppedIsRefusedToo(SinkTaskTest.CatalogKind kind) {
    start(kind);
    send(0, 5);
    other.dropTable(EVENTS, false);
    send(5, 6);
    assertThat(recorder.errors).singleElement().isInstanceOf(TableDroppedException.class);

    // JdbcCatalog's table operations forget the old metadata once a refresh finds the table gone,
    // so Iceberg's own UUID check no longer applies to the next table of that name.
    Table recreated = other.createTable(EVENTS, TestTables.SCHEMA, PartitionSpec.unpartitioned());
    send(6, 11);

    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(recorder.failedIds()).containsExactly(5L, 6L, 7L, 8L, 9L, 10L);
    assertThat(recorder.errors).last().isInstanceOfSatisfying(TableDroppedException.class,
        e -> assertThat(e.currentUuid()).isEqualTo(recreated.uuid().toString()));
    assertThat(TestTables.snapshots(recreated)).isEmpty();
    sink.close();
  }
}
