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

import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.variants.Variant;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.PreflightReport;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A format-version 3 table written by the sink and read back by Iceberg's generic reader, an
 * independent reader of its files: nanosecond timestamps, a variant, an unknown column and a write
 * default, in each format that writes them.
 */
class FormatV3TableTest {
  static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "at", Types.TimestampNanoType.withZone()),
      Types.NestedField.optional(3, "doc", Types.VariantType.get()),
      Types.NestedField.optional(4, "u", Types.UnknownType.get()),
      Types.NestedField.optional(6, "local", Types.TimestampNanoType.withoutZone()),
      Types.NestedField.required("region").withId(5).ofType(Types.StringType.get()).withWriteDefault(Literal.of("eu")).build());
  static final Instant AT = Instant.parse("2026-11-01T10:15:30.123456789Z");

  @TempDir Path dir;
  final AtomicLong clock = new AtomicLong(1_000_000);

  Table createTable(Schema schema, String format) {
    Map<String, String> catalogProperties = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    return catalog.createTable(TableIdentifier.of("db", "events"), schema, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, "3", TableProperties.DEFAULT_FILE_FORMAT, format));
  }

  IcebergOptions options() {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(TestCatalogs.hadoop(dir))
        .withTable("db.events").withCommitIntervalRecords(3).build();
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "avro"})
  void theTableReadBackHoldsEveryNanosecondTheVariantsAndTheDefault(String format) throws Exception {
    Table table = createTable(SCHEMA, format);
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = SinkTasks.open(settings(options()), org.apache.storm.iceberg.kernel.SinkTaskTest.TASK, recorder.collector(), clock::get);
    Tuples full = new Tuples("id", "at", "doc", "region", "local");
    Tuples lacking = new Tuples("id", "at", "doc");
    sink.execute(full.tuple(1L, AT, "{\"k\": [1, \"two\"], \"n\": null}", "us", java.time.LocalDateTime.ofInstant(AT, java.time.ZoneOffset.UTC)));
    sink.execute(lacking.tuple(2L, AT.atOffset(java.time.ZoneOffset.ofHours(5)), Map.of("k", List.of(3))));
    sink.execute(lacking.tuple(3L, 1_793_528_130_123_456_789L, null));
    sink.close();
    assertThat(recorder.errors).as("errors reported").isEmpty();
    assertThat(recorder.ackedIds()).containsExactly(1L, 2L, 3L);

    table.refresh();
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
      read.forEach(rows::add);
    }
    rows.sort(java.util.Comparator.comparing(row -> (Long) row.getField("id")));
    assertThat(rows).extracting(row -> ((OffsetDateTime) row.getField("at")).toInstant()).containsOnly(AT);
    assertThat(rows).extracting(row -> row.getField("region")).containsExactly("us", "eu", "eu");
    assertThat(rows).extracting(row -> row.getField("u")).containsOnlyNulls();
    assertThat(rows.get(0).getField("local")).as("timestamp_ns keeps its nanoseconds")
        .isEqualTo(java.time.LocalDateTime.ofInstant(AT, java.time.ZoneOffset.UTC));
    Variant first = (Variant) rows.get(0).getField("doc");
    assertThat(first.value().asObject().get("k").asArray().get(1).asPrimitive().get()).isEqualTo("two");
    Variant second = (Variant) rows.get(1).getField("doc");
    assertThat(second.value().asObject().get("k").asArray().get(0).asPrimitive().get()).isEqualTo(3);
    assertThat(rows.get(2).getField("doc")).isNull();
  }

  @Test
  void aGeometryColumnIsRefusedAtPrepareAndByThePreflight() {
    createTable(new Schema(Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "shape", Types.GeometryType.crs84())), "parquet");
    String expected = "Table test.db.events has column shape of type geometry, which Iceberg 1.11.0's Parquet, Avro and ORC"
        + " writers cannot write: storm-iceberg cannot write this table; keep WKB in a binary column instead";

    assertThatThrownBy(() -> SinkTasks.open(settings(options()), org.apache.storm.iceberg.kernel.SinkTaskTest.TASK,
        new RecordingCollector().collector(), clock::get)).hasMessageContaining(expected);
    PreflightReport report = options().preflight();
    assertThat(report.line("format-version").status()).isEqualTo(PreflightReport.Status.PASS);
    assertThat(report.line("columns").status()).isEqualTo(PreflightReport.Status.FAIL);
    assertThat(report.line("columns").message()).isEqualTo(expected);
  }
}
