package org.apache.storm.iceberg.kernel.table;

import org.apache.storm.iceberg.kernel.secrets.Redaction;
import java.io.Closeable;
import java.io.IOException;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.storm.iceberg.kernel.options.SinkSettings.CatalogTarget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every task opens at prepare: the catalog, the checked table, and the class loader that holds
 * the topology's classes (the worker's context class loader), for provider lookups.
 *
 * @param catalog the catalog built from the options
 * @param table the table, created if auto-create is on, refused unless format version 2
 * @param loader where providers are looked up
 */
record OpenedTable(Catalog catalog, Table table, ClassLoader loader) {
  private static final Logger LOG = LoggerFactory.getLogger(OpenedTable.class);

  /**
   * Opens the catalog and the table. What it throws is redacted: Storm logs and reports an error
   * thrown at prepare, and a catalog that cannot connect names its URL.
   */
  static OpenedTable open(CatalogTarget target) {
    try {
      return openUnredacted(target);
    } catch (RuntimeException e) {
      throw Redaction.of(e);
    }
  }

  private static OpenedTable openUnredacted(CatalogTarget target) {
    Catalog catalog = TableSetup.loadCatalog(target);
    try {
      return new OpenedTable(
          catalog, TableSetup.openTable(catalog, target), Thread.currentThread().getContextClassLoader());
    } catch (RuntimeException e) {
      closeCatalog(catalog);
      throw e;
    }
  }

  /** Builds what the task needs from the opened table, closing the catalog if that fails. */
  <T> T build(java.util.function.Function<OpenedTable, T> builder) {
    try {
      return builder.apply(this);
    } catch (RuntimeException e) {
      closeCatalog(catalog);
      throw Redaction.of(e);
    }
  }

  static void closeCatalog(Catalog catalog) {
    if (catalog instanceof Closeable) {
      try {
        ((Closeable) catalog).close();
      } catch (IOException e) {
        LOG.warn("Cannot close catalog {}", catalog.name(), Redaction.of(e));
      }
    }
  }
}
