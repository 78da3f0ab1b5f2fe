package org.apache.storm.iceberg.testing;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import java.util.Map;
import org.apache.storm.metrics2.reporters.StormReporter;

/**
 * A real Storm metrics-v2 reporter (configured through {@code topology.metrics.reporters}) that keeps
 * the worker's registry, so a LocalCluster test can read what the tasks registered.
 */
public class CapturingReporter implements StormReporter {
  private static volatile MetricRegistry registry;

  @Override
  public void prepare(MetricRegistry metricsRegistry, Map<String, Object> topoConf, Map<String, Object> reporterConf) {
    registry = metricsRegistry;
  }

  @Override
  public void start() {}

  @Override
  public void stop() {}

  @Override
  public void close() {}

  /** The sum of a counter over every task of {@code topology} that registered it. */
  public static long sumOfCounters(String topology, String name) {
    long sum = 0;
    for (Map.Entry<String, Counter> counter : registry.getCounters().entrySet()) {
      if (counter.getKey().contains(topology) && counter.getKey().endsWith(name)) {
        sum += counter.getValue().getCount();
      }
    }
    return sum;
  }

  public static void reset() {
    registry = null;
  }

  public static boolean captured() {
    return registry != null;
  }

  /** The names registered, for messages. */
  public static java.util.Set<String> names() {
    return registry == null ? java.util.Set.of() : registry.getNames();
  }
}
