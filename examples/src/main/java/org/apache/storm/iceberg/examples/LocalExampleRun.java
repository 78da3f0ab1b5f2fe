package org.apache.storm.iceberg.examples;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.iceberg.IcebergBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.topology.TopologyBuilder;

/**
 * Runs an example's spout-to-{@link IcebergBolt} topology in LocalCluster until every event is acked
 * (so committed), then reads the table back and says what was committed.
 */
final class LocalExampleRun {
  static final Duration DEADLINE = Duration.ofMinutes(3);

  private LocalExampleRun() {}

  /** Catalog properties of the embedded local Hadoop catalog under {@code warehouse}. */
  static Map<String, String> catalogProperties(Path warehouse) {
    return Map.of("type", "hadoop", "warehouse", warehouse.toUri().toString());
  }

  static String run(String name, Path warehouse, long events, IcebergOptions options) throws Exception {
    Catalog catalog = CatalogUtil.buildIcebergCatalog("local", catalogProperties(warehouse), new org.apache.hadoop.conf.Configuration());
    TableIdentifier table = TableIdentifier.parse(options.table());
    TableSummary before = summaryIfExists(catalog, table);
    String runId = UUID.randomUUID().toString();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new EventSpout(runId, events, System.currentTimeMillis()), 1);
    builder.setBolt("iceberg", new IcebergBolt(options), 2).shuffleGrouping("events");
    Config conf = new Config();
    conf.setMaxSpoutPending(20_000);
    conf.setMessageTimeoutSecs(60);
    long started = System.nanoTime();
    try (LocalCluster cluster = new LocalCluster()) {
      cluster.submitTopology(name, conf, builder.createTopology());
      awaitAcks(runId, events);
      KillOptions kill = new KillOptions();
      kill.set_wait_secs(0);
      cluster.killTopologyWithOpts(name, kill);
    }
    long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
    Table loaded = catalog.loadTable(table);
    return "storm-iceberg example: "
        + events
        + " events acked in "
        + seconds
        + " s; "
        + TableSummary.of(loaded).describeSince(before, options.table() + " at " + loaded.location());
  }

  private static TableSummary summaryIfExists(Catalog catalog, TableIdentifier table) {
    try {
      return TableSummary.of(catalog.loadTable(table));
    } catch (NoSuchTableException e) {
      return new TableSummary(0, 0, 0);
    }
  }

  private static void awaitAcks(String runId, long events) throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (EventSpout.acked(runId) < events) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("only " + EventSpout.acked(runId) + " of " + events + " events acked after " + DEADLINE);
      }
      Thread.sleep(100);
    }
  }

  /** Runs {@code example} as a program's main: prints its summary and exits 0, or 1 on failure. */
  static void exitWith(ThrowingSupplier example) {
    try {
      System.out.println(example.get());
      System.exit(0);
    } catch (Exception | AssertionError e) {
      e.printStackTrace();
      System.exit(1);
    }
  }

  /** An example run that may throw. */
  interface ThrowingSupplier {
    String get() throws Exception;
  }
}
