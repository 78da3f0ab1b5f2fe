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
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.RestCatalogServer;
import org.apache.storm.iceberg.testing.RestFaultProxy;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The REST catalog behind a misbehaving gateway, over real HTTP: whatever the gateway does to a
 * commit, the batch is acked once and its rows appear exactly once.
 */
class RestFaultProxyTest {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({
    "APPLY_THEN_ANSWER, 502", "APPLY_THEN_ANSWER, 503", "APPLY_THEN_ANSWER, 504",
    "ANSWER_WITHOUT_FORWARDING, 502", "ANSWER_WITHOUT_FORWARDING, 503", "ANSWER_WITHOUT_FORWARDING, 504",
    "ANSWER_THEN_APPLY_LATE, 504",
    // Codes the REST client maps to no Iceberg error of its own: a plain RESTException, ambiguous.
    "ANSWER_WITHOUT_FORWARDING, 499", "ANSWER_THEN_APPLY_LATE, 408", "ANSWER_THEN_APPLY_LATE, 524"
  })
  void aGatewayNeverCausesALossOrADuplicate(RestFaultProxy.Mode mode, int code) throws Exception {
    try (RestCatalogServer rest = new RestCatalogServer(dir.resolve("rest"));
        RestFaultProxy proxy = new RestFaultProxy(rest.uri())) {
      Map<String, String> catalogProperties = Map.of("type", "rest", "uri", proxy.uri());
      var catalog = TestCatalogs.load(catalogProperties);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
      Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
      RecordingCollector recorder = new RecordingCollector();
      SinkTask sink = SinkTasks.open(
          settings(new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
              .withTable("db.events").withCommitIntervalRecords(5).withCommitRetryBackoffMillis(600).build()),
          SinkTaskTest.TASK, recorder.collector());
      Tuples tuples = new Tuples(TestTables.FIELDS);

      proxy.nextCommit(mode, code);
      for (long id = 0; id < 5; id++) {
        sink.execute(tuples.tuple(id, "eu", null, "p"));
      }

      assertThat(recorder.ackedIds()).containsExactly(0L, 1L, 2L, 3L, 4L);
      assertThat(recorder.failed).isEmpty();
      if (mode == RestFaultProxy.Mode.ANSWER_THEN_APPLY_LATE) {
        // Wait until the late request has reached the catalog, applied or refused.
        Deadline.await(Duration.ofSeconds(10), () -> proxy.lateApplied.get() + proxy.commitsForwarded.get() >= 1,
            () -> "the late commit to reach the catalog");
      }
      assertThat(TestTables.snapshots(table)).hasSize(1);
      assertThat(TestTables.ids(table)).containsExactly(0L, 1L, 2L, 3L, 4L);
      sink.close();
    }
  }
}
