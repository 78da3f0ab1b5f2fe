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
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStoreFactory;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sink's metrics against known runs on a real table: counters follow outcomes, not exceptions. */
class SinkMetricsTest {
  @TempDir Path dir;
  final MetricRegistry registry = new MetricRegistry();
  final AtomicLong clock = new AtomicLong(1_000_000);
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples tuples = new Tuples(TestTables.FIELDS);
  final Faults faults = Faults.create();
  Map<String, String> realCatalog;
  Table table;

  @BeforeEach
  void createTable() {
    realCatalog = TestCatalogs.hadoop(dir);
    var catalog = TestCatalogs.load(realCatalog);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.COMMIT_NUM_RETRIES, "0"));
  }

  SinkTask open(int records) {
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test")
        .withCatalogProperties(FaultInjectingCatalog.properties(realCatalog, faults))
        .withTable("db.events").withCommitIntervalRecords(records).build();
    TaskEnvironment env = new TaskEnvironment(SinkTaskTest.TASK, recorder.collector(), clock::get,
        SinkMetrics.detached(registry, clock::get), Map.of());
    return SinkTasks.open(settings(options), env);
  }

  long count(String name) {
    return registry.counter(name).getCount();
  }

  Object gauge(String name) {
    return registry.getGauges().get(name).getValue();
  }

  void send(SinkTask sink, long from, long to) {
    for (long id = from; id < to; id++) {
      sink.execute(tuples.tuple(id, "eu", null, "payload-" + id));
    }
  }

  @Test
  void aCleanRunCountsRecordsFilesAndBytes() {
    SinkTask sink = open(5);
    send(sink, 0, 7);
    assertThat(count("iceberg-records-written")).as("published when the first batch sealed").isEqualTo(5);
    sink.execute(tuples.tick());
    assertThat(count("iceberg-records-written")).as("published on a tick").isEqualTo(7);
    assertThat(gauge("iceberg-pending-data-files")).isEqualTo(0);
    send(sink, 7, 10);

    long committedBytes = 0;
    for (var snapshot : TestTables.snapshots(table)) {
      for (DataFile file : SnapshotChanges.builderFor(table).snapshot(snapshot).build().addedDataFiles()) {
        committedBytes += file.fileSizeInBytes();
      }
    }
    assertThat(count("iceberg-records-written")).isEqualTo(10);
    assertThat(count("iceberg-data-files-sealed")).isEqualTo(2);
    assertThat(count("iceberg-data-files-committed")).isEqualTo(2);
    assertThat(count("iceberg-bytes-committed")).isEqualTo(committedBytes).isPositive();
    assertThat(registry.timer("iceberg-seal-latency").getCount()).isEqualTo(2);
    assertThat(registry.timer("iceberg-commit-latency").getCount()).isEqualTo(2);
    assertThat(count("iceberg-commit-failures")).isZero();
    assertThat(count("iceberg-commits-resolved-after-error")).isZero();
    assertThat(gauge("iceberg-oldest-pending-age-ms")).isEqualTo(0L);
    sink.close();
  }

  @Test
  void recordsWrittenTrailTheTaskByFewRecordsAndAreExactAtASealAndAtClose() {
    SinkTask sink = open(50);
    for (int id = 0; id < 70; id++) {
      send(sink, id, id + 1);
      long written = id + 1;
      assertThat(count("iceberg-records-written"))
          .as("after %d records", written)
          .isBetween(written - SinkTask.RECORDS_PER_CLOCK_READ + 1, written);
      if (written == 50) {
        assertThat(count("iceberg-records-written")).as("exact when the batch seals").isEqualTo(50);
      }
    }
    sink.close();
    assertThat(count("iceberg-records-written")).as("exact when the task closes").isEqualTo(70);
  }

  @Test
  void aCommitThatLandedDespiteAnErrorIsResolvedNotAFailure() {
    SinkTask sink = open(5);
    faults.inject(Faults.CommitFault.UNKNOWN_AFTER, 1);
    send(sink, 0, 5);
    assertThat(count("iceberg-commits-resolved-after-error")).isEqualTo(1);
    assertThat(count("iceberg-commit-failures")).isZero();
    assertThat(count("iceberg-data-files-committed")).isEqualTo(1);
    sink.close();
  }

  @Test
  void aCommitThatFailedCountsOnceAndCommitsNothing() {
    SinkTask sink = open(5);
    faults.inject(Faults.CommitFault.FAIL_BEFORE, 1);
    send(sink, 0, 5);
    assertThat(recorder.failed).hasSize(5);
    assertThat(count("iceberg-commit-failures")).isEqualTo(1);
    assertThat(count("iceberg-data-files-committed")).isZero();
    assertThat(count("iceberg-bytes-committed")).isZero();
    sink.close();
  }

  @Test
  void theOldestPendingAgeGrowsWithTheBatchAndKeepsReportingDuringTheCommit() {
    SinkTask sink = open(5);
    List<Object> seenMidCommit = new CopyOnWriteArrayList<>();
    faults.duringCommit = () -> {
      seenMidCommit.add(gauge("iceberg-oldest-pending-age-ms"));
      seenMidCommit.add(gauge("iceberg-pending-data-files"));
    };
    send(sink, 0, 1);
    clock.addAndGet(3_000);
    assertThat(gauge("iceberg-oldest-pending-age-ms")).isEqualTo(3_000L);
    clock.addAndGet(1_000);
    send(sink, 1, 5);

    assertThat(seenMidCommit).containsExactly(4_000L, 1);
    assertThat(gauge("iceberg-oldest-pending-age-ms")).isEqualTo(0L);
    sink.close();
  }

  @Test
  void staleWalEntriesDroppedAtStartupAreCounted() {
    var store = ProviderRegistry.find(WalStoreFactory.class, "table-fileio", getClass().getClassLoader()).create(Map.of());
    WalScope scope = new WalScope(table, "default", "topology", "iceberg", 0);
    for (String id : List.of("a", "b")) {
      store.put(scope, id, DataFilesCodec.encode(new DataFilesCodec.Entry(id, table.name(), "iceberg", 0, 1L, List.of()), table.specs()));
    }
    SinkTask sink = open(5);
    assertThat(count("iceberg-wal-entries-dropped")).isEqualTo(2);
    sink.close();
  }
}
