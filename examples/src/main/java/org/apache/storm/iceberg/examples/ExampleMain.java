package org.apache.storm.iceberg.examples;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.UUID;
import org.apache.storm.StormSubmitter;

/**
 * The command line every example shares:
 *
 * <pre>
 *   ExampleTopology [local|cluster] [warehouse-dir] [events]
 * </pre>
 *
 * <p>{@code local} (the default) runs in LocalCluster until every event is committed, prints a
 * summary and exits (0 on success, 1 otherwise). {@code cluster} submits the topology with {@code
 * StormSubmitter}, as {@code storm jar storm-iceberg-examples-…-topology.jar <class> cluster
 * /shared/warehouse} does; the warehouse must then be a path every worker reaches.
 */
final class ExampleMain {
  private ExampleMain() {}

  /** Submits the topology with StormSubmitter, as {@code storm jar} runs it (the jar is {@code storm.jar}). */
  static void submit(String name, LocalExampleRun.TopologyFactory topology, String runId, long events) throws Exception {
    StormSubmitter.submitTopology(name, LocalExampleRun.config(), topology.create(runId, events));
  }

  static void run(
      String name, String table, long defaultEvents, String[] args,
      java.util.function.Function<Path, LocalExampleRun.TopologyFactory> topologyForWarehouse) {
    boolean cluster = args.length > 0 && args[0].equals("cluster");
    int next = args.length > 0 && (args[0].equals("cluster") || args[0].equals("local")) ? 1 : 0;
    Path warehouse = Paths.get(args.length > next ? args[next] : "warehouse").toAbsolutePath();
    long events = args.length > next + 1 ? Long.parseLong(args[next + 1]) : defaultEvents;
    LocalExampleRun.TopologyFactory topology = topologyForWarehouse.apply(warehouse);
    try {
      if (cluster) {
        submit(name, topology, UUID.randomUUID().toString(), events);
        System.out.println("submitted " + name + ": " + events + " events into " + table + " under " + warehouse);
      } else {
        System.out.println(LocalExampleRun.run(name, warehouse, table, events, topology));
      }
      System.exit(0);
    } catch (Exception | AssertionError e) {
      e.printStackTrace();
      System.exit(1);
    }
  }
}
