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

import com.codahale.metrics.MetricRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.kernel.metrics.RegistryContext;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manifest rewrite on its own trigger, on a real Hadoop catalog: commits that reach no pass
 * trigger (compaction and expiry are on but not due) still get the table's manifests rewritten once
 * the rewrite's own number of commits came.
 */
class ManifestRewriteTriggerTest {
  static final String TABLE = "db.events";

  @TempDir Path dir;

  @Test
  void theManifestRewriteRunsOnItsOwnTriggerWhenNoPassIsDue() throws InterruptedException {
    Map<String, String> catalogProperties = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    Table table = catalog.createTable(TableIdentifier.parse(TABLE), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    MaintenanceOptions options = new MaintenanceOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .triggerOnDataFiles(1_000).triggerOnCommits(1_000).triggerOnDeleteFiles(100).triggerEvery(Duration.ofHours(1))
        .withMinGap(Duration.ZERO)
        .withCompaction(true, Map.of("min-input-files", "2"))
        .withExpiry(true).withExpiryMaxAge(Duration.ZERO).withExpiryRetainLast(1)
        .withManifestRewrite(true, 2)
        .triggerManifestRewriteOnCommits(3)
        .withOrphanRemoval(false, Duration.ofDays(3), Duration.ofDays(1))
        .withLease(MaintenanceLease.Kind.NONE, Duration.ofSeconds(30))
        .build();
    MetricRegistry metrics = new MetricRegistry();
    TableMaintainer maintainer = TableMaintainer.open(options, Map.of(), new RegistryContext(metrics), "test/maintenance/0");
    try {
      for (int commit = 0; commit < 3; commit++) {
        table.newFastAppend().appendFile(DataFiles.builder(table.spec()).withPath(table.location() + "/data/" + commit + ".parquet")
            .withFileSizeInBytes(100).withRecordCount(1).withFormat(FileFormat.PARQUET).build()).commit();
        maintainer.committed(TABLE, 1, 100, 0, System.currentTimeMillis());
      }

      Deadline.await(Duration.ofSeconds(10), () -> metrics.counter("iceberg-maintenance-passes").getCount() == 1,
          () -> "the manifest rewrite's run after its third commit");
    } finally {
      maintainer.close();
    }

    table.refresh();
    assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.REPLACE);
    assertThat(table.currentSnapshot().summary()).containsEntry(DataCompaction.SUMMARY_KEY, "manifest-rewrite");
    assertThat(table.currentSnapshot().allManifests(table.io())).as("three manifests rewritten into one").hasSize(1);
    assertThat(metrics.counter("iceberg-manifests-rewritten").getCount()).isEqualTo(3);
    assertThat(TestTables.snapshots(table)).as("no compaction, no expiry: three appends and the rewrite").hasSize(4);
    assertThat(metrics.counter("iceberg-compaction-files-rewritten").getCount()).isZero();
    assertThat(metrics.counter("iceberg-snapshots-expired").getCount()).isZero();
    assertThat(metrics.counter("iceberg-maintenance-failures").getCount()).isZero();
  }
}
