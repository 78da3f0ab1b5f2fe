package org.apache.storm.iceberg.kernel;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.storm.iceberg.IcebergOptions;

/**
 * The checks {@link IcebergOptions.Builder#build()} runs on the submitting client. Each throws
 * {@link IllegalArgumentException} with a message that says which builder method to change.
 */
public final class OptionsChecks {
  private OptionsChecks() {}

  public static void requireCatalog(Map<String, String> catalogProperties) {
    if (!catalogProperties.containsKey(CatalogUtil.ICEBERG_CATALOG_TYPE)
        && !catalogProperties.containsKey(CatalogProperties.CATALOG_IMPL)) {
      throw new IllegalArgumentException(
          "catalog properties name no catalog: set 'type' (hadoop, jdbc, rest, hive, glue, nessie)"
              + " or 'catalog-impl' in withCatalogProperties; got keys "
              + new TreeSet<>(catalogProperties.keySet()));
    }
  }

  public static void requireTable(String table) {
    if (table == null || table.isBlank()) {
      throw new IllegalArgumentException("no table: set withTable(\"namespace.table\")");
    }
    for (String part : table.split("\\.", -1)) {
      if (part.isBlank()) {
        throw new IllegalArgumentException(
            "table name '" + table + "' has an empty part; use withTable(\"namespace.table\")");
      }
    }
  }

  public static void requireAutoCreateSpecMatchesSchema(Schema schema, PartitionSpec spec) {
    if (schema == null) {
      return;
    }
    for (PartitionField field : spec.fields()) {
      if (schema.findField(field.sourceId()) == null) {
        throw new IllegalArgumentException(
            "auto-create partition field '" + field.name() + "' uses source column id " + field.sourceId()
                + ", which is not in the auto-create schema; build the spec with"
                + " PartitionSpec.builderFor(schema) from the same schema");
      }
    }
  }

  public static void requireName(String value, String setter) {
    if (value == null || value.isBlank() || value.contains("/")) {
      throw new IllegalArgumentException(setter + " needs a non-blank name without '/', got '" + value + "'");
    }
  }

  /** Accepts null (the setter was not called) or an absolute path. */
  public static void requireAbsolutePath(String path, String setter) {
    if (path == null) {
      return;
    }
    if (path.isBlank() || !Path.of(path).isAbsolute()) {
      throw new IllegalArgumentException(
          setter + " needs an absolute path (a directory on every worker, such as /var/lib/storm/iceberg-spill), got '"
              + path + "'");
    }
  }

  public static void requireUserSummaryKey(String key) {
    if (key.startsWith(IcebergOptions.RESERVED_SUMMARY_PREFIX)) {
      throw new IllegalArgumentException(
          "snapshot property '" + key + "' uses the reserved prefix '" + IcebergOptions.RESERVED_SUMMARY_PREFIX
              + "'; choose another key for withSnapshotProperty");
    }
  }

  public static long requireNonNegative(long value, String setter) {
    if (value < 0) {
      throw new IllegalArgumentException(setter + " must be 0 (off) or positive, got " + value);
    }
    return value;
  }
}
