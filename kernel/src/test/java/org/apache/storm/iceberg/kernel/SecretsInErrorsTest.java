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
import org.apache.storm.iceberg.spi.RedactedException;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.jdbc.UncheckedSQLException;
import org.apache.logging.log4j.Level;
import org.apache.storm.iceberg.IcebergBolt;
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
 * Passwords that Iceberg's JDBC catalog and its driver echo in their errors (a JDBC URL, a property)
 * appear in no line the sink logs, at any level, and in nothing it reports to Storm, neither in
 * messages nor causes nor suppressed errors; a password given by reference is not in the topology.
 */
class SecretsInErrorsTest {
  private static final String URL_PASSWORD = "url-pw-S3CRET-5";
  private static final String PROPERTY_PASSWORD = "prop-pw-S3CRET-6";
  private static final String FILE_PASSWORD = "file-pw-S3CRET-7";

  @TempDir Path dir;

  @Test
  void unreachableJdbcCatalogFailsPrepareWithoutItsPassword() {
    Map<String, String> properties = Map.of(
        "type", "jdbc",
        "uri", "jdbc:postgresql://sink:" + URL_PASSWORD + "@127.0.0.1:1/iceberg?password=" + URL_PASSWORD,
        "jdbc.user", "sink",
        "jdbc.password", PROPERTY_PASSWORD,
        "warehouse", dir.resolve("warehouse").toUri().toString());
    IcebergOptions options =
        new IcebergOptions.Builder().withCatalogProperties(properties).withTable("db.events").build();
    RecordingCollector recorder = new RecordingCollector();

    Throwable thrown;
    List<String> logs;
    try (LogCapture capture = new LogCapture("org.apache.storm.iceberg", Level.TRACE)) {
      thrown = catchThrowable(() -> SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector()));
      logs = List.copyOf(capture.lines);
    }

    String trace = stackTrace(thrown);
    assertThat(trace)
        .as("what prepare throws, which Storm logs and reports")
        .contains("org.apache.iceberg.jdbc.UncheckedSQLException: Failed to connect: jdbc:postgresql://****@127.0.0.1:1/iceberg?password=****")
        .doesNotContain(URL_PASSWORD)
        .doesNotContain(PROPERTY_PASSWORD);
    assertThat(String.join("\n", logs)).doesNotContain(URL_PASSWORD).doesNotContain(PROPERTY_PASSWORD);
    assertThat(recorder.errors).extracting(SecretsInErrorsTest::stackTrace).noneMatch(t -> t.contains(URL_PASSWORD));
  }

  @Test
  void commitErrorsEchoingPasswordsAreLoggedAndReportedMasked() {
    String url = "jdbc:sqlite:" + dir.resolve("catalog.db").toAbsolutePath() + "?password=" + URL_PASSWORD;
    Map<String, String> real = new HashMap<>(TestCatalogs.jdbcSqlite(dir));
    real.put("uri", url);
    real.put("jdbc.password", PROPERTY_PASSWORD);
    Table table = createTable(real);
    Faults faults = Faults.create();
    // The driver loses its connection twice, echoing the URL and the password in its errors: the
    // commit's answer is lost, then the settler's retry fails the same way.
    AtomicInteger commits = new AtomicInteger();
    faults.duringCommit = () -> {
      int call = commits.incrementAndGet();
      if (call <= 2) {
        UncheckedSQLException lost = new UncheckedSQLException(
            new SQLException("FATAL: password " + PROPERTY_PASSWORD + " rejected"), "Failed to connect: %s", url);
        throw call == 1 ? new CommitStateUnknownException(lost) : lost;
      }
    };
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test")
        .withCatalogProperties(FaultInjectingCatalog.properties(real, faults))
        .withTable("db.events").withCommitIntervalRecords(2).withCommitRetries(1).withCommitRetryBackoffMillis(1)
        .build();
    RecordingCollector recorder = new RecordingCollector();
    Tuples tuples = new Tuples(TestTables.FIELDS);

    List<String> logs;
    try (LogCapture capture = new LogCapture("org.apache.storm.iceberg", Level.TRACE)) {
      SinkTask sink = SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector());
      for (long id = 1; id <= 4; id++) {
        sink.execute(tuples.tuple(id, "eu", null, "p"));
      }
      sink.close();
      logs = List.copyOf(capture.lines);
    }

    assertThat(commits).as("both faults were met, then a commit went through").hasValueGreaterThanOrEqualTo(3);
    assertThat(TestTables.ids(table)).as("the second batch landed").containsExactlyInAnyOrder(3L, 4L);
    assertThat(recorder.errors).as("the first batch's error was reported").isNotEmpty();
    String reported = String.join("\n", recorder.errors.stream().map(SecretsInErrorsTest::stackTrace).toList());
    assertThat(reported)
        .as("types, messages and stack traces stay readable")
        .contains("org.apache.iceberg.exceptions.CommitStateUnknownException: Failed to connect: jdbc:sqlite:")
        .contains("Suppressed: org.apache.storm.iceberg.spi.RedactedException: "
            + "org.apache.iceberg.jdbc.UncheckedSQLException: Failed to connect: jdbc:sqlite:")
        .contains("java.sql.SQLException: FATAL: password **** rejected")
        .contains("at org.apache.storm.iceberg.testing.FaultInjectingCatalog");
    String logged = String.join("\n", logs);
    assertThat(logged).contains("?password=****");
    for (String secret : List.of(URL_PASSWORD, PROPERTY_PASSWORD)) {
      assertThat(reported).as("reported errors").doesNotContain(secret);
      assertThat(logged).as("log lines").doesNotContain(secret);
    }
  }

  @Test
  void passwordGivenByReferenceIsResolvedOnTheWorkerAndNeverInTheTopology() throws Exception {
    Path secretFile = Files.writeString(dir.resolve("catalog-password"), FILE_PASSWORD + "\n");
    Map<String, String> real = new HashMap<>(TestCatalogs.jdbcSqlite(dir));
    Table table = createTable(real);
    real.put("jdbc.password", "file:" + secretFile);
    Faults faults = Faults.create();
    AtomicInteger commits = new AtomicInteger();
    faults.duringCommit = () -> {
      if (commits.incrementAndGet() == 1) {
        // Definite ("not applied"), so the batch fails and the error is reported whatever the settler retries.
        throw new CommitFailedException("driver: authentication with %s timed out", FILE_PASSWORD);
      }
    };
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test")
        .withCatalogProperties(FaultInjectingCatalog.properties(real, faults))
        .withTable("db.events").withCommitIntervalRecords(2).withCommitRetryBackoffMillis(1).build();
    RecordingCollector recorder = new RecordingCollector();
    Tuples tuples = new Tuples(TestTables.FIELDS);

    List<String> logs;
    try (LogCapture capture = new LogCapture("org.apache.storm.iceberg", Level.TRACE)) {
      SinkTask sink = SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector());
      for (long id = 1; id <= 4; id++) {
        sink.execute(tuples.tuple(id, "eu", null, "p"));
      }
      sink.close();
      logs = List.copyOf(capture.lines);
    }

    assertThat(faults.catalogProperties).as("the catalog was built with the file's content")
        .containsEntry(FaultInjectingCatalog.DELEGATE_PREFIX + "jdbc.password", FILE_PASSWORD);
    assertThat(TestTables.ids(table)).contains(3L, 4L);
    assertThat(recorder.errors).as("the echoing error was reported").isNotEmpty();
    assertThat(serialized(new IcebergBolt(options))).as("the bolt as Nimbus stores it").doesNotContain(FILE_PASSWORD);
    assertThat(options.toString()).doesNotContain(FILE_PASSWORD).contains("jdbc.password=file:" + secretFile);
    assertThat(String.join("\n", recorder.errors.stream().map(SecretsInErrorsTest::stackTrace).toList()))
        .as("a secret read on the worker is masked too").contains("authentication with **** timed out")
        .doesNotContain(FILE_PASSWORD);
    assertThat(String.join("\n", logs)).doesNotContain(FILE_PASSWORD);
  }

  private static Table createTable(Map<String, String> catalogProperties) {
    var catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    return catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.COMMIT_NUM_RETRIES, "0"));
  }

  static String stackTrace(Throwable error) {
    java.io.StringWriter text = new java.io.StringWriter();
    error.printStackTrace(new java.io.PrintWriter(text));
    return text.toString();
  }

  private static String serialized(Object topologyPart) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(topologyPart);
    }
    return new String(bytes.toByteArray(), StandardCharsets.ISO_8859_1);
  }
}
