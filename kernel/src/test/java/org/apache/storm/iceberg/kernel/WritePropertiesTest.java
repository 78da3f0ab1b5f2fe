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
import static org.apache.storm.iceberg.testing.ParquetFooters.codecs;
import static org.apache.storm.iceberg.testing.ParquetFooters.rowGroups;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code withWriteProperties} on a real HadoopCatalog table: each key shows in the files the sink
 * writes (their number, their Parquet footers, their format), over the table's own properties,
 * which stay as they were; and a mistake fails at {@code build()}.
 */
class WritePropertiesTest {
  static final int RECORDS = 2_000;

  @TempDir Path dir;
  final AtomicLong clock = new AtomicLong(1_000_000);
  final Tuples events = new Tuples(TestTables.FIELDS);
  Map<String, String> catalogProperties;
  Table table;

  @BeforeEach
  void createTable() {
    catalogProperties = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.PARQUET_COMPRESSION, "gzip"));
  }

  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.events")
        .withCommitIntervalRecords(RECORDS);
  }

  /** Writes one batch of {@value #RECORDS} records and returns the data files its commit added. */
  List<DataFile> writeOneBatch(IcebergOptions options) {
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector(), clock::get);
    for (long id = 0; id < RECORDS; id++) {
      sink.execute(events.tuple(id, id % 3 == 0 ? "eu" : "us", null, "payload " + (id * 7919 % 1000)));
    }
    sink.close();
    assertThat(recorder.errors).as("errors reported").isEmpty();
    assertThat(recorder.ackedIds()).hasSize(RECORDS);
    table.refresh();
    List<DataFile> files = new ArrayList<>();
    table.currentSnapshot().addedDataFiles(table.io()).forEach(files::add);
    return files;
  }

  static int pagesOfFirstColumn(DataFile file) {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(Path.of(URI.create(file.location()))))) {
      ColumnChunkMetaData column = reader.getFooter().getBlocks().get(0).getColumns().get(0);
      return reader.readOffsetIndex(column).getPageCount();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void theSinksCodecWinsOverTheTablesInTheFootersAndTheTableKeepsItsOwn() {
    assertThat(codecs(writeOneBatch(options().build()))).as("without write properties: the table's").containsExactly(CompressionCodecName.GZIP);

    List<DataFile> files = writeOneBatch(options().withWriteProperties(Map.of(TableProperties.PARQUET_COMPRESSION, "snappy")).build());

    assertThat(codecs(files)).containsExactly(CompressionCodecName.SNAPPY);
    table.refresh();
    assertThat(table.properties()).containsEntry(TableProperties.PARQUET_COMPRESSION, "gzip");
  }

  @Test
  void theCompressionLevelReachesTheCodec() {
    Map<String, String> fast = Map.of(TableProperties.PARQUET_COMPRESSION, "zstd", TableProperties.PARQUET_COMPRESSION_LEVEL, "1");
    Map<String, String> best = Map.of(TableProperties.PARQUET_COMPRESSION, "zstd", TableProperties.PARQUET_COMPRESSION_LEVEL, "19");
    long fastBytes = writeOneBatch(options().withWriteProperties(fast).build()).get(0).fileSizeInBytes();
    long bestBytes = writeOneBatch(options().withWriteProperties(best).build()).get(0).fileSizeInBytes();

    assertThat(bestBytes).isLessThan(fastBytes);
  }

  @Test
  void aTargetFileSizeRollsTheBatchIntoSeveralFiles() {
    assertThat(writeOneBatch(options().build())).as("the table's 512 MiB target").hasSize(1);

    // Iceberg's rolling writer compares the size with the target every 1,000 rows.
    List<DataFile> files = writeOneBatch(options().withWriteProperties(Map.of(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "1")).build());

    assertThat(files).hasSize(2).allSatisfy(file -> assertThat(file.recordCount()).isEqualTo(1_000));
  }

  @Test
  void rowGroupAndPageSizesShowInTheFooters() {
    DataFile plain = writeOneBatch(options().build()).get(0);
    assertThat(rowGroups(plain)).hasSize(1);
    assertThat(pagesOfFirstColumn(plain)).isEqualTo(1);

    DataFile small = writeOneBatch(options().withWriteProperties(Map.of(
        TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "1")).build()).get(0);
    assertThat(rowGroups(small)).hasSizeGreaterThan(1);

    DataFile smallPages = writeOneBatch(options().withWriteProperties(Map.of(TableProperties.PARQUET_PAGE_SIZE_BYTES, "256")).build()).get(0);
    assertThat(rowGroups(smallPages)).hasSize(1);
    assertThat(pagesOfFirstColumn(smallPages)).isGreaterThan(1);
  }

  @ParameterizedTest
  @EnumSource(value = FileFormat.class, names = {"AVRO", "ORC"})
  void theSinksDefaultFormatIsWrittenWithoutWithFileFormat(FileFormat format) {
    List<DataFile> files = writeOneBatch(options().withWriteProperties(Map.of(TableProperties.DEFAULT_FILE_FORMAT, format.name().toLowerCase())).build());

    assertThat(files).isNotEmpty().allSatisfy(file -> assertThat(file.format()).isEqualTo(format));
    assertThat(TestTables.ids(table)).hasSize(RECORDS);
    assertThat(table.properties()).doesNotContainKey(TableProperties.DEFAULT_FILE_FORMAT);
  }

  @Test
  void mistakesFailAtBuildNamingTheFix() {
    assertThatThrownBy(() -> options().withWriteProperties(Map.of("commit.retry.num-retries", "3")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withWriteProperties takes Iceberg's write.* table properties (such as write.target-file-size-bytes or"
            + " write.parquet.compression-codec); 'commit.retry.num-retries' is not one: catalog settings go in"
            + " withCatalogProperties, snapshot summary entries in withSnapshotProperty");
    assertThatThrownBy(() -> options().withWriteProperties(Map.of(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "128MB")).build())
        .hasMessage("withWriteProperties: 'write.target-file-size-bytes' must be a positive whole number, got '128MB'");
    assertThatThrownBy(() -> options().withWriteProperties(Map.of(TableProperties.DEFAULT_FILE_FORMAT, "csv")).build())
        .hasMessageStartingWith("No file format named 'csv' on the classpath; found [avro, orc, parquet]");
    assertThatThrownBy(() -> options().withFileFormat("orc").withWriteProperties(Map.of(TableProperties.DEFAULT_FILE_FORMAT, "avro")).build())
        .hasMessage("withWriteProperties sets write.format.default=avro but withFileFormat(\"orc\") pins another format; drop one of them");
    assertThatThrownBy(() -> options().withBranch(" ").build())
        .hasMessage("withBranch needs a branch name (\"main\" for the table's main line), got ' '");
  }

  @Test
  void fluxKeysSetWritePropertiesAndTheBranch() {
    IcebergOptions options = IcebergOptions.fromMap(Map.of(
        "catalog", catalogProperties, "table", "db.events",
        "write-properties", Map.of(TableProperties.PARQUET_COMPRESSION, "zstd", TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, 1024),
        "branch", "audit"));

    assertThat(options.writeProperties())
        .containsExactlyInAnyOrderEntriesOf(Map.of(TableProperties.PARQUET_COMPRESSION, "zstd", TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "1024"));
    assertThat(options.branch()).isEqualTo("audit");
  }
}
