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

package org.apache.storm.iceberg.kernel.table;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.storm.iceberg.kernel.options.SinkSettings.AutoCreate;
import org.apache.storm.iceberg.kernel.options.SinkSettings.CatalogTarget;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.spi.SecretReferences;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every task opens at prepare, and how: the catalog built from the settings, the table (loaded,
 * or created when auto-create is set, and refused unless its format version is one the sink writes), and the class loader that holds
 * the topology's classes (the worker's context class loader), for provider lookups.
 *
 * @param catalog the catalog built from the options
 * @param table the table, created if auto-create is on
 * @param loader where providers are looked up
 */
public record OpenedTable(Catalog catalog, Table table, ClassLoader loader) {
  private static final Logger LOG = LoggerFactory.getLogger(OpenedTable.class);

  /**
   * Opens the catalog and the table. What it throws is redacted: Storm logs and reports an error
   * thrown at prepare, and a catalog that cannot connect names its URL.
   */
  public static OpenedTable open(CatalogTarget target) {
    try {
      return openUnredacted(target);
    } catch (RuntimeException e) {
      throw Redaction.of(e);
    }
  }

  private static OpenedTable openUnredacted(CatalogTarget target) {
    Catalog catalog = loadCatalog(target);
    try {
      return new OpenedTable(
          catalog, openTable(catalog, target), Thread.currentThread().getContextClassLoader());
    } catch (RuntimeException e) {
      closeCatalog(catalog);
      throw e;
    }
  }

  /** Builds what the task needs from the opened table, closing the catalog if that fails. */
  public <T> T build(java.util.function.Function<OpenedTable, T> builder) {
    try {
      return builder.apply(this);
    } catch (RuntimeException e) {
      closeCatalog(catalog);
      throw Redaction.of(e);
    }
  }

  public static void closeCatalog(Catalog catalog) {
    if (catalog instanceof Closeable) {
      try {
        ((Closeable) catalog).close();
      } catch (IOException e) {
        LOG.warn("Cannot close catalog {}", catalog.name(), Redaction.of(e));
      }
    }
  }
  /** The format version a table the sink creates gets, unless its auto-create properties say otherwise. */
  static final int REQUIRED_FORMAT_VERSION = 2;
  /** The newest format version the sink writes. */
  static final int MAX_FORMAT_VERSION = 3;


  /**
   * Builds the catalog with its secret references resolved on this worker ({@link SecretReferences}),
   * and remembers its secrets so that every error the sink logs or reports masks them.
   */
  public static Catalog loadCatalog(CatalogTarget target) {
    Map<String, String> properties = SecretReferences.resolve(target.catalogProperties());
    Map<String, String> hadoopEntries = SecretReferences.resolve(target.hadoopConfiguration());
    Redaction.remember(properties);
    Redaction.remember(hadoopEntries);
    return CatalogUtil.buildIcebergCatalog(target.catalogName(), properties, WorkerHadoopConfiguration.build(hadoopEntries));
  }

  /** Loads (or creates) the table and checks its format version; the stored spec wins. */
  public static Table openTable(Catalog catalog, CatalogTarget target) {
    TableIdentifier identifier = target.tableIdentifier();
    Table table;
    try {
      table = catalog.loadTable(identifier);
    } catch (NoSuchTableException e) {
      if (target.autoCreate() == null) {
        throw new IllegalStateException(
            "Table "
                + target.table()
                + " does not exist in catalog '"
                + target.catalogName()
                + "' (catalogs such as JDBC keep tables per catalog name: match withCatalogName to the"
                + " name other engines use); create the table, or set withAutoCreate(schema, spec)",
            e);
      }
      table = create(catalog, identifier, target.autoCreate());
    }
    requireWritableVersion(table);
    requireWritableColumns(table);
    return table;
  }

  /**
   * Refuses a table whose format version this sink cannot write, with a message that says why and
   * how to fix it. Versions 1 to 3 take appends; the row-level modes need 2 or later, checked with
   * their key.
   */
  public static void requireWritableVersion(Table table) {
    int version = TableUtil.formatVersion(table);
    if (version < 1 || version > MAX_FORMAT_VERSION) {
      throw new IllegalStateException(
          "Table " + table.name() + " has format version " + version + "; storm-iceberg writes format versions 1 to "
              + MAX_FORMAT_VERSION + " (Iceberg " + org.apache.iceberg.IcebergBuild.version() + "): write to a table of"
              + " one of those versions");
    }
  }

  /**
   * Refuses a table with a geometry or geography column: Iceberg 1.11's Parquet, Avro and ORC
   * writers cannot write either type (they fail building the writer, whatever the values).
   */
  public static void requireWritableColumns(Table table) {
    for (org.apache.iceberg.types.Types.NestedField column : org.apache.iceberg.types.TypeUtil.indexById(table.schema().asStruct()).values()) {
      org.apache.iceberg.types.Type.TypeID type = column.type().typeId();
      if (type == org.apache.iceberg.types.Type.TypeID.GEOMETRY || type == org.apache.iceberg.types.Type.TypeID.GEOGRAPHY) {
        throw new IllegalStateException("Table " + table.name() + " has column " + table.schema().findColumnName(column.fieldId())
            + " of type " + column.type() + ", which Iceberg " + org.apache.iceberg.IcebergBuild.version() + "'s Parquet, Avro"
            + " and ORC writers cannot write: storm-iceberg cannot write this table; keep WKB in a binary column instead");
      }
    }
  }

  private static Table create(Catalog catalog, TableIdentifier identifier, AutoCreate autoCreate) {
    createNamespaceIfMissing(catalog, identifier.namespace());
    try {
      Table table =
          catalog.createTable(identifier, autoCreate.schema(), autoCreate.spec(), creationProperties(autoCreate));
      LOG.info("Created table {} with spec {}", identifier, table.spec());
      return table;
    } catch (RuntimeException e) {
      // Every task of the sink auto-creates at once; whoever loses the race sees the winner's table.
      // Catalogs report losing differently (JDBC on SQLite: a constraint violation), so look.
      if (catalog.tableExists(identifier)) {
        return catalog.loadTable(identifier);
      }
      throw e;
    }
  }

  /** The table properties auto-create creates a table with: its own, and format version 2 unless they set one. */
  public static Map<String, String> creationProperties(AutoCreate autoCreate) {
    Map<String, String> properties = new HashMap<>(autoCreate.properties());
    properties.putIfAbsent(TableProperties.FORMAT_VERSION, String.valueOf(REQUIRED_FORMAT_VERSION));
    return properties;
  }

  private static void createNamespaceIfMissing(Catalog catalog, Namespace namespace) {
    if (namespace.isEmpty() || !(catalog instanceof SupportsNamespaces)) {
      return;
    }
    SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
    if (!namespaces.namespaceExists(namespace)) {
      try {
        namespaces.createNamespace(namespace);
      } catch (RuntimeException e) {
        // As for tables: another task may have created it first.
        if (!namespaces.namespaceExists(namespace)) {
          throw e;
        }
      }
    }
  }
}
