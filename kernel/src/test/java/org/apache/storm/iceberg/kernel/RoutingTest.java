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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * IcebergBolt's routing task on a real HadoopCatalog: each tuple in the table its router names, one
 * seal for every table, each table committed, acked and failed on its own, the LRU bound, bad routes
 * and a crash between a routed table's WAL write and its commit.
 */
class RoutingTest {
  static final TaskIdentity TASK = new TaskIdentity("topology", "iceberg", 7, 0, 1);

  @TempDir Path dir;
  final AtomicLong clock = new AtomicLong(1_000_000);
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples tuples = new Tuples(TestTables.FIELDS);
  final Faults faults = Faults.create();
  Map<String, String> catalogProperties;
  Catalog catalog;

  void start() {
    Map<String, String> hadoop = TestCatalogs.hadoop(dir);
    catalogProperties = FaultInjectingCatalog.properties(hadoop, faults);
    catalog = TestCatalogs.load(hadoop);
  }

  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTableRouter("field", Map.of("template", "db.events_{region}"))
        .withAutoCreate(TestTables.SCHEMA, PartitionSpec.unpartitioned())
        .withCommitIntervalRecords(10);
  }

  RoutedSinkTask open(IcebergOptions options) {
    return RoutedSinkTask.open(settings(options), TaskEnvironment.detached(TASK, recorder.collector(), clock::get), SinkTasks::open);
  }

  Tuple event(long id, String region) {
    return tuples.tuple(id, region, Instant.parse("2026-11-01T10:00:00Z"), "payload-" + id);
  }

  List<Long> ids(String region) {
    return TestTables.ids(table(region));
  }

  Table table(String region) {
    return catalog.loadTable(TableIdentifier.of("db", "events_" + region));
  }

  static List<Long> range(long from, long toExclusive) {
    List<Long> ids = new ArrayList<>();
    for (long id = from; id < toExclusive; id++) {
      ids.add(id);
    }
    return ids;
  }

  @Test
  void eachTupleLandsInItsOwnTableAndOneSealCommitsEveryTableSeparately() {
    start();
    RoutedSinkTask sink = open(options().build());
    for (long id = 0; id < 4; id++) {
      sink.execute(event(100 + id, "us"));
    }
    for (long id = 0; id < 10; id++) {
      sink.execute(event(id, "eu"));
    }
    // eu crossed 10 records and sealed; the same seal covered us, with 4.
    assertThat(ids("eu")).containsExactlyInAnyOrderElementsOf(range(0, 10));
    assertThat(ids("us")).containsExactlyInAnyOrderElementsOf(range(100, 104));
    assertThat(TestTables.snapshots(table("eu"))).hasSize(1);
    assertThat(TestTables.snapshots(table("us"))).hasSize(1);
    assertThat(table("eu").currentSnapshot().summary()).containsKey(IcebergOptions.COMMIT_ID_PROPERTY);
    assertThat(table("us").currentSnapshot().summary().get(IcebergOptions.COMMIT_ID_PROPERTY))
        .isNotEqualTo(table("eu").currentSnapshot().summary().get(IcebergOptions.COMMIT_ID_PROPERTY));
    assertThat(recorder.ackedIds()).containsExactlyInAnyOrderElementsOf(
        concat(range(100, 104), range(0, 10)));
    assertThat(recorder.failed).isEmpty();
    sink.close();
  }

  @Test
  void theLeastRecentlyUsedTableIsSealedCommittedAndClosedToOpenOneMoreThanTheBound() {
    start();
    RoutedSinkTask sink = open(options().withCommitIntervalRecords(1_000).withMaxOpenTables(2).build());
    sink.execute(event(1, "eu"));
    sink.execute(event(2, "us"));
    sink.execute(event(3, "eu"));
    assertThat(sink.openTables()).containsExactly("db.events_us", "db.events_eu");
    assertThat(recorder.acked).isEmpty();

    sink.execute(event(4, "ap"));

    assertThat(sink.openTables()).containsExactly("db.events_eu", "db.events_ap");
    assertThat(sink.evictions()).isEqualTo(1);
    assertThat(ids("us")).containsExactly(2L);
    assertThat(recorder.ackedIds()).containsExactly(2L);
    assertThat(faults.catalogsClosed.get()).isEqualTo(1);
    // The evicted table opens again, and its next batch commits like any other.
    sink.execute(event(5, "us"));
    assertThat(sink.openTables()).containsExactly("db.events_ap", "db.events_us");
    assertThat(ids("eu")).containsExactlyInAnyOrder(1L, 3L);
    assertThat(recorder.ackedIds()).containsExactlyInAnyOrder(2L, 1L, 3L);
    sink.execute(tuples.tick());
    sink.close();
  }

  @Test
  void aCommitFaultOnOneTableFailsOnlyThatTablesTuplesAndTheOthersCommitOnTime() {
    start();
    faults.onlyTable = "db.events_us";
    faults.inject(Faults.CommitFault.FAIL_BEFORE, Integer.MAX_VALUE);
    // No Iceberg retries of the rejected commits: the test is about which tuples fail, not how late.
    RoutedSinkTask sink = open(options().withCommitRetries(0)
        .withAutoCreate(TestTables.SCHEMA, PartitionSpec.unpartitioned(), Map.of("commit.retry.num-retries", "0")).build());
    List<Long> eu = new ArrayList<>();
    List<Long> us = new ArrayList<>();
    for (long id = 0; id < 60; id++) {
      String region = id % 3 == 0 ? "us" : "eu";
      (region.equals("us") ? us : eu).add(id);
      sink.execute(event(id, region));
    }
    // 40 eu tuples: four seals of 10, each covering the us table's pending tuples.
    assertThat(ids("eu")).containsExactlyInAnyOrderElementsOf(eu);
    assertThat(TestTables.snapshots(table("eu"))).hasSize(4);
    assertThat(ids("us")).isEmpty();
    assertThat(recorder.ackedIds()).containsExactlyInAnyOrderElementsOf(eu);
    assertThat(recorder.failedIds()).containsExactlyInAnyOrderElementsOf(us);
    assertThat(recorder.failedIds()).hasSize(20);
    assertThat(recorder.ackedIds()).hasSize(40);
    sink.close();
  }

  @Test
  void aTupleRoutedToAnInvalidNameOrOutsideTheAllowedNamespacesIsAMappingError() {
    start();
    RoutedSinkTask sink = open(options()
        .withTableRouter("field", Map.of("template", "{region}.events"))
        .withAllowedNamespaces(List.of("eu", "us")).build());
    sink.execute(event(1, "ap"));
    sink.execute(event(2, "bad name"));
    sink.execute(event(3, null));
    sink.execute(event(4, "eu"));

    assertThat(recorder.failedIds()).containsExactly(1L, 2L, 3L);
    assertThat(recorder.errors).extracting(Throwable::getMessage).satisfiesExactly(
        m -> assertThat(m).startsWith("Cannot map tuple to table ap.events: the table router named 'ap.events', in"
            + " namespace 'ap', outside the allowed namespaces [eu, us] (withAllowedNamespaces)"),
        m -> assertThat(m).startsWith("Cannot map tuple to table (none: the router refused it): field 'region' holds"
            + " 'bad name', which cannot be part of a table name"),
        m -> assertThat(m).startsWith("Cannot map tuple to table (none: the router refused it):"
            + " field 'region' is null, so the table router cannot name a table"));
    assertThat(sink.openTables()).containsExactly("eu.events");
    sink.close();
  }

  @Test
  void withADeadLetterStreamABadRouteGoesThereAndIsAcked() {
    start();
    RoutedSinkTask sink = open(options().withAllowedNamespaces(List.of("db")).withDeadLetterStream("bad")
        .withTableRouter("field", Map.of("template", "{region}.events")).build());
    sink.execute(event(1, "other"));
    assertThat(recorder.failed).isEmpty();
    assertThat(recorder.ackedIds()).containsExactly(1L);
    assertThat(recorder.emitted).singleElement().satisfies(letter -> {
      assertThat(letter.stream()).isEqualTo("bad");
      assertThat(letter.values().get(3)).isEqualTo("other.events");
      assertThat((String) letter.values().get(5)).contains("outside the allowed namespaces [db]");
    });
    sink.close();
  }

  @Test
  void aMissingTableWithoutAutoCreateIsABadRoute() {
    start();
    RoutedSinkTask sink = open(new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTableRouter("field", Map.of("template", "db.events_{region}")).withDeadLetterStream("bad").build());
    sink.execute(event(1, "nowhere"));
    assertThat(recorder.ackedIds()).containsExactly(1L);
    assertThat((String) recorder.emitted.get(0).values().get(5)).contains("Table db.events_nowhere does not exist");
    sink.close();
  }

  @Test
  void withSchemaEvolutionARoutedTableIsCreatedFromTheFirstTuplesFields() {
    start();
    RoutedSinkTask sink = open(options().withAutoCreate(new org.apache.iceberg.Schema(), PartitionSpec.unpartitioned())
        .withSchemaEvolution(org.apache.storm.iceberg.SchemaEvolution.ADD_AND_WIDEN).withCommitIntervalRecords(2).build());
    sink.execute(event(1, "eu"));
    sink.execute(event(2, "eu"));
    assertThat(recorder.failed).isEmpty();
    assertThat(table("eu").schema().columns()).extracting(org.apache.iceberg.types.Types.NestedField::name)
        .containsExactly("id", "region", "event_time", "payload");
    assertThat(ids("eu")).containsExactly(1L, 2L);
    sink.close();
  }

  /** What a worker dying mid-commit looks like: nothing in the sink catches it. */
  static final class Crash extends Error {
    Crash() {
      super("injected: the worker died between the WAL write and the commit");
    }
  }

  @Test
  void aCrashBetweenARoutedTablesWalWriteAndItsCommitLosesNothingAndTheNextIncarnationDropsTheEntry() {
    start();
    AtomicBoolean crash = new AtomicBoolean(true);
    faults.duringCommit = () -> {
      if (crash.compareAndSet(true, false)) {
        throw new Crash();
      }
    };
    RoutedSinkTask first = open(options().build());
    List<Tuple> sent = new ArrayList<>();
    for (long id = 0; id < 3; id++) {
      sent.add(event(100 + id, "us"));
    }
    for (long id = 0; id < 10; id++) {
      sent.add(event(id, "eu"));
    }
    assertThatThrownBy(() -> sent.forEach(first::execute)).isInstanceOf(Crash.class);
    first.abandon();
    assertThat(recorder.acked).isEmpty();
    assertThat(recorder.failed).isEmpty();
    assertThat(TestTables.walEntries(table("eu"))).hasSize(1);
    assertThat(table("eu").currentSnapshot()).isNull();

    // Storm replays every tuple of the dead task (none was acked) to the next incarnation.
    RoutedSinkTask second = open(options().build());
    second.execute(event(200, "us"));
    assertThat(TestTables.walEntries(table("eu"))).as("eu not opened yet").hasSize(1);
    sent.forEach(second::execute);
    assertThat(TestTables.walEntries(table("eu"))).isEmpty();
    assertThat(ids("eu")).containsExactlyInAnyOrderElementsOf(range(0, 10));
    assertThat(ids("us")).containsExactlyInAnyOrder(200L, 100L, 101L, 102L);
    assertThat(recorder.ackedIds()).containsExactlyInAnyOrderElementsOf(
        concat(List.of(200L, 100L, 101L, 102L), range(0, 10)));
    second.close();
  }

  static List<Long> concat(List<Long> a, List<Long> b) {
    List<Long> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
