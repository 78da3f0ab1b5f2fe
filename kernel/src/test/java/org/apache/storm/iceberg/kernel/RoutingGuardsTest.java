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

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a routing task refuses and when: a broken configuration at prepare, before any table opens;
 * router values that are not names, or would leave the template's namespace; and the dead-letter
 * budget, one window for the whole task. And the time threshold routing gets by default, without
 * which batches spread over many tables may never reach their record count.
 */
class RoutingGuardsTest {
  @TempDir Path dir;
  final Tuples tuples = new Tuples("id", "region", "event_time", "payload", "kind");
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
    return fixture.options("db.events_{kind}");
  }

  RoutedSinkTask open(IcebergOptions options, Map<String, Object> topologyConfig) {
    return fixture.open(options, topologyConfig);
  }

  RoutedSinkTask open(IcebergOptions options) {
    return fixture.open(options);
  }

  Tuple event(Object id, Object kind) {
    return tuples.tuple(id, "eu", Instant.parse("2026-11-01T10:00:00Z"), "payload-" + id, kind);
  }

  @Test
  void aTopologyConfigurationTheSinkCannotRunWithFailsPrepareBeforeAnyTableOpens() {
    Map<String, Object> conf = Map.of(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 30, Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
    assertThatThrownBy(() -> open(options().withCommitIntervalMillis(60_000).build(), conf))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("commit interval 60000 ms is not below topology.message.timeout.secs (30 s)");
    assertThatThrownBy(() -> open(options().withSpillDirectory(dir.resolve("missing").toString()).build()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("the spill directory for held ack ids, " + dir.resolve("missing") + ", is not a writable directory");
    assertThat(faults.catalogsOpened.get()).isZero();
  }

  /** A worker whose classpath lacks the multi-record mapper the client had: the task does not start. */
  @Test
  void aMultiRecordMapperMissingOnTheWorkerFailsPrepareBeforeAnyTableOpens() {
    IcebergOptions options = options().withMultiRecordMapper("json-array", Map.of("field", "payload")).build();
    ClassLoader worker = new ClassLoader(getClass().getClassLoader()) {
      @Override
      public java.util.Enumeration<java.net.URL> getResources(String name) throws java.io.IOException {
        return name.endsWith(org.apache.storm.iceberg.spi.MultiRecordMapperFactory.class.getName())
            ? java.util.Collections.emptyEnumeration() : super.getResources(name);
      }
    };
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    thread.setContextClassLoader(worker);
    try {
      assertThatThrownBy(() -> open(options))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("No multi-record mapper named 'json-array' on the classpath; found []");
    } finally {
      thread.setContextClassLoader(before);
    }
    assertThat(faults.catalogsOpened.get()).isZero();
  }

  @Test
  void aRouterValueThatIsNoNameOrWouldLeaveTheNamespaceIsABadRouteNamingTheValueAndTheRule() {
    RoutedSinkTask sink = open(options().build());
    sink.execute(event(1L, "x.y"));
    sink.execute(event(2L, "a/b"));
    sink.execute(event(3L, List.of("eu")));
    sink.execute(event(4L, "eu".getBytes(StandardCharsets.UTF_8)));
    sink.execute(event(5L, 42));
    sink.execute(event(6L, "us-east_1"));

    assertThat(recorder.failedIds()).containsExactly(1L, 2L, 3L);
    assertThat(recorder.errors).extracting(Throwable::getMessage).satisfiesExactly(
        m -> assertThat(m).startsWith("Cannot map tuple to table (none: the router refused it): field 'kind' holds"
            + " 'x.y', which cannot be part of a table name: a routed value may hold only letters, digits, '_' and '-'"
            + " (a '.' would move the row to another namespace)"),
        m -> assertThat(m).startsWith("Cannot map tuple to table (none: the router refused it): field 'kind' holds"
            + " 'a/b', which cannot be part of a table name"),
        m -> assertThat(m).startsWith("Cannot map tuple to table (none: the router refused it): field 'kind' holds a"
            + " java.util.ImmutableCollections$List12, which the table router cannot name a table by: route by a"
            + " string, number, boolean, enum or UTF-8 byte[] field"));
    assertThat(sink.openTables()).containsExactly("db.events_eu", "db.events_42", "db.events_us-east_1");
    sink.close();
  }

  @Test
  void aTemplateThatIsOnePlaceholderAloneTakesTheWholeNameDotsIncluded() {
    RoutedSinkTask sink = open(options().withTableRouter("field", Map.of("template", "{kind}")).build());
    sink.execute(event(1L, "db.whole"));
    assertThat(recorder.failed).isEmpty();
    assertThat(sink.openTables()).containsExactly("db.whole");
    sink.close();
  }

  @Test
  void aRoutingSinkWithoutATimeThresholdSealsAQuietTableAfterTheRoutingDefault() {
    assertThat(settings(options().build()).thresholds().millis()).isEqualTo(IcebergOptions.DEFAULT_ROUTED_COMMIT_INTERVAL_MILLIS);
    assertThat(settings(options().withCommitIntervalMillis(2_000).build()).thresholds().millis()).isEqualTo(2_000);
    RoutedSinkTask sink = open(options().build());
    sink.execute(event(1L, "eu"));
    sink.execute(event(2L, "us"));
    fixture.clock.addAndGet(IcebergOptions.DEFAULT_ROUTED_COMMIT_INTERVAL_MILLIS);
    sink.execute(tuples.tick());
    assertThat(recorder.ackedIds()).containsExactlyInAnyOrder(1L, 2L);
    assertThat(TestTables.ids(fixture.table("db", "events_us"))).containsExactly(2L);
    sink.close();
  }

  @Test
  void theDeadLetterBudgetIsOneWindowForTheTaskWhateverTablesOpenAndClose() {
    RoutedSinkTask sink = open(options().withDeadLetterStream("bad").withMaxDeadLetterFraction(0.2, 10)
        .withMaxOpenTables(1).build());
    for (int i = 0; i < 10; i++) {
      // "not a number" cannot go in the long column id: each tuple is a bad record of its table.
      sink.execute(event("not a number " + i, i % 2 == 0 ? "eu" : "us"));
    }
    assertThat(recorder.emitted).filteredOn(e -> e.stream().equals("bad")).hasSize(2);
    assertThat(recorder.failed).hasSize(8);
    sink.close();
  }

  @Test
  void aTopologyWarningIsLoggedOncePerTaskNotOncePerTable() {
    Map<String, Object> conf = Map.of(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 30, Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1,
        Config.TOPOLOGY_MAX_SPOUT_PENDING, 500);
    try (org.apache.storm.iceberg.testing.LogCapture log = new org.apache.storm.iceberg.testing.LogCapture()) {
      RoutedSinkTask sink = open(options().build(), conf);
      sink.execute(event(1L, "eu"));
      sink.execute(event(2L, "us"));
      sink.execute(event(3L, "ap"));
      assertThat(sink.openTables()).hasSize(3);
      assertThat(log.lines).filteredOn(line -> line.contains("topology.max.spout.pending (500 per spout task")).hasSize(1);
      sink.close();
    }
  }
}
