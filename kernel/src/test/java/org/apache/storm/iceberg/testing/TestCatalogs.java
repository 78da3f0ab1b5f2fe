package org.apache.storm.iceberg.testing;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/** Catalog properties for the real catalogs the tests run on. */
public final class TestCatalogs {
  private TestCatalogs() {}

  /** A HadoopCatalog whose warehouse is under {@code dir}. */
  public static Map<String, String> hadoop(Path dir) {
    Map<String, String> properties = new HashMap<>();
    properties.put("type", "hadoop");
    properties.put("warehouse", dir.resolve("warehouse").toUri().toString());
    return properties;
  }

  /** A JdbcCatalog on a SQLite file under {@code dir}. */
  public static Map<String, String> jdbcSqlite(Path dir) {
    Map<String, String> properties = new HashMap<>();
    properties.put("type", "jdbc");
    properties.put("uri", "jdbc:sqlite:" + dir.resolve("catalog.db").toAbsolutePath());
    properties.put("jdbc.schema-version", "V1");
    properties.put("warehouse", dir.resolve("warehouse").toUri().toString());
    return properties;
  }

  public static Catalog load(Map<String, String> properties) {
    return CatalogUtil.buildIcebergCatalog("test", properties, new Configuration());
  }
}
