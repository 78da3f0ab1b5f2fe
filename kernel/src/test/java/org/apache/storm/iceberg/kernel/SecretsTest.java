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

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.logging.log4j.Level;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Catalog credentials, tokens, passwords and secret keys never appear in logs (every logger, INFO
 * and above, over a whole run with faults and bad input), exceptions, {@code toString()}, WAL
 * entries or snapshot summaries.
 */
class SecretsTest {
  static final List<String> SECRETS = List.of("pw-S3CRET-1", "tok-S3CRET-2", "cred-S3CRET-3", "key-S3CRET-4");

  @TempDir Path dir;

  @Test
  void noSecretLeavesTheCatalogProperties() throws Exception {
    Map<String, String> real = new HashMap<>(TestCatalogs.jdbcSqlite(dir));
    real.put("jdbc.user", "sink");
    real.put("jdbc.password", "pw-S3CRET-1");
    real.put("token", "tok-S3CRET-2");
    real.put("credential", "client:cred-S3CRET-3");
    real.put("s3.secret-access-key", "key-S3CRET-4");
    var catalog = TestCatalogs.load(real);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.COMMIT_NUM_RETRIES, "0"));
    Faults faults = Faults.create();
    List<String> walContents = new ArrayList<>();
    faults.duringCommit = () -> walContents.addAll(readAll(TestTables.walEntries(table)));
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test")
        .withCatalogProperties(FaultInjectingCatalog.properties(real, faults))
        .withTable("db.events").withCommitIntervalRecords(2).withCommitRetryBackoffMillis(1).build();
    RecordingCollector recorder = new RecordingCollector();
    Tuples tuples = new Tuples(TestTables.FIELDS);

    List<String> logs;
    try (LogCapture capture = new LogCapture("", Level.INFO)) {
      SinkTask sink = SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector());
      sink.execute(tuples.tuple(1L, "eu", null, "p"));
      sink.execute(tuples.tuple(2L, "eu", null, "p"));
      faults.inject(Faults.CommitFault.UNKNOWN_AFTER, 1);
      sink.execute(tuples.tuple(3L, "eu", null, "p"));
      sink.execute(tuples.tuple(4L, "eu", null, "p"));
      faults.inject(Faults.CommitFault.FAIL_BEFORE, 1);
      sink.execute(tuples.tuple(5L, "eu", null, "p"));
      sink.execute(tuples.tuple(6L, "eu", null, "p"));
      sink.execute(tuples.tuple(null, "eu", null, "p"));
      faults.inject(Faults.CommitFault.UNREACHABLE, 1);
      sink.execute(tuples.tuple(7L, "eu", null, "p"));
      sink.execute(tuples.tuple(8L, "eu", null, "p"));
      faults.clear();
      sink.close();
      SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector()).close();
      logs = List.copyOf(capture.lines);
    }

    assertThat(recorder.acked).as("the run committed").isNotEmpty();
    assertThat(recorder.errors).as("the run hit errors").hasSizeGreaterThanOrEqualTo(3);
    assertThat(walContents).as("WAL entries were written").isNotEmpty();
    List<String> exceptions = recorder.errors.stream().map(SecretsTest::stackTrace).toList();
    List<String> summaries = new ArrayList<>();
    table.refresh();
    for (Snapshot snapshot : table.snapshots()) {
      summaries.add(snapshot.summary().toString());
    }
    for (String secret : SECRETS) {
      assertThat(String.join("\n", logs)).as("logs").doesNotContain(secret);
      assertThat(String.join("\n", exceptions)).as("exceptions").doesNotContain(secret);
      assertThat(options.toString()).as("toString").doesNotContain(secret);
      assertThat(String.join("\n", walContents)).as("WAL entries").doesNotContain(secret);
      assertThat(String.join("\n", summaries)).as("snapshot summaries").doesNotContain(secret);
    }
  }

  private static List<String> readAll(List<Path> files) {
    List<String> contents = new ArrayList<>();
    for (Path file : files) {
      try {
        contents.add(Files.readString(file, StandardCharsets.UTF_8));
      } catch (java.io.IOException e) {
        // deleted between listing and reading: it was settled
      }
    }
    return contents;
  }

  private static String stackTrace(Throwable error) {
    StringWriter text = new StringWriter();
    error.printStackTrace(new PrintWriter(text));
    return text.toString();
  }
}
