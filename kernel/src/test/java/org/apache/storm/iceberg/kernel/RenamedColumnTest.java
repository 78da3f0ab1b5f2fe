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
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A column renamed from outside while the sink runs keeps the values producers still send under its
 * former name, on the internal-row path (Parquet) and the generic one (Avro); fields that match no
 * column are counted and logged once. Real Hadoop-catalog tables, with the default field-name mapper.
 */
class RenamedColumnTest {
  static final Instant TIME = Instant.parse("2026-11-01T10:00:00Z");

  @TempDir Path dir;
  final MetricRegistry registry = new MetricRegistry();
  final AtomicLong clock = new AtomicLong(1_000_000);
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples tuples = new Tuples(TestTables.FIELDS);
  Map<String, String> catalogProperties;
  Catalog catalog;
  Table table;

  @BeforeEach
  void createTable() {
    catalogProperties = TestCatalogs.hadoop(dir);
    catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
  }

  SinkTask open(String format) {
    IcebergOptions options =
        new IcebergOptions.Builder()
            .withCatalogName("test")
            .withCatalogProperties(catalogProperties)
            .withTable("db.events")
            .withFileFormat(format)
            .withCommitIntervalRecords(2)
            .build();
    return SinkTasks.open(
        settings(options),
        new TaskEnvironment(SinkTaskTest.TASK, recorder.collector(), clock::get, SinkMetrics.detached(registry, clock::get), Map.of()));
  }

  void send(SinkTask sink, Tuples from, long fromId, long toId) {
    for (long id = fromId; id < toId; id++) {
      sink.execute(from == tuples ? from.tuple(id, "eu", TIME, "payload-" + id) : from.tuple(id, "eu", TIME, "payload-" + id, "x"));
    }
  }

  static Map<Long, Object> valuesById(List<Record> rows, String column) {
    Map<Long, Object> values = new java.util.TreeMap<>();
    rows.forEach(r -> values.put((Long) r.getField("id"), r.getField(column)));
    return values;
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "avro"})
  void tuplesStillCarryingTheFormerNameFillTheRenamedColumn(String format) {
    SinkTask sink = open(format);
    send(sink, tuples, 0, 2);
    table.updateSchema().renameColumn("payload", "body").commit();
    send(sink, tuples, 2, 4);
    sink.close();

    assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L);
    assertThat(recorder.failedIds()).isEmpty();
    assertThat(valuesById(TestTables.rows(table), "body"))
        .isEqualTo(Map.of(0L, "payload-0", 1L, "payload-1", 2L, "payload-2", 3L, "payload-3"));
    assertThat(registry.counter("iceberg-fields-unmatched").getCount()).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "avro"})
  void aCurrentNameWinsOverAFormerOne(String format) {
    SinkTask sink = open(format);
    table.updateSchema().renameColumn("payload", "body").commit();
    table.updateSchema().addColumn("payload", Types.StringType.get()).commit();
    send(sink, tuples, 0, 2);
    sink.close();

    List<Record> rows = TestTables.rows(table);
    assertThat(valuesById(rows, "payload")).isEqualTo(Map.of(0L, "payload-0", 1L, "payload-1"));
    assertThat(valuesById(rows, "body")).containsOnlyKeys(0L, 1L).containsValues((Object) null);
    assertThat(registry.counter("iceberg-fields-unmatched").getCount()).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "avro"})
  void aFieldMatchingNoColumnIsCountedAndLoggedOncePerSchema(String format) {
    Tuples withExtra = new Tuples("id", "region", "event_time", "payload", "extra");
    SinkTask sink = open(format);
    try (LogCapture logs = new LogCapture()) {
      send(sink, withExtra, 0, 6);
      assertThat(registry.counter("iceberg-fields-unmatched").getCount()).isEqualTo(1);
      table.updateSchema().renameColumn("payload", "body").commit();
      send(sink, withExtra, 6, 10);
      sink.close();

      // A new schema id is a new table shape: the field is reported for it once more.
      assertThat(registry.counter("iceberg-fields-unmatched").getCount()).isEqualTo(2);
      assertThat(logs.lines.stream().filter(l -> l.contains("'extra'")))
          .containsExactly(
              "WARN Tuple field 'extra' matches no column of table test.db.events (schema id 0), under a current or"
                  + " a former name: its values are not written. Add the column, or rename the field in the stream;"
                  + " logged once per field and schema, counted in iceberg-fields-unmatched",
              "WARN Tuple field 'extra' matches no column of table test.db.events (schema id 1), under a current or"
                  + " a former name: its values are not written. Add the column, or rename the field in the stream;"
                  + " logged once per field and schema, counted in iceberg-fields-unmatched");
    }
    assertThat(recorder.ackedIds()).hasSize(10);
    assertThat(valuesById(TestTables.rows(table), "body").values()).doesNotContainNull();
  }
}
