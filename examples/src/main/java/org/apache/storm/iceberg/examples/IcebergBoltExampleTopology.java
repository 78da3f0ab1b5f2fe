package org.apache.storm.iceberg.examples;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.types.Types;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.topology.TopologyBuilder;

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
  static final Duration DEADLINE = Duration.ofMinutes(3);

  private IcebergBoltExampleTopology() {}

  public static void main(String[] args) throws Exception {
    Path warehouse = Paths.get(args.length > 0 ? args[0] : "warehouse").toAbsolutePath();
    long events = args.length > 1 ? Long.parseLong(args[1]) : 20_000;
    try {
      System.out.println(run(warehouse, events));
      System.exit(0);
    } catch (Exception | AssertionError e) {
      e.printStackTrace();
      System.exit(1);
    }
  }

  /** Catalog properties of the embedded local Hadoop catalog under {@code warehouse}. */
  static Map<String, String> catalogProperties(Path warehouse) {
    return Map.of("type", "hadoop", "warehouse", warehouse.toUri().toString());
  }

  static IcebergOptions options(Path warehouse) {
    return new IcebergOptions.Builder()
        .withCatalogProperties(catalogProperties(warehouse))
        .withTable(TABLE)
        .withAutoCreate(SCHEMA, PartitionSpec.unpartitioned())
        .withCommitIntervalRecords(5_000)
        .withCommitIntervalMillis(2_000)
        .withTickIntervalSecs(1)
        .build();
  }

  static StormTopology topology(String runId, long events, IcebergOptions options) {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new EventSpout(runId, events, System.currentTimeMillis()), 1);
    builder.setBolt("iceberg", new IcebergBolt(options), 2).shuffleGrouping("events");
    return builder.createTopology();
  }

  /** Runs the topology in LocalCluster until {@code events} are acked; returns what was committed. */
  public static String run(Path warehouse, long events) throws Exception {
    Catalog catalog = CatalogUtil.buildIcebergCatalog("local", catalogProperties(warehouse), new org.apache.hadoop.conf.Configuration());
    TableSummary before = summaryIfExists(catalog);
    String runId = UUID.randomUUID().toString();
    Config conf = new Config();
    conf.setMaxSpoutPending(20_000);
    conf.setMessageTimeoutSecs(60);
    long started = System.nanoTime();
    try (LocalCluster cluster = new LocalCluster()) {
      cluster.submitTopology("iceberg-example", conf, topology(runId, events, options(warehouse)));
      awaitAcks(runId, events);
      KillOptions kill = new KillOptions();
      kill.set_wait_secs(0);
      cluster.killTopologyWithOpts("iceberg-example", kill);
    }
    long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
    Table table = catalog.loadTable(TableIdentifier.parse(TABLE));
    return "storm-iceberg example: "
        + events
        + " events acked in "
        + seconds
        + " s; "
        + TableSummary.of(table).describeSince(before, TABLE + " at " + table.location());
  }

  private static TableSummary summaryIfExists(Catalog catalog) {
    try {
      return TableSummary.of(catalog.loadTable(TableIdentifier.parse(TABLE)));
    } catch (NoSuchTableException e) {
      return new TableSummary(0, 0, 0);
    }
  }

  private static void awaitAcks(String runId, long events) throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (EventSpout.acked(runId) < events) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "only " + EventSpout.acked(runId) + " of " + events + " events acked after " + DEADLINE);
      }
      Thread.sleep(100);
    }
  }
}
