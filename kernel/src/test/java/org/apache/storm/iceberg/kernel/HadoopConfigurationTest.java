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

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code withHadoopConfiguration} reaches the catalog, its FileIO and the data file writers: the
 * table lives on a file system scheme that only the sink's Hadoop configuration names.
 */
class HadoopConfigurationTest {
  static final String SCHEME_KEY = "fs.counting.impl";
  // Hadoop caches file systems by scheme, not by configuration: without this, a test that sets no
  // scheme would find the one an earlier test made.
  static final String NO_CACHE_KEY = "fs.counting.impl.disable.cache";

  @TempDir Path dir;
  final RecordingCollector recorder = new RecordingCollector();
  final Tuples tuples = new Tuples(TestTables.FIELDS);

  @Test
  void aSiteFileInTheConfDirectoryReachesTheCatalogTheFileIoAndTheWriters() throws IOException {
    Path confDir = Files.createDirectories(dir.resolve("conf"));
    Files.writeString(confDir.resolve("core-site.xml"),
        "<configuration><property><name>" + SCHEME_KEY + "</name><value>" + CountingFileSystem.class.getName()
            + "</value></property><property><name>" + NO_CACHE_KEY + "</name><value>true</value></property></configuration>");
    CountingFileSystem.created.clear();

    writeFiveRows(Map.of("hadoop-conf-dir", confDir.toString()));

    assertThat(CountingFileSystem.created).as("files created through the sink's configuration")
        .anyMatch(path -> path.endsWith(".parquet"))
        .anyMatch(path -> path.endsWith(".metadata.json"));
    assertThat(tableThroughCountingScheme().currentSnapshot().summary()).containsEntry("added-records", "5");
  }

  @Test
  void anEntryOfItsOwnReachesThemToo() {
    CountingFileSystem.created.clear();
    writeFiveRows(Map.of(SCHEME_KEY, CountingFileSystem.class.getName(), NO_CACHE_KEY, "true"));
    assertThat(CountingFileSystem.created).anyMatch(path -> path.endsWith(".parquet"));
  }

  @Test
  void withoutItTheSchemeIsUnknown() {
    assertThatThrownBy(() -> writeFiveRows(Map.of())).hasStackTraceContaining("No FileSystem for scheme \"counting\"");
  }

  @Test
  void aMissingConfDirectoryIsNamed() {
    String missing = dir.resolve("no-such-conf").toString();
    assertThatThrownBy(() -> writeFiveRows(Map.of("hadoop-conf-dir", missing)))
        .hasMessage("hadoop-conf-dir " + missing + " is not a readable directory on this worker");
  }

  @Test
  void secretEntriesAreMaskedAndFluxReadsTheMap() {
    IcebergOptions options = IcebergOptions.fromMap(Map.of("catalog", catalog(), "table", "db.events",
        "hadoop-configuration", Map.of("fs.s3a.secret.key", "hunter2-not-shown", "fs.defaultFS", "file:///")));
    assertThat(options.hadoopConfiguration()).containsEntry("fs.defaultFS", "file:///");
    assertThat(options.toString()).doesNotContain("hunter2-not-shown").contains("fs.defaultFS=file:///");
  }

  private void writeFiveRows(Map<String, String> hadoopConfiguration) {
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalog())
        .withTable("db.events").withAutoCreate(TestTables.SCHEMA, PartitionSpec.unpartitioned())
        .withHadoopConfiguration(hadoopConfiguration).withCommitIntervalRecords(5).build();
    SinkTask sink = SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector(), System::currentTimeMillis);
    try {
      for (long id = 0; id < 5; id++) {
        sink.execute(tuples.tuple(id, "eu", null, "p" + id));
      }
    } finally {
      sink.close();
    }
    assertThat(recorder.acked).hasSize(5);
  }

  private Map<String, String> catalog() {
    return Map.of("type", "hadoop", "warehouse", "counting://" + dir.resolve("warehouse").toAbsolutePath());
  }

  private Table tableThroughCountingScheme() {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
    conf.set(SCHEME_KEY, CountingFileSystem.class.getName());
    conf.set(NO_CACHE_KEY, "true");
    return CatalogUtil.buildIcebergCatalog("check", catalog(), conf).loadTable(TableIdentifier.of("db", "events"));
  }

  /** The local file system under the scheme {@code counting:}, recording every file it creates. */
  public static final class CountingFileSystem extends RawLocalFileSystem {
    static final List<String> created = new CopyOnWriteArrayList<>();

    @Override
    public URI getUri() {
      return URI.create("counting:///");
    }

    @Override
    public String getScheme() {
      return "counting";
    }

    @Override
    public FSDataOutputStream create(org.apache.hadoop.fs.Path path, boolean overwrite, int bufferSize, short replication,
        long blockSize, Progressable progress) throws IOException {
      created.add(path.toString());
      return super.create(path, overwrite, bufferSize, replication, blockSize, progress);
    }

    @Override
    public FSDataOutputStream create(org.apache.hadoop.fs.Path path, FsPermission permission, boolean overwrite,
        int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
      created.add(path.toString());
      return super.create(path, permission, overwrite, bufferSize, replication, blockSize, progress);
    }
  }
}
