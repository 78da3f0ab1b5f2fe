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
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.kernel.metrics.RegistryContext;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JDBC catalog keeps tables per catalog name: a maintenance task given another catalog name than
 * the sink's finds none of the sink's tables, and its failed pass says which name to match.
 */
class MaintainerCatalogNameTest {
  @TempDir Path dir;

  @Test
  void aCatalogNameThatIsNotTheSinksFailsThePassWithTheFix() throws InterruptedException {
    Map<String, String> catalogProperties = TestCatalogs.jdbcSqlite(dir);
    Catalog sinks = org.apache.iceberg.CatalogUtil.buildIcebergCatalog("sinks", catalogProperties, new org.apache.hadoop.conf.Configuration());
    ((SupportsNamespaces) sinks).createNamespace(Namespace.of("db"));
    sinks.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    MaintenanceOptions options = new MaintenanceOptions.Builder()
        .withCatalogName("maintenance")
        .withCatalogProperties(catalogProperties)
        .triggerOnCommits(1).withMinGap(Duration.ZERO)
        .withOrphanRemoval(false, Duration.ofDays(3), Duration.ofDays(1))
        .withLease(MaintenanceLease.Kind.NONE, Duration.ofSeconds(30))
        .build();
    MetricRegistry metrics = new MetricRegistry();
    try (LogCapture log = new LogCapture()) {
      TableMaintainer maintainer = TableMaintainer.open(options, Map.of(), new RegistryContext(metrics), "test/maintenance/0");
      try {
        maintainer.committed("db.events", 1, 100, 0, System.currentTimeMillis());
        Deadline.await(Duration.ofSeconds(10), () -> metrics.counter("iceberg-maintenance-failures").getCount() == 1,
            () -> "the pass's failure");
      } finally {
        maintainer.close();
      }
      assertThat(log.lines).anySatisfy(line -> assertThat(line)
          .startsWith("WARN A maintenance pass over db.events failed")
          .contains("Table db.events does not exist in catalog 'maintenance' (catalogs such as JDBC keep tables per catalog"
              + " name: give the maintenance options the sink's withCatalogName)"));
    }
    assertThat(metrics.counter("iceberg-maintenance-passes").getCount()).isZero();
  }
}
