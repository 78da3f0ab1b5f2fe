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
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A bytes threshold holds for large tuples: a batch runs past it by about one tuple, not by 1000. */
class LargeTuplesTest {
  static final int MIB = 1 << 20;
  static final long THRESHOLD = 16L * MIB;

  @TempDir Path dir;
  final RecordingCollector recorder = new RecordingCollector();
  // Tuples of their own, not the shared Tuples': its registry would keep these megabytes for the JVM's life.
  final GeneralTopologyContext context =
      new GeneralTopologyContext(new StormTopology(), new HashMap<>(), Map.of(1, "events"), Map.of("events", List.of(1)),
          Map.of("events", Map.of("default", new Fields(TestTables.FIELDS))), "test-1");
  final Random random = new Random(16);

  @ParameterizedTest
  @EnumSource(SinkTaskTest.CatalogKind.class)
  void oneMebibyteTuplesSealWithinATupleOfASixteenMebibyteThreshold(SinkTaskTest.CatalogKind kind) {
    Map<String, String> catalogProperties =
        kind == SinkTaskTest.CatalogKind.HADOOP ? TestCatalogs.hadoop(dir) : TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    // Uncompressed, so the files hold what the writers counted.
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.PARQUET_COMPRESSION, "uncompressed"));
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withCommitIntervalBytes(THRESHOLD).build();
    SinkTask sink = SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector(), System::currentTimeMillis);

    for (long id = 0; id < 40; id++) {
      sink.execute(oneMebibyteTuple(id));
    }
    sink.close();

    List<Snapshot> snapshots = TestTables.snapshots(table);
    assertThat(snapshots).as("40 MiB of tuples against a 16 MiB threshold").hasSize(2);
    for (Snapshot snapshot : snapshots) {
      long size = Long.parseLong(snapshot.summary().get("added-files-size"));
      assertThat(size).as("bytes of snapshot %s (%s records)", snapshot.snapshotId(), snapshot.summary().get("added-records"))
          .isBetween(THRESHOLD, THRESHOLD + MIB + 64 * 1024);
    }
    assertThat(recorder.acked).hasSize(
        snapshots.stream().mapToInt(s -> Integer.parseInt(s.summary().get("added-records"))).sum());
  }

  /** A tuple whose payload is 1 MiB of random letters (one byte each in UTF-8). */
  Tuple oneMebibyteTuple(long id) {
    char[] payload = new char[MIB];
    for (int i = 0; i < payload.length; i++) {
      payload[i] = (char) ('a' + random.nextInt(26));
    }
    List<Object> values = List.of(id, "eu", Instant.parse("2026-11-01T10:00:00Z"), new String(payload));
    return new TupleImpl(context, values, "events", 1, "default", MessageId.makeRootId(id + 1, id + 1));
  }
}
