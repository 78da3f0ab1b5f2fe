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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.route.RoutedCommitterTask;
import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.kernel.task.CommitterTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The split sink routing, its two task halves wired by hand on a real HadoopCatalog: the writer's
 * descriptors each name their table, and the committer commits each table's group in an append of
 * its own, failing only the descriptors of a table whose commit failed, with a bounded set of tables open.
 */
class SplitRoutingTest {
  static final TaskIdentity WRITER = new TaskIdentity("topology", "iceberg-writer", 10, 0, 2);
  static final TaskIdentity COMMITTER = new TaskIdentity("topology", "iceberg-committer", 1, 0, 1);

  @TempDir Path dir;
  final AtomicLong clock = new AtomicLong(1_000_000);
  final Tuples events = new Tuples(TestTables.FIELDS);
  final Tuples descriptors = Tuples.from("iceberg-writer", IcebergWriterBolt.DESCRIPTOR_FIELD, IcebergWriterBolt.TABLE_FIELD);
  final RecordingCollector writerOut = new RecordingCollector();
  final RecordingCollector committerOut = new RecordingCollector();
  final Faults faults = Faults.create();
  Map<String, String> catalogProperties;
  Catalog catalog;

  @BeforeEach
  void catalog() {
    catalogProperties = TestCatalogs.hadoop(dir);
    catalog = TestCatalogs.load(catalogProperties);
  }

  IcebergOptions.Builder options(Map<String, String> catalog) {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalog)
        .withTableRouter("field", Map.of("template", "db.events_{region}"))
        // No Iceberg retries of a rejected commit: the test is about which tuples fail.
        .withAutoCreate(TestTables.SCHEMA, PartitionSpec.unpartitioned(), Map.of("commit.retry.num-retries", "0"))
        .withCommitRetries(0).withCommitIntervalRecords(10).withGroupCommitIntervalMillis(5_000);
  }

  RoutedSinkTask writer() {
    return RoutedSinkTask.open(settings(options(catalogProperties).build()),
        TaskEnvironment.detached(WRITER, writerOut.collector(), clock::get), (s, e, commits, handoffs) -> SinkTasks.openRoutedWriter(s, e, handoffs));
  }

  RoutedCommitterTask committer(IcebergOptions options) {
    return RoutedCommitterTask.open(settings(options), TaskEnvironment.detached(COMMITTER, committerOut.collector(), clock::get),
        CommitterTask::open);
  }

  /** Writes ids {@code 0..count-1}, every third one to us, the others to eu; returns the descriptors the writer emitted. */
  List<Tuple> write(int count) {
    RoutedSinkTask writer = writer();
    for (long id = 0; id < count; id++) {
      writer.execute(events.tuple(id, region(id), Instant.parse("2026-11-01T10:00:00Z"), "p"));
    }
    writer.close();
    List<Tuple> sent = new ArrayList<>();
    writerOut.emitted.forEach(e -> sent.add(descriptors.tuple(e.values().toArray())));
    return sent;
  }

  static String region(long id) {
    return id % 3 == 0 ? "us" : "eu";
  }

  static List<Long> ids(long count, String region) {
    List<Long> ids = new ArrayList<>();
    for (long id = 0; id < count; id++) {
      if (region(id).equals(region)) {
        ids.add(id);
      }
    }
    return ids;
  }

  Table table(String region) {
    return catalog.loadTable(TableIdentifier.of("db", "events_" + region));
  }

  static String tableOf(Tuple descriptor) {
    return descriptor.getStringByField(IcebergWriterBolt.TABLE_FIELD);
  }

  @Test
  void eachDescriptorNamesItsTableAndTheCommitterCommitsEachTablesGroupInItsOwnAppend() {
    List<Tuple> sent = write(60);
    // 40 eu tuples seal four times, each seal covering us: one descriptor per table per seal.
    assertThat(sent).extracting(SplitRoutingTest::tableOf)
        .containsExactly("db.events_eu", "db.events_us", "db.events_eu", "db.events_us", "db.events_eu", "db.events_us",
            "db.events_eu", "db.events_us");
    assertThat(writerOut.ackedIds()).hasSize(60);
    RoutedCommitterTask committer = committer(options(catalogProperties).build());
    sent.forEach(committer::execute);
    assertThat(committerOut.acked).isEmpty();

    clock.addAndGet(5_000);
    committer.execute(descriptors.tick());

    assertThat(committerOut.acked).containsExactlyInAnyOrderElementsOf(sent);
    assertThat(TestTables.ids(table("eu"))).containsExactlyInAnyOrderElementsOf(ids(60, "eu"));
    assertThat(TestTables.ids(table("us"))).containsExactlyInAnyOrderElementsOf(ids(60, "us"));
    for (String region : List.of("eu", "us")) {
      assertThat(TestTables.snapshots(table(region))).singleElement().satisfies(s -> assertThat(s.summary())
          .containsEntry("storm.iceberg.writer-batches", "4").containsEntry("storm.iceberg.component", "iceberg-committer"));
      assertThat(TestTables.walEntries(table(region))).isEmpty();
    }
    assertThat(table("eu").currentSnapshot().summary().get(IcebergOptions.COMMIT_ID_PROPERTY))
        .isNotEqualTo(table("us").currentSnapshot().summary().get(IcebergOptions.COMMIT_ID_PROPERTY));
    committer.close();
  }

  @Test
  void aCommitFaultOnOneTableFailsOnlyThatTablesDescriptorsAndTheOthersCommit() {
    List<Tuple> sent = write(60);
    faults.onlyTable = "db.events_us";
    faults.inject(Faults.CommitFault.FAIL_BEFORE, Integer.MAX_VALUE);
    RoutedCommitterTask committer = committer(options(FaultInjectingCatalog.properties(catalogProperties, faults)).build());
    sent.forEach(committer::execute);
    clock.addAndGet(5_000);
    committer.execute(descriptors.tick());

    List<Tuple> us = sent.stream().filter(d -> tableOf(d).equals("db.events_us")).toList();
    List<Tuple> eu = sent.stream().filter(d -> tableOf(d).equals("db.events_eu")).toList();
    assertThat(committerOut.failed).hasSize(4).containsExactlyInAnyOrderElementsOf(us);
    assertThat(committerOut.acked).hasSize(4).containsExactlyInAnyOrderElementsOf(eu);
    assertThat(faults.injected).hasValue(1);
    assertThat(TestTables.ids(table("eu"))).containsExactlyInAnyOrderElementsOf(ids(60, "eu"));
    assertThat(TestTables.ids(table("us"))).isEmpty();
    committer.close();
  }

  @Test
  void theCommitterCommitsAndClosesTheLeastRecentlyUsedTableToOpenOneMoreThanTheBound() {
    List<Tuple> sent = write(20);
    RoutedCommitterTask committer = committer(options(FaultInjectingCatalog.properties(catalogProperties, faults))
        .withMaxOpenTables(1).build());
    Tuple eu = sent.get(0);
    Tuple us = sent.get(1);
    committer.execute(eu);
    assertThat(committerOut.acked).isEmpty();

    committer.execute(us);

    assertThat(committer.openTables()).containsExactly("db.events_us");
    assertThat(committer.evictions()).isEqualTo(1);
    assertThat(committerOut.acked).containsExactly(eu);
    assertThat(TestTables.ids(table("eu"))).containsExactlyInAnyOrderElementsOf(ids(15, "eu"));
    assertThat(faults.catalogsClosed).hasValue(1);
    committer.close();
  }

  @Test
  void aDescriptorNamingNoTableOrOneOutsideTheAllowedNamespacesFailsAloneWithAClearError() {
    List<Tuple> sent = write(20);
    RoutedCommitterTask committer = committer(options(catalogProperties).withAllowedNamespaces(List.of("db")).build());
    Tuple unnamed = Tuples.from("iceberg-writer", IcebergWriterBolt.DESCRIPTOR_FIELD).tuple(sent.get(0).getString(0));
    Tuple elsewhere = descriptors.tuple(sent.get(0).getString(0), "other.events_eu");
    committer.execute(unnamed);
    committer.execute(elsewhere);
    committer.execute(sent.get(0));
    clock.addAndGet(5_000);
    committer.execute(descriptors.tick());

    assertThat(committerOut.failed).containsExactly(unnamed, elsewhere);
    assertThat(committerOut.acked).containsExactly(sent.get(0));
    assertThat(committerOut.errors).extracting(Throwable::getMessage).containsExactly(
        "Routing committer cannot use the descriptor from component 'iceberg-writer' task 1 (table null): it has no"
            + " field 'iceberg_table': subscribe the IcebergCommitterBolt to an IcebergWriterBolt's default stream",
        "Routing committer cannot use the descriptor from component 'iceberg-writer' task 1 (table other.events_eu):"
            + " the table router named 'other.events_eu', in namespace 'other', outside the allowed namespaces [db]"
            + " (withAllowedNamespaces)");
    committer.close();
  }

  @Test
  void aTableTheCommitterCannotOpenFailsItsDescriptorsWithoutReopeningForEach() {
    List<Tuple> sent = write(60);
    Tuple first = sent.get(0);
    Tuple second = sent.get(2);
    faults.loadFailure = new java.io.UncheckedIOException(new java.net.ConnectException("injected: catalog unreachable"));
    RoutedCommitterTask committer = committer(options(FaultInjectingCatalog.properties(catalogProperties, faults)).build());
    committer.execute(first);
    committer.execute(second);

    assertThat(committerOut.failed).containsExactly(first, second);
    assertThat(faults.catalogsOpened).as("one open tried for both descriptors").hasValue(1);
    assertThat(committerOut.errors).singleElement().satisfies(e -> assertThat(e).hasMessageContaining("injected: catalog unreachable"));

    // The catalog is back; once the failure expires, the table opens and its next descriptor commits.
    faults.loadFailure = null;
    clock.addAndGet(RoutedSinkTask.FAILED_OPEN_RETRY_MILLIS);
    committer.execute(first);
    clock.addAndGet(5_000);
    committer.execute(descriptors.tick());
    assertThat(committerOut.acked).containsExactly(first);
    assertThat(TestTables.ids(table("eu"))).hasSize(10);
    committer.close();
  }

  @Test
  void aBadRouteInTheWriterIsAMappingErrorOnItsDeadLetterStreamAndTheRestIsDescribed() {
    RoutedSinkTask writer = RoutedSinkTask.open(
        settings(options(catalogProperties).withAllowedNamespaces(List.of("db")).withDeadLetterStream("bad")
            .withTableRouter("field", Map.of("template", "{region}.events")).withCommitIntervalRecords(2).build()),
        TaskEnvironment.detached(WRITER, writerOut.collector(), clock::get), (s, e, commits, handoffs) -> SinkTasks.openRoutedWriter(s, e, handoffs));
    writer.execute(events.tuple(1L, "other", Instant.parse("2026-11-01T10:00:00Z"), "p"));
    writer.execute(events.tuple(2L, "db", Instant.parse("2026-11-01T10:00:00Z"), "p"));
    writer.execute(events.tuple(3L, "db", Instant.parse("2026-11-01T10:00:00Z"), "p"));

    assertThat(writerOut.failed).isEmpty();
    assertThat(writerOut.emitted).satisfiesExactly(
        letter -> {
          assertThat(letter.stream()).isEqualTo("bad");
          assertThat(letter.values().get(3)).isEqualTo("other.events");
          assertThat((String) letter.values().get(5)).contains("outside the allowed namespaces [db]");
        },
        descriptor -> {
          assertThat(descriptor.stream()).isEqualTo("default");
          assertThat(descriptor.values().get(1)).isEqualTo("db.events");
        });
    assertThat(writerOut.ackedIds()).containsExactly(1L, 2L, 3L);
    writer.close();
  }
}
