package org.apache.storm.iceberg.testing;

import java.time.Duration;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;

/** Runs a topology in a LocalCluster until its {@link ReplayingSpout} has seen every id acked. */
public final class LocalClusterRuns {
  private LocalClusterRuns() {}

  /** The topology config the tests run with: ample pending tuples and timeout for every batch. */
  public static Config config() {
    Config conf = new Config();
    conf.setMaxSpoutPending(5_000);
    conf.setMessageTimeoutSecs(60);
    conf.put(Config.TOPOLOGY_METRICS_REPORTERS,
        java.util.List.of(Map.of("class", CapturingReporter.class.getName(), "report.period", 60, "report.period.units", "SECONDS")));
    return conf;
  }

  public static void runUntilAllAcked(
      LocalCluster cluster, String name, StormTopology topology, String ledgerKey, long events) throws Exception {
    runUntilAllAcked(cluster, name, topology, ledgerKey, events, config());
  }

  /** As above, with a topology config of the test's own (start from {@link #config()}). */
  public static void runUntilAllAcked(
      LocalCluster cluster, String name, StormTopology topology, String ledgerKey, long events, Config conf)
      throws Exception {
    cluster.submitTopology(name, conf, topology);
    ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(ledgerKey);
    try {
      Deadline.await(
          Duration.ofSeconds(180),
          () -> ledger.acked.size() == events,
          () -> "all " + events + " ids acked; acked " + ledger.acked.size() + ", fails " + ledger.failCount.get());
    } finally {
      KillOptions kill = new KillOptions();
      kill.set_wait_secs(0);
      cluster.killTopologyWithOpts(name, kill);
    }
  }
}
