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

import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.kernel.table.HadoopCatalogWarning;
import org.apache.storm.iceberg.kernel.task.CommitterTask;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.LockManager;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.storm.Config;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A HadoopCatalog off HDFS has no atomic commit across processes: a committing component with
 * several tasks in several workers is warned at prepare; a single worker, a single committing task,
 * HDFS, or another catalog stays quiet.
 */
class HadoopCatalogWarningTest {
  static final String WARNING =
      "WARN Table test.db.events is in a HadoopCatalog on file:, not HDFS, and the 4 tasks of component 'iceberg'"
          + " may commit to it from different workers (topology.workers 2). This file system has no atomic commit"
          + " across processes: two commits at once can both succeed, and one of them is overwritten, with the rows"
          + " of tuples already acked. Use a catalog that commits atomically (JDBC, REST, Hive, Glue or Nessie), or"
          + " commit from one task (IcebergWriterBolts feeding one IcebergCommitterBolt), or keep the table on HDFS";

  @TempDir Path dir;

  Map<String, String> createTable(Map<String, String> catalogProperties) {
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    return catalogProperties;
  }

  IcebergOptions options(Map<String, String> catalogProperties) {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").build();
  }

  static TaskEnvironment env(int workers, int componentTasks) {
    Map<String, Object> conf = new HashMap<>();
    conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 30);
    conf.put(Config.TOPOLOGY_WORKERS, workers);
    TaskEnvironment detached = TaskEnvironment.detached(
        new TaskIdentity("topology", "iceberg", 1, 0, componentTasks, 1), new RecordingCollector().collector(),
        System::currentTimeMillis);
    return new TaskEnvironment(detached.task(), detached.collector(), detached.clock(), detached.metrics(), conf);
  }

  /** The storm-iceberg warnings logged while {@code open} opens a task, which it then closes. */
  static List<String> warningsOpening(Runnable open) {
    try (LogCapture log = new LogCapture()) {
      open.run();
      return log.lines.stream().filter(line -> line.contains("HadoopCatalog")).collect(Collectors.toList());
    }
  }

  @Test
  void severalCommittingTasksInSeveralWorkersOnALocalWarehouseAreWarnedOncePerTask() {
    IcebergOptions options = options(createTable(TestCatalogs.hadoop(dir)));
    assertThat(warningsOpening(() -> SinkTasks.open(settings(options), env(2, 4)).close())).containsExactly(WARNING);
  }

  @Test
  void theQuickStartsSingleWorkerStaysQuiet() {
    IcebergOptions options = options(createTable(TestCatalogs.hadoop(dir)));
    assertThat(warningsOpening(() -> SinkTasks.open(settings(options), env(1, 4)).close())).isEmpty();
  }

  @Test
  void aSingleCommittingTaskStaysQuietInSeveralWorkers() {
    IcebergOptions options = options(createTable(TestCatalogs.hadoop(dir)));
    assertThat(warningsOpening(() -> SinkTasks.open(settings(options), env(4, 1)).close())).isEmpty();
    assertThat(warningsOpening(() -> CommitterTask.open(settings(options), env(4, 1)).close())).isEmpty();
  }

  @Test
  void theSplitSinksWritersCommitNothingAndStayQuiet() {
    IcebergOptions options = options(createTable(TestCatalogs.hadoop(dir)));
    assertThat(warningsOpening(() -> SinkTasks.openWriter(settings(options), env(2, 4)).close())).isEmpty();
  }

  @Test
  void aCommitterWithSeveralTasksInSeveralWorkersIsWarned() {
    IcebergOptions options = options(createTable(TestCatalogs.hadoop(dir)));
    assertThat(warningsOpening(() -> CommitterTask.open(settings(options), env(2, 4)).close())).containsExactly(WARNING);
  }

  @Test
  void aHadoopCatalogNamedByCatalogImplIsWarnedToo() {
    Map<String, String> properties = TestCatalogs.hadoop(dir);
    properties.remove("type");
    properties.put("catalog-impl", HadoopCatalog.class.getName());
    IcebergOptions options = options(createTable(properties));
    assertThat(warningsOpening(() -> SinkTasks.open(settings(options), env(2, 4)).close())).containsExactly(WARNING);
  }

  @Test
  void aCatalogThatCommitsAtomicallyStaysQuiet() {
    IcebergOptions options = options(createTable(TestCatalogs.jdbcSqlite(dir)));
    assertThat(warningsOpening(() -> SinkTasks.open(settings(options), env(2, 4)).close())).isEmpty();
  }

  @Test
  void aLockSharedByEveryWorkerStaysQuiet() {
    Map<String, String> properties = TestCatalogs.hadoop(dir);
    properties.put("lock-impl", SharedLock.class.getName());
    IcebergOptions options = options(createTable(properties));
    assertThat(warningsOpening(() -> SinkTasks.open(settings(options), env(2, 4)).close())).isEmpty();
  }

  @Test
  void onlyHdfsStaysQuiet() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), dir.resolve("warehouse").toUri().toString());
    assertThat(warning(catalog, "hdfs://namenode:8020/warehouse/db/events")).isEmpty();
    for (String location : List.of("s3://bucket/warehouse/db/events", "s3a://bucket/warehouse/db/events",
        "gs://bucket/warehouse/db/events", "abfs://container@account.dfs.core.windows.net/warehouse/db/events",
        "file:/mnt/nfs/warehouse/db/events", "/mnt/nfs/warehouse/db/events")) {
      String scheme = location.startsWith("/") ? "file" : location.substring(0, location.indexOf(':'));
      assertThat(warning(catalog, location)).as(location).hasValueSatisfying(
          message -> assertThat(message).startsWith("Table db.events is in a HadoopCatalog on " + scheme + ":, not HDFS"));
    }
  }

  @Test
  void aBarePathIsOnTheDefaultFileSystem() {
    Configuration onHdfs = new Configuration();
    onHdfs.set("fs.defaultFS", "hdfs://namenode:8020");
    HadoopCatalog catalog = new HadoopCatalog(onHdfs, dir.resolve("warehouse").toUri().toString());
    assertThat(warning(catalog, "/warehouse/db/events")).isEmpty();
  }

  /**
   * Stands in for a lock every worker shares (such as iceberg-aws's DynamoDbLockManager): these tests
   * commit from one thread, so granting every request is enough.
   */
  public static final class SharedLock implements LockManager {
    @Override
    public boolean acquire(String entityId, String ownerId) {
      return true;
    }

    @Override
    public boolean release(String entityId, String ownerId) {
      return true;
    }

    @Override
    public void initialize(Map<String, String> properties) {}

    @Override
    public void close() {}
  }

  static Optional<String> warning(Catalog catalog, String location) {
    TaskEnvironment env = env(2, 4);
    return HadoopCatalogWarning.warning(catalog, "db.events", location, Map.of(), env.task(), env.topologyConfig());
  }
}
