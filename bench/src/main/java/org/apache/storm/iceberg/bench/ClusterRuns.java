package org.apache.storm.iceberg.bench;

import java.time.Duration;
import java.util.UUID;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.topology.TopologyBuilder;

/** Runs a topology fed by a {@link CountingSpout} in a LocalCluster until every row is acked. */
final class ClusterRuns {
  static final String SPOUT = "events";
  private static final Duration DEADLINE = Duration.ofMinutes(5);

  private ClusterRuns() {}

  /** Builds the topology behind a new spout, runs it to the last ack, kills it, returns what the spout saw. */
  static CountingSpout.Run run(
      LocalCluster cluster, long rows, BenchData data, int maxPending, java.util.function.Consumer<TopologyBuilder> sink)
      throws Exception {
    String key = UUID.randomUUID().toString().substring(0, 8);
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout(SPOUT, new CountingSpout(key, rows, data.columns, data.spec.isUnpartitioned() ? 1 : 16), 1);
    sink.accept(builder);
    Config conf = new Config();
    conf.setMaxSpoutPending(maxPending);
    conf.setMessageTimeoutSecs(120);
    conf.setNumAckers(1);
    String name = "bench-" + key;
    cluster.submitTopology(name, conf, builder.createTopology());
    CountingSpout.Run run = CountingSpout.run(key);
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    try {
      while (run.acked.get() < rows) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(name + ": acked " + run.acked.get() + " of " + rows + " in " + DEADLINE);
        }
        Thread.sleep(20);
      }
      run.doneCpuNanos = CountingSpout.cpuNanos();
    } finally {
      KillOptions kill = new KillOptions();
      kill.set_wait_secs(0);
      cluster.killTopologyWithOpts(name, kill);
      while (cluster.getTopologySummaries().stream().anyMatch(t -> t.get_name().equals(name))) {
        Thread.sleep(100);
      }
    }
    return run;
  }
}
