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

import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.testing.RestCatalogServer;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;

/**
 * The empty table {@code db.events} ({@link TestTables#SCHEMA}, unpartitioned) the token tests write,
 * on a catalog of kind "jdbc" (SQLite), "hadoop" or "rest" (Iceberg's REST catalog server, in process
 * on 127.0.0.1, backed by SQLite): the setup {@link SnapshotExpiryTest} and {@link
 * TridentTokenExpiryTest} share. Closing it stops the REST server, if any.
 *
 * @param catalogProperties what a sink, a state or maintenance is given to reach the catalog
 * @param rest the REST server of kind "rest", or null
 */
record EventsTable(Map<String, String> catalogProperties, Table table, RestCatalogServer rest) implements AutoCloseable {

  static EventsTable create(String kind, Path dir) throws Exception {
    RestCatalogServer rest = kind.equals("rest") ? new RestCatalogServer(dir.resolve("rest")) : null;
    Map<String, String> properties = switch (kind) {
      case "jdbc" -> TestCatalogs.jdbcSqlite(dir);
      case "hadoop" -> TestCatalogs.hadoop(dir);
      case "rest" -> rest.clientProperties();
      default -> throw new IllegalArgumentException("no catalog of kind " + kind);
    };
    Catalog catalog = TestCatalogs.load(properties);
    if (catalog instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("db"));
    }
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    return new EventsTable(properties, table, rest);
  }

  /** {@code count} commits of another writer, each an empty append its summary names ("writer": "another-job"). */
  void foreignCommits(int count) {
    for (int i = 0; i < count; i++) {
      table.newFastAppend().set("writer", "another-job").commit();
    }
  }

  @Override
  public void close() throws Exception {
    if (rest != null) {
      rest.close();
    }
  }
}
