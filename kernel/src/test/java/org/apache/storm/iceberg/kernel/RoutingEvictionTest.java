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
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A routing task's open tables under their bound: an eviction that fails costs neither the
 * incoming tuple nor a catalog, the bound holds at every moment, evictions are counted, and a table
 * that cannot open is not opened again for every tuple routed to it.
 */
class RoutingEvictionTest {
  @TempDir Path dir;
  final Tuples tuples = new Tuples(TestTables.FIELDS);
  /** The most catalogs open at once, seen each time a table's task opened. */
  final AtomicInteger peakOpen = new AtomicInteger();
  RoutingFixture fixture;
  RecordingCollector recorder;
  Faults faults;

  @BeforeEach
  void start() {
    fixture = new RoutingFixture(dir);
    recorder = fixture.recorder;
    faults = fixture.faults;
  }

  IcebergOptions.Builder options() {
    return fixture.options("db.events_{region}");
  }

  RoutedSinkTask open(IcebergOptions options) {
    TaskEnvironment env = fixture.env(Map.of(), fixture.clock::get);
    return RoutedSinkTask.open(settings(options), env, (tableSettings, tableEnv, commitThread, handoffs) -> {
      SinkTask task = SinkTasks.open(tableSettings, tableEnv, commitThread, handoffs);
      peakOpen.accumulateAndGet(faults.catalogsOpened.get() - faults.catalogsClosed.get(), Math::max);
      return task;
    });
  }

  Tuple event(long id, String region) {
    return tuples.tuple(id, region, Instant.parse("2026-11-01T10:00:00Z"), "payload-" + id);
  }

  @Test
  void anEvictionWhoseCloseFailsCostsTheIncomingTupleNothingAndLeaksNoCatalog() {
    RoutedSinkTask sink = open(options().withMaxOpenTables(1).build());
    sink.execute(event(1, "eu"));
    faults.closeFailure = new IllegalStateException("injected: the catalog client failed to close");
    try (LogCapture log = new LogCapture()) {
      sink.execute(event(2, "us"));
      assertThat(log.lines).anySatisfy(line -> assertThat(line).contains("db.events_eu").contains("evict"));
    }
    faults.closeFailure = null;

    assertThat(recorder.failed).as("the incoming tuple is not blamed for the eviction").isEmpty();
    assertThat(recorder.ackedIds()).as("the evicted table's batch committed before its close failed").containsExactly(1L);
    assertThat(TestTables.ids(fixture.table("db", "events_eu"))).containsExactly(1L);
    assertThat(recorder.errors).extracting(Throwable::getMessage).noneMatch(m -> m.contains("Cannot open table"));
    assertThat(sink.openTables()).containsExactly("db.events_us");
    assertThat(peakOpen.get()).as("catalogs open at once under a bound of 1").isEqualTo(1);
    sink.close();
    assertThat(faults.catalogsClosed.get()).as("every catalog opened is closed").isEqualTo(faults.catalogsOpened.get());
  }

  @Test
  void theBoundHoldsAtEveryMomentAndEvictionsAreCounted() {
    RoutedSinkTask sink = open(options().withMaxOpenTables(2).build());
    String[] regions = {"eu", "us", "ap", "eu", "sa"};
    for (int i = 0; i < regions.length; i++) {
      sink.execute(event(i, regions[i]));
    }
    assertThat(peakOpen.get()).isEqualTo(2);
    assertThat(fixture.registry.counter("iceberg-tables-evicted").getCount()).isEqualTo(3);
    assertThat(recorder.failed).isEmpty();
    sink.close();
  }

  @Test
  void aTableThatCannotOpenIsNotOpenedAgainForEveryTupleUntilItsFailureExpires() {
    RoutedSinkTask sink = open(options().build());
    faults.takeDown();
    for (long id = 0; id < 3; id++) {
      sink.execute(event(id, "eu"));
    }
    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L);
    assertThat(faults.catalogsOpened.get()).as("one catalog open for three tuples").isEqualTo(1);

    faults.bringUp();
    fixture.clock.addAndGet(RoutedSinkTask.FAILED_OPEN_RETRY_MILLIS);
    sink.execute(event(3, "eu"));
    assertThat(recorder.failedIds()).containsExactly(0L, 1L, 2L);
    assertThat(sink.openTables()).containsExactly("db.events_eu");
    sink.close();
  }

  @Test
  void aTableTheCatalogForbidsIsABadRouteDeadLettered() {
    RoutedSinkTask sink = open(options().withDeadLetterStream("bad").withAllowedNamespaces(java.util.List.of("db"))
        .withTableRouter("field", Map.of("template", "db.{region}")).build());
    faults.loadFailure = new org.apache.iceberg.exceptions.ForbiddenException("injected: not allowed to load db.secret");
    sink.execute(event(1, "secret"));
    assertThat(recorder.failed).isEmpty();
    assertThat(recorder.ackedIds()).containsExactly(1L);
    assertThat((String) recorder.emitted.get(0).values().get(5)).contains("not allowed to load db.secret");
    sink.close();
  }
}
