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

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.UncheckedSQLException;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.UnredactedLogCalls;
import org.apache.storm.iceberg.wal.TableFileIoWalStoreFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What maintenance logs of an error that echoes a secret catalog property. */
class MaintenanceRedactionTest {
  @TempDir Path dir;

  /** As the kernel's: a new log site in maintenance that forgets {@code Redaction.of} fails here. */
  @Test
  void everyLoggedExceptionIsRedacted() {
    Path sources = Path.of("src/main/java");
    assertThat(UnredactedLogCalls.javaFiles(sources)).as("maintenance's sources, read from " + sources.toAbsolutePath())
        .hasSizeGreaterThan(10);

    assertThat(UnredactedLogCalls.in(sources)).as("log calls passing an exception without Redaction.of").isEmpty();
  }

  /**
   * The maintainer's catalog remembers its secrets; every step of a pass then fails on a refresh whose
   * error quotes one verbatim (as a driver echoing its connection settings would), and each logged
   * warning shows it masked.
   */
  @Test
  void aPassLogsACatalogErrorThatEchoesASecretWithTheSecretMasked() {
    String secret = "sk-" + UUID.randomUUID();
    Map<String, String> catalogProperties = new HashMap<>(TestCatalogs.jdbcSqlite(dir));
    catalogProperties.put("s3.secret-access-key", secret);
    MaintenanceOptions options = new MaintenanceOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withCompaction(true, Map.of()).withExpiry(true).withManifestRewrite(true, 100)
        .withOrphanRemoval(true, Duration.ofDays(3), Duration.ofDays(1))
        .build();
    Catalog catalog = TableMaintainer.catalog(options);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    Table unreachable = new ForwardingOperations(table) {
      @Override
      public TableMetadata refresh() {
        throw new UncheckedSQLException(new SQLException("access denied for key " + secret), "Failed to load table %s", table.name());
      }
    }.table(table);

    MaintenancePass.Result result;
    try (LogCapture logs = new LogCapture()) {
      result = new MaintenancePass(options, new TableFileIoWalStoreFactory().create(Map.of()))
          .run(unreachable, System.currentTimeMillis());

      assertThat(logs.lines).filteredOn(line -> line.startsWith("WARN")).hasSize(4).allSatisfy(line -> assertThat(line)
          .contains("failed")
          .contains("RedactedException: java.sql.SQLException: access denied for key ****")
          .doesNotContain(secret));
    }
    assertThat(result.failures()).as("compaction, expiry, manifest rewrite and orphan removal").isEqualTo(4);
  }
}
