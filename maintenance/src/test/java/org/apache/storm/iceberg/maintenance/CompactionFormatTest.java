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


package org.apache.storm.iceberg.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction writes through the sink's own file-format providers, chosen as the sink chooses them:
 * the provider named, with the write properties given, over the table's (the tables and the sink of
 * {@link DataCompactionTest}: a JDBC catalog, upserts in Parquet).
 */
class CompactionFormatTest {
  @TempDir Path dir;
  private final DataCompactionTest fixture = new DataCompactionTest();

  @AfterEach
  void stop() throws Exception {
    fixture.forgetIdentities();
  }

  @Test
  void aCompactionWritesThroughTheProviderNamedWithTheWritePropertiesGiven() throws Exception {
    fixture.dir = dir;
    fixture.start(2);
    for (int round = 0; round < 4; round++) {
      fixture.upsert("r" + round, 1, 2, 3, 4);
    }
    fixture.table.refresh();
    long before = fixture.table.currentSnapshot().snapshotId();

    DataCompaction.Result result = new DataCompaction(DataCompactionTest.SMALL_FILES, "orc", Map.of(),
        Map.of(TableProperties.ORC_COMPRESSION, "zstd")).run(fixture.table, "main");

    assertThat(result.filesAdded()).isPositive();
    assertThat(fixture.rows()).isEqualTo(fixture.model);
    List<DataFile> added = new ArrayList<>();
    for (Snapshot snapshot : SnapshotUtil.ancestorsBetween(fixture.table, fixture.table.currentSnapshot().snapshotId(), before)) {
      snapshot.addedDataFiles(fixture.table.io()).forEach(added::add);
    }
    assertThat(added).hasSize(result.filesAdded()).allSatisfy(file -> {
      assertThat(file.format()).as("the provider named").isEqualTo(FileFormat.ORC);
      assertThat(orcCompression(file)).as("write.orc.compression-codec=zstd, from the write properties (Iceberg's default: zlib)")
          .isEqualTo(org.apache.orc.CompressionKind.ZSTD);
    });
    assertThat(fixture.table.properties()).as("the table's own format is left alone")
        .doesNotContainKey(TableProperties.DEFAULT_FILE_FORMAT);
  }

  private static org.apache.orc.CompressionKind orcCompression(DataFile file) {
    try (org.apache.orc.Reader reader = org.apache.orc.OrcFile.createReader(new org.apache.hadoop.fs.Path(file.location()),
        org.apache.orc.OrcFile.readerOptions(new org.apache.hadoop.conf.Configuration()))) {
      return reader.getCompressionKind();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aProviderNotOnTheClasspathIsRefusedNamingTheOnesThere() {
    String refusal = "No file-format provider named 'csv' on the classpath for compaction; found [avro, orc, parquet]."
        + " Name the provider the sink writes with (its withFileFormat), and ship the artifact that provides it with the"
        + " topology or the tools jar";
    assertThatThrownBy(() -> new DataCompaction(DataCompactionTest.SMALL_FILES, "csv", Map.of(), Map.of()))
        .hasMessage(refusal);
    assertThatThrownBy(() -> new MaintenanceOptions.Builder().withCatalogProperties(TestCatalogs.jdbcSqlite(dir))
        .withFileFormat("csv", Map.of()).build())
        .hasMessage(refusal);
  }
}
