package org.apache.storm.iceberg.examples;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.IcebergBolt;
import org.apache.storm.iceberg.IcebergOptions;

/**
 * Spout to {@link IcebergBolt} (parallelism 2) writing an unpartitioned table {@code
 * examples.events} in a local Hadoop catalog. Runs in LocalCluster until every event is acked (so
 * committed), prints what was committed, and exits: 0 on success, 1 if the deadline passes.
 *
 * <p>Usage: {@code IcebergBoltExampleTopology [warehouse-dir] [events]} (defaults {@code
 * ./warehouse}, 20000).
 */
public final class IcebergBoltExampleTopology {
  static final String TABLE = "examples.events";
  static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "region", Types.StringType.get()),
          optional(3, "event_time", Types.TimestampType.withZone()),
          optional(4, "payload", Types.StringType.get()));

  private IcebergBoltExampleTopology() {}

  public static void main(String[] args) {
    Path warehouse = Paths.get(args.length > 0 ? args[0] : "warehouse").toAbsolutePath();
    long events = args.length > 1 ? Long.parseLong(args[1]) : 20_000;
    LocalExampleRun.exitWith(() -> run(warehouse, events));
  }

  static IcebergOptions options(Path warehouse) {
    return new IcebergOptions.Builder()
        .withCatalogProperties(LocalExampleRun.catalogProperties(warehouse))
        .withTable(TABLE)
        .withAutoCreate(SCHEMA, PartitionSpec.unpartitioned())
        .withCommitIntervalRecords(5_000)
        .withCommitIntervalMillis(2_000)
        .withTickIntervalSecs(1)
        .build();
  }

  /** Runs the topology in LocalCluster until {@code events} are acked; returns what was committed. */
  public static String run(Path warehouse, long events) throws Exception {
    return LocalExampleRun.run("iceberg-example", warehouse, events, options(warehouse));
  }
}
