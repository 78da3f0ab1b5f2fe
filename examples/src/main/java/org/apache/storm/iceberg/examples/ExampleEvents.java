package org.apache.storm.iceberg.examples;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/** The events every example writes: what {@link EventSpout} emits. */
public final class ExampleEvents {
  public static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "region", Types.StringType.get()),
          optional(3, "event_time", Types.TimestampType.withZone()),
          optional(4, "payload", Types.StringType.get()));

  /** identity(region), days(event_time). */
  public static final PartitionSpec BY_REGION_AND_DAY =
      PartitionSpec.builderFor(SCHEMA).identity("region").day("event_time").build();

  private ExampleEvents() {}

  /**
   * Options every example starts from: its table in the catalog {@code catalogProperties} describe
   * (the local Hadoop catalog unless the command line names another), created with {@code spec}.
   */
  public static org.apache.storm.iceberg.IcebergOptions.Builder options(
      java.util.Map<String, String> catalogProperties, String table, PartitionSpec spec) {
    return new org.apache.storm.iceberg.IcebergOptions.Builder()
        .withCatalogProperties(catalogProperties)
        .withTable(table)
        .withAutoCreate(SCHEMA, spec);
  }
}
