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
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in seal policies, chosen by name, sealing batches of a real partitioned table. */
class SealPolicyTest {
  static final String[] REGIONS = {"eu", "us", "apac", "latam"};

  @TempDir Path dir;
  final AtomicLong clock = new AtomicLong(1_800_000_059_000L);
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples tuples = new Tuples(TestTables.FIELDS);
  Map<String, String> catalogProperties;
  Table table;

  @BeforeEach
  void createTable() {
    catalogProperties = TestCatalogs.hadoop(dir);
    var catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, TestTables.REGION_DAY);
  }

  SinkTask open(IcebergOptions.Builder options) {
    return SinkTasks.open(
        settings(options.withCatalogName("test").withCatalogProperties(catalogProperties).withTable("db.events").build()),
        new TaskIdentity("topology", "iceberg", 1, 0, 1),
        recorder.collector(),
        clock::get);
  }

  void sendRegion(SinkTask sink, long id) {
    sink.execute(tuples.tuple(id, REGIONS[(int) (id % REGIONS.length)], Instant.parse("2026-11-01T10:00:00Z"), "p"));
  }

  @Test
  void openFilesSealsOnceABatchSpansMoreThanItsPartitionLimit() {
    SinkTask sink =
        open(new IcebergOptions.Builder().withCommitIntervalRecords(1_000).withSealPolicy("open-files", Map.of("max-partitions", "3")));

    for (long id = 0; id < 3; id++) {
      sendRegion(sink, id);
    }
    assertThat(TestTables.snapshots(table)).isEmpty();
    sendRegion(sink, 3);

    List<Snapshot> snapshots = TestTables.snapshots(table);
    assertThat(snapshots).hasSize(1);
    assertThat(snapshots.get(0).summary()).containsEntry("added-data-files", "4").containsEntry("added-records", "4");
    assertThat(recorder.acked).hasSize(4);
    sink.close();
  }

  @Test
  void openFilesAlsoBoundsFilesOpenedWithinOnePartition() {
    SinkTask sink = open(new IcebergOptions.Builder().withSealPolicy("open-files", Map.of("max-open-files", "1")));
    sendRegion(sink, 0);
    sendRegion(sink, 4); // same partition: still one file
    assertThat(TestTables.snapshots(table)).isEmpty();
    sendRegion(sink, 1);
    assertThat(TestTables.snapshots(table)).hasSize(1);
    sink.close();
  }

  @Test
  void wallClockSealsAtTheFirstTickAfterABoundary() {
    SinkTask sink = open(new IcebergOptions.Builder().withSealPolicy("wall-clock", Map.of("every-ms", "60000")));
    sendRegion(sink, 0); // at hh:mm:59.000
    clock.addAndGet(999);
    sink.execute(tuples.tick());
    assertThat(TestTables.snapshots(table)).isEmpty();

    clock.addAndGet(1); // the full minute
    sink.execute(tuples.tick());
    assertThat(TestTables.snapshots(table)).hasSize(1);
    assertThat(recorder.acked).hasSize(1);

    // A batch opened just after the boundary runs to the next one.
    sendRegion(sink, 1);
    clock.addAndGet(59_999);
    sink.execute(tuples.tick());
    assertThat(TestTables.snapshots(table)).hasSize(1);
    clock.addAndGet(1);
    sendRegion(sink, 2);
    assertThat(TestTables.snapshots(table)).hasSize(2);
    sink.close();
  }

  @Test
  void amongSeveralPoliciesTheFirstCrossedWins() {
    SinkTask sink =
        open(new IcebergOptions.Builder()
            .withCommitIntervalRecords(3)
            .withSealPolicy("open-files", Map.of("max-partitions", "10"))
            .withSealPolicy("wall-clock", Map.of("every-ms", "3600000")));
    for (long id = 0; id < 3; id++) {
      sendRegion(sink, id);
    }
    assertThat(TestTables.snapshots(table)).singleElement().satisfies(s -> assertThat(s.summary()).containsEntry("added-records", "3"));
    sink.close();
  }

  @Test
  void aSealPolicyAloneReplacesTheDefaultRecordThreshold() {
    IcebergOptions options =
        new IcebergOptions.Builder().withCatalogProperties(catalogProperties).withTable("db.events")
            .withSealPolicy("wall-clock", Map.of("every-ms", "60000")).build();
    assertThat(options.commitIntervalRecords()).isZero();
  }

  @Test
  void badPolicyChoicesFailAtBuild() {
    IcebergOptions.Builder options = new IcebergOptions.Builder().withCatalogProperties(catalogProperties).withTable("db.events");
    assertThatThrownBy(() -> options.withSealPolicy("every-hour", Map.of()).build())
        .hasMessageStartingWith("No seal policy named 'every-hour' on the classpath; found [age, bytes, open-files, records, wall-clock].");
    assertThatThrownBy(() -> new IcebergOptions.Builder().withCatalogProperties(catalogProperties).withTable("db.events")
            .withSealPolicy("open-files", Map.of("max-files", "3")).build())
        .hasMessage("seal policy 'open-files' does not know properties [max-files]; it takes [max-open-files, max-partitions]");
    assertThatThrownBy(() -> new IcebergOptions.Builder().withCatalogProperties(catalogProperties).withTable("db.events")
            .withSealPolicy("wall-clock", Map.of("every-ms", "a minute")).build())
        .hasMessage("seal policy 'wall-clock': every-ms 'a minute' is not a whole number");
  }
}
