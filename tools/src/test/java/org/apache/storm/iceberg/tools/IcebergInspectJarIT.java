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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tools jar as an operator runs it on a Storm host: {@code java -jar}, in a JVM of its own with
 * nothing else on its classpath (no Storm, no {@code $(hadoop classpath)}), against a real table.
 */
class IcebergInspectJarIT {
  @TempDir Path warehouse;

  static Path jar() throws IOException {
    try (var files = Files.list(Paths.get("target"))) {
      return files.filter(p -> p.getFileName().toString().matches("storm-iceberg-tools-.*\\.jar")).findFirst().orElseThrow();
    }
  }

  static String text(JarFile jar, String entry) throws IOException {
    assertThat(jar.getEntry(entry)).as(entry).isNotNull();
    return new String(jar.getInputStream(jar.getEntry(entry)).readAllBytes(), StandardCharsets.UTF_8);
  }

  record Run(int exitCode, String stdout, String stderr) {}

  static Run javaJar(String... args) throws Exception {
    return java(Map.of(), List.of("-jar", jar().toString()), args);
  }

  /** Runs {@code java} with {@code jvmArgs} (a jar or a class path and main class) and {@code args}, in {@code environment} over this one's. */
  static Run java(Map<String, String> environment, List<String> jvmArgs, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(jvmArgs);
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    builder.environment().putAll(environment);
    Process process = builder.start();
    var stdout = process.getInputStream().readAllBytes();
    var stderr = process.getErrorStream().readAllBytes();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("java -jar exits within 60 s").isTrue();
    return new Run(process.exitValue(), new String(stdout, StandardCharsets.UTF_8), new String(stderr, StandardCharsets.UTF_8));
  }

  @Test
  void javaDashJarReportsOnATableInAHadoopCatalog() throws Exception {
    InspectedTable inspected = InspectedTable.create(warehouse);

    Run run = javaJar("--catalog", "type=hadoop", "--catalog", "warehouse=" + warehouse.toUri(), "--table", InspectedTable.NAME);

    assertThat(run.exitCode()).as("exit code; stderr:\n%s", run.stderr()).isZero();
    assertThat(run.stdout())
        .contains("table storm_iceberg.db.events at " + inspected.table().location())
        .contains(inspected.lastCommitId())
        .contains("pending WAL entries (1)")
        .contains("commit crashed-commit, age ")
        .contains(inspected.pendingFile().location())
        .contains("SMALL FILES: commit less often");
  }

  @Test
  void aMissingTableExitsWithTwoAndWhatToCheck() throws Exception {
    Run noTable = javaJar("--catalog", "type=hadoop", "--catalog", "warehouse=" + warehouse.toUri(), "--table", "db.missing");
    assertThat(noTable.exitCode()).isEqualTo(2);
    assertThat(noTable.stderr()).startsWith("Table does not exist: db.missing: check --table and the catalog properties");
  }

  @Test
  void theJarCarriesItsMainClassTheServiceFilesAndTheBundledNotices() throws IOException {
    try (JarFile jar = new JarFile(jar().toFile())) {
      assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo(IcebergTools.class.getName());
      assertThat(new String(jar.getInputStream(jar.getEntry("META-INF/services/org.apache.storm.iceberg.spi.WalStoreFactory"))
          .readAllBytes(), StandardCharsets.UTF_8)).contains("TableFileIoWalStoreFactory", "HadoopFsWalStoreFactory");
      assertThat(text(jar, "META-INF/NOTICE")).contains("Apache Storm Iceberg (storm-iceberg)", "Apache Hadoop", "Apache Commons");
      assertThat(text(jar, "NOTICE")).as("the notices at the root of Iceberg's jars").contains("Apache Iceberg");
      assertThat(text(jar, "META-INF/LICENSE")).as("this project's license first, then the bundled ones")
          .startsWith("\n                                 Apache License");
      assertThat(text(jar, "META-INF/LICENSE.txt")).as("a bundled dependency's BSD license").contains("BSD");
      assertThat(jar.getEntry("org/apache/iceberg/rest/RESTCatalog.class")).as("the REST catalog").isNotNull();
      assertThat(jar.getEntry("org/sqlite/JDBC.class")).as("SQLite's JDBC driver").isNotNull();
      assertThat(jar.getEntry("org/postgresql/Driver.class")).as("PostgreSQL's JDBC driver").isNotNull();
      assertThat(jar.getEntry("org/apache/storm/topology/TopologyBuilder.class")).as("Storm's client, for check").isNotNull();
      assertThat(jar.getEntry("org/apache/storm/flux/parser/FluxParser.class")).as("Flux's parser, for check --flux").isNotNull();
      assertThat(jar.getEntry("log4j2.xml")).as("no log4j configuration: warnings go to stderr through slf4j-simple").isNull();
    }
  }
}
