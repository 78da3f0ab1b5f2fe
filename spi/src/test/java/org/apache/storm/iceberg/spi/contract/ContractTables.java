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

package org.apache.storm.iceberg.spi.contract;

import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * Real tables for the contract tests: by default a HadoopCatalog warehouse in a test's temp
 * directory; a module can hand in another catalog (one whose tables live on S3, say).
 */
public final class ContractTables {
  private final Catalog catalog;

  public ContractTables(Path dir) {
    this(new HadoopCatalog(new Configuration(), dir.resolve("warehouse").toUri().toString()));
  }

  /** Tables in {@code catalog}, which must support namespaces; namespace {@code db} is created in it. */
  public ContractTables(Catalog catalog) {
    this.catalog = catalog;
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
  }

  /** A format version 2 table {@code db.<name>}, as the sink requires. */
  public Table create(String name, Schema schema, PartitionSpec spec, Map<String, String> properties) {
    Map<String, String> withVersion = new java.util.HashMap<>(properties);
    withVersion.putIfAbsent("format-version", "2");
    return catalog.createTable(TableIdentifier.of("db", name), schema, spec, withVersion);
  }

  public Table create(String name, Schema schema) {
    return create(name, schema, PartitionSpec.unpartitioned(), Map.of());
  }
}
