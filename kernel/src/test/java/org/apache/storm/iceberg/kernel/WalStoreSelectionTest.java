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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A table whose FileIO cannot list by prefix: the default WAL store refuses it, hadoop-fs serves it. */
class WalStoreSelectionTest {
  @TempDir Path dir;
  final Faults faults = Faults.create();
  final RecordingCollector recorder = new RecordingCollector();
  Map<String, String> catalogProperties;
  Table table;

  @BeforeEach
  void createTable() {
    Map<String, String> real = TestCatalogs.hadoop(dir);
    var catalog = TestCatalogs.load(real);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    catalogProperties = FaultInjectingCatalog.properties(real, faults);
    faults.hidePrefixListing = true;
  }

  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withCommitIntervalRecords(2);
  }

  @Test
  void theTableFileIoStoreRefusesAFileIoThatCannotListNamingTheAlternative() {
    assertThatThrownBy(() -> SinkTasks.open(settings(options().build()), SinkTaskTest.TASK, recorder.collector()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("WAL store 'table-fileio' needs a FileIO that can list by prefix, but table test.db.events uses")
        .hasMessageContaining("withWalStore(\"hadoop-fs\", Map.of(\"path\", ");
  }

  @Test
  void theHadoopFsStoreKeepsTheWalElsewhere() throws Exception {
    Path walRoot = dir.resolve("wal");
    SinkTask sink =
        SinkTasks.open(settings(options().withWalStore("hadoop-fs", Map.of("path", walRoot.toUri().toString())).build()),
            SinkTaskTest.TASK, recorder.collector());
    Tuples tuples = new Tuples(TestTables.FIELDS);
    sink.execute(tuples.tuple(1L, "eu", null, "p"));
    sink.execute(tuples.tuple(2L, "eu", null, "p"));

    assertThat(recorder.ackedIds()).containsExactly(1L, 2L);
    assertThat(TestTables.ids(table)).containsExactly(1L, 2L);
    assertThat(Files.isDirectory(walRoot)).as("the store wrote under its own path").isTrue();
    try (var files = Files.walk(walRoot)) {
      assertThat(files.filter(p -> p.toString().endsWith(".json"))).as("and cleaned up after the commit").isEmpty();
    }
    sink.close();
  }
}
