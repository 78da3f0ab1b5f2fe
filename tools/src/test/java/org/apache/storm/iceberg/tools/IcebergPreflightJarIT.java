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


package org.apache.storm.iceberg.tools;

import static org.apache.storm.iceberg.tools.IcebergInspectJarIT.java;
import static org.apache.storm.iceberg.tools.IcebergInspectJarIT.javaJar;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.testing.RestCatalogServer;
import org.apache.storm.iceberg.testing.S3MockServer;
import org.apache.storm.iceberg.tools.IcebergInspectJarIT.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check}, as an operator runs it before submitting: {@code java -jar} in a JVM of its own,
 * against real catalogs (Hadoop, JDBC on SQLite and on PostgreSQL, REST). Each check fails once, with
 * its fix on its line and exit status 1; bad arguments exit 2; secrets never reach the output.
 */
class IcebergPreflightJarIT {
  static final Schema SCHEMA = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "region", Types.StringType.get()));

  @TempDir Path dir;

  Table createTable(Map<String, String> catalogProperties) {
    Catalog catalog = CatalogUtil.buildIcebergCatalog("storm_iceberg", catalogProperties, new org.apache.hadoop.conf.Configuration());
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    return catalog.createTable(TableIdentifier.of("db", "events"), SCHEMA, PartitionSpec.unpartitioned());
  }

  Map<String, String> hadoop() {
    return Map.of("type", "hadoop", "warehouse", dir.resolve("warehouse").toUri().toString());
  }

  Map<String, String> sqlite() {
    return Map.of("type", "jdbc", "uri", "jdbc:sqlite:" + dir.resolve("catalog.db"), "jdbc.schema-version", "V1",
        "warehouse", dir.resolve("warehouse").toUri().toString());
  }

  /** An options file of the catalog properties, the table and {@code more} YAML lines. */
  Path optionsFile(Map<String, String> catalog, String... more) throws Exception {
    String catalogLines = catalog.entrySet().stream().map(e -> "  " + e.getKey() + ": \"" + e.getValue() + "\"")
        .collect(Collectors.joining("\n"));
    Path file = Files.createTempFile(dir, "sink", ".yaml");
    Files.writeString(file, "catalog:\n" + catalogLines + "\ntable: db.events\n" + String.join("\n", more) + "\n");
    return file;
  }

  static String line(Run run, String check) {
    return run.stdout().lines().filter(l -> l.matches("(PASS|WARN|FAIL) +" + check + " .*")).findFirst()
        .orElseThrow(() -> new AssertionError("no line " + check + " in\n" + run.stdout() + "\nstderr:\n" + run.stderr()));
  }

  @Test
  void aSinkThatWouldRunPassesEveryCheckAndLeavesNothingBehind() throws Exception {
    Table table = createTable(hadoop());

    Run run = javaJar("check", "--options", optionsFile(hadoop()).toString());

    assertThat(run.exitCode()).as("stdout:\n%s\nstderr:\n%s", run.stdout(), run.stderr()).isZero();
    for (String check : List.of("secrets", "catalog", "table", "format-version", "columns", "write-mode", "branch", "mapper", "format", "hadoop",
        "data-files", "wal")) {
      assertThat(line(run, check)).startsWith("PASS");
    }
    assertThat(line(run, "topology")).startsWith("WARN  topology       not checked: the topology is not known here");
    assertThat(run.stdout()).endsWith("preflight passed\n");
    assertThat(run.stderr()).as("nothing logged").isEmpty();
    table.refresh();
    assertThat(table.currentSnapshot()).isNull();
    try (var files = Files.walk(Path.of(java.net.URI.create(table.location())))) {
      assertThat(files.filter(Files::isRegularFile).map(Path::toString).filter(name -> !name.contains("/metadata/v")
          && !name.endsWith("version-hint.text") && !name.endsWith(".crc")).toList()).as("no probe left").isEmpty();
    }
  }

  @Test
  void aMissingTableFailsWithTheFixAndExitsOne() throws Exception {
    Run run = javaJar("check", "--options", optionsFile(sqlite()).toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(line(run, "table")).isEqualTo("FAIL  table          Table db.events does not exist in catalog 'storm_iceberg' and"
        + " auto-create is off: create the table, or set withAutoCreate(schema, spec) (Flux auto-create)");
    assertThat(run.stdout()).endsWith("preflight FAILED: 1 check(s) to fix\n");
  }

  @Test
  void autoCreateShowsTheTableItWouldCreateAndCreatesNothing() throws Exception {
    Run run = javaJar("check", "--options", optionsFile(hadoop(), "auto-create:", "  schema: [\"id long required\", \"region string\"]",
        "  spec: [\"region\"]").toString());

    assertThat(run.exitCode()).as("stdout:\n%s\nstderr:\n%s", run.stdout(), run.stderr()).isZero();
    assertThat(line(run, "table")).startsWith("PASS  table          does not exist: auto-create would create it (nothing was"
        + " created): format v2, 2 columns [id (long), region (string)], partitioned by [identity(region)]");
    assertThat(line(run, "data-files")).startsWith("PASS");
    assertThat(dir.resolve("warehouse")).as("the probes' directories are gone").doesNotExist();
  }

  @Test
  void anEnvironmentReferenceIsCheckedByNameAndItsValueNeverPrinted() throws Exception {
    createTable(sqlite());
    Map<String, String> catalog = new java.util.HashMap<>(sqlite());
    catalog.put("jdbc.password", "env:PREFLIGHT_IT_PASSWORD");
    Path options = optionsFile(catalog);

    Run unset = javaJar("check", "--options", options.toString());
    assertThat(unset.exitCode()).isEqualTo(1);
    assertThat(line(unset, "secrets")).isEqualTo("FAIL  secrets        Catalog property 'jdbc.password' refers to environment"
        + " variable PREFLIGHT_IT_PASSWORD, which is not set on this worker; set it in the environment the supervisor starts"
        + " workers with");

    Run set = java(Map.of("PREFLIGHT_IT_PASSWORD", "pw-V4LUE-never-shown"), List.of("-jar", IcebergInspectJarIT.jar().toString()),
        "check", "--options", options.toString());
    assertThat(set.exitCode()).as("stdout:\n%s\nstderr:\n%s", set.stdout(), set.stderr()).isZero();
    assertThat(line(set, "secrets")).isEqualTo("PASS  secrets        resolvable on this host: jdbc.password"
        + " (env:PREFLIGHT_IT_PASSWORD) (workers resolve them on their own hosts)");
    assertThat(set.stdout() + set.stderr()).doesNotContain("pw-V4LUE-never-shown");
  }

  @Test
  void theRestCatalogIsCheckedOverHttp() throws Exception {
    try (RestCatalogServer rest = new RestCatalogServer(dir.resolve("rest"))) {
      createTable(rest.clientProperties());
      Run run = javaJar("check", "--options", optionsFile(rest.clientProperties()).toString());
      assertThat(run.exitCode()).as("stdout:\n%s\nstderr:\n%s", run.stdout(), run.stderr()).isZero();
      assertThat(line(run, "catalog")).startsWith("PASS  catalog        catalog 'storm_iceberg' loaded (RESTCatalog)");
    }
  }

  /** The jar with S3FileIO beside it (iceberg-aws and its bundle), as a user runs it for tables on S3. */
  static List<String> jarWithS3FileIo() throws Exception {
    String aws = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> entry.contains("iceberg-aws")).collect(Collectors.joining(File.pathSeparator));
    return List.of("-cp", IcebergInspectJarIT.jar() + File.pathSeparator + aws, IcebergTools.class.getName());
  }

  @Test
  // Long tier: starting S3Mock's JVM is most of its time; the quick tier probes S3 in the kernel's PreflightTest.
  @EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
  void aTableOnS3IsProbedThroughS3FileIoAndAMissingBucketFails() throws Exception {
    S3MockServer s3 = S3MockServer.shared();
    Map<String, String> catalog = new java.util.HashMap<>(sqlite());
    catalog.putAll(s3.fileIoProperties());
    catalog.put("warehouse", s3.newWarehouse());
    createTable(catalog);

    Run run = java(Map.of(), jarWithS3FileIo(), "check", "--options", optionsFile(catalog).toString());
    assertThat(run.exitCode()).as("stdout:\n%s\nstderr:\n%s", run.stdout(), run.stderr()).isZero();
    assertThat(line(run, "data-files")).startsWith("PASS  data-files     wrote, read and deleted a probe file in s3://")
        .endsWith("through S3FileIO");
    assertThat(run.stdout() + run.stderr()).doesNotContain(S3MockServer.SECRET_ACCESS_KEY);

    Map<String, String> noBucket = new java.util.HashMap<>(catalog);
    noBucket.put("warehouse", "s3://no-such-bucket/warehouse");
    noBucket.put("uri", "jdbc:sqlite:" + dir.resolve("other.db"));
    Run failing = java(Map.of(), jarWithS3FileIo(), "check", "--options",
        optionsFile(noBucket, "auto-create:", "  schema: [\"id long required\"]").toString());
    assertThat(failing.exitCode()).isEqualTo(1);
    assertThat(line(failing, "data-files")).startsWith("FAIL");
  }

  @Test
  void aCatalogThatCannotBeReachedFailsAndTheRestSaysWhyItWasNotChecked() throws Exception {
    Run run = javaJar("check", "--options", optionsFile(Map.of("type", "rest", "uri", "http://127.0.0.1:9/catalog",
        "token", "tok-N3VER-printed")).toString());
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(line(run, "catalog")).startsWith("FAIL");
    assertThat(line(run, "table")).isEqualTo("WARN  table          not checked: the catalog did not load");
    assertThat(run.stdout() + run.stderr()).doesNotContain("tok-N3VER-printed");
  }

  @Test
  void optionsTheSinkRefusesAreOneFailingLine() throws Exception {
    Run run = javaJar("check", "--options", optionsFile(hadoop(), "commit-interval-recrods: 10").toString());
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(line(run, "options")).startsWith("FAIL  options        ").contains("commit-interval-recrods");
  }

  @Test
  void aWalStoreThatCannotListFailsTheWalProbe() throws Exception {
    Map<String, String> catalog = new java.util.HashMap<>(hadoop());
    createTable(catalog);
    catalog.put("io-impl", NonListingFileIO.class.getName());
    // The jar and this module's test classes (where the FileIO is), as a user adds a plug-in.
    Run run = java(Map.of(), List.of("-cp", IcebergInspectJarIT.jar() + File.pathSeparator + "target/test-classes",
        IcebergTools.class.getName()), "check", "--options", optionsFile(catalog).toString());
    assertThat(run.exitCode()).as("stdout:\n%s\nstderr:\n%s", run.stdout(), run.stderr()).isEqualTo(1);
    assertThat(line(run, "wal")).startsWith("FAIL  wal            WAL store 'table-fileio' needs a FileIO that can list by prefix");
    assertThat(line(run, "data-files")).startsWith("PASS");
  }

  @Test
  void withoutHadoopParquetFailsAndSaysWhatToShip() throws Exception {
    // This module's test class path without Hadoop's jars; the table's files in memory.
    String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.contains("hadoop-client")).collect(Collectors.joining(File.pathSeparator));
    Map<String, String> catalog = new java.util.HashMap<>(sqlite());
    catalog.put("io-impl", "org.apache.iceberg.inmemory.InMemoryFileIO");
    Run run = java(Map.of(), List.of("-cp", classPath, IcebergTools.class.getName()), "check", "--options",
        optionsFile(catalog, "auto-create:", "  schema: [\"id long required\"]").toString());
    assertThat(run.exitCode()).as("stdout:\n%s\nstderr:\n%s", run.stdout(), run.stderr()).isEqualTo(1);
    assertThat(line(run, "hadoop")).isEqualTo("FAIL  hadoop         parquet files are written with Hadoop's client classes,"
        + " which are not on this classpath: ship hadoop-client-api and hadoop-client-runtime with the topology (storm jar"
        + " --artifacts), or write avro (withFileFormat(\"avro\"))");
  }

  @Test
  void aFluxComponentIsCheckedWithItsTopologysConfiguration() throws Exception {
    createTable(hadoop());
    String flux = """
        name: "preflight-flux"
        config:
          topology.message.timeout.secs: %d
        components:
          - id: "icebergOptions"
            className: "org.apache.storm.iceberg.IcebergOptions"
            factory: "fromMap"
            factoryArgs:
              - catalog:
                  type: "hadoop"
                  warehouse: "${warehouse}"
                table: "db.events"
                commit-deadline-margin-millis: 5000
        spouts:
          - id: "events"
            className: "com.example.NotOnThisClasspath"
            parallelism: 1
        bolts:
          - id: "iceberg"
            className: "org.apache.storm.iceberg.IcebergBolt"
            constructorArgs:
              - ref: "icebergOptions"
            parallelism: 2
        streams:
          - from: "events"
            to: "iceberg"
            grouping:
              type: SHUFFLE
        """;
    Path properties = dir.resolve("dev.properties");
    Files.writeString(properties, "warehouse=" + dir.resolve("warehouse").toUri() + "\n");
    Path fits = dir.resolve("fits.yaml");
    Files.writeString(fits, flux.formatted(30));
    Path tooShort = dir.resolve("too-short.yaml");
    Files.writeString(tooShort, flux.formatted(5));

    Run run = javaJar("check", "--flux", fits.toString(), "--component", "iceberg", "--filter", properties.toString());
    assertThat(run.exitCode()).as("stdout:\n%s\nstderr:\n%s", run.stdout(), run.stderr()).isZero();
    assertThat(run.stdout()).startsWith("PASS  component      'iceberg' runs IcebergBolt in 2 task(s)\n");
    assertThat(line(run, "topology")).startsWith("PASS");

    Run failing = javaJar("check", "--flux", tooShort.toString(), "--component", "icebergOptions", "--filter", properties.toString());
    assertThat(failing.exitCode()).isEqualTo(1);
    assertThat(line(failing, "topology")).startsWith("FAIL  topology       ").contains("topology.message.timeout.secs");
  }

  @Test
  void badArgumentsExitTwoWithTheUsage() throws Exception {
    Run noValue = javaJar("check", "--options");
    assertThat(noValue.exitCode()).isEqualTo(2);
    assertThat(noValue.stderr()).startsWith("--options needs a value\nusage: java -jar storm-iceberg-tools.jar check|inspect");

    Run both = javaJar("check", "--options", "a.yaml", "--flux", "b.yaml", "--component", "x");
    assertThat(both.exitCode()).isEqualTo(2);
    assertThat(both.stderr()).startsWith("give either --options FILE or --flux FILE --component ID");

    Run missingFile = javaJar("check", "--options", dir.resolve("missing.yaml").toString());
    assertThat(missingFile.exitCode()).isEqualTo(2);
    assertThat(missingFile.stderr()).startsWith("cannot read " + dir.resolve("missing.yaml"));

    Run unknownCommand = javaJar("chekc");
    assertThat(unknownCommand.exitCode()).isEqualTo(2);
    assertThat(unknownCommand.stderr()).startsWith("unknown command chekc");
  }

  @Test
  @EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
  void postgresqlWithAWrongPasswordFailsTheCatalogWithoutPrintingIt() throws Exception {
    try (PostgresServer postgres = PostgresServer.start(dir, "pg-R1GHT-pass")) {
      Map<String, String> catalog = Map.of("type", "jdbc", "uri", postgres.jdbcUri(), "jdbc.user", PostgresServer.USER,
          "jdbc.password", "pg-R1GHT-pass", "warehouse", dir.resolve("warehouse").toUri().toString());
      createTable(catalog);
      Run right = javaJar("check", "--options", optionsFile(catalog).toString());
      assertThat(right.exitCode()).as("stdout:\n%s\nstderr:\n%s", right.stdout(), right.stderr()).isZero();
      assertThat(line(right, "catalog")).startsWith("PASS  catalog        catalog 'storm_iceberg' loaded (JdbcCatalog)");

      Map<String, String> wrong = new java.util.HashMap<>(catalog);
      wrong.put("jdbc.password", "pg-WR0NG-pass");
      Run failing = javaJar("check", "--options", optionsFile(wrong).toString());
      assertThat(failing.exitCode()).isEqualTo(1);
      assertThat(line(failing, "catalog")).startsWith("FAIL").contains("password authentication failed for user \"postgres\"");
      assertThat(failing.stdout() + failing.stderr()).doesNotContain("pg-WR0NG-pass").doesNotContain("pg-R1GHT-pass");
    }
  }
}
