/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *   http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing,
 * software distributed under the License is distributed on an
 * "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
 * KIND, either express or implied.  See the License for the
 * specific language governing permissions and limitations
 * under the License.
 */

package org.apache.storm.iceberg.kernel.metrics;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricFilter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.Config;
import org.apache.storm.metrics2.reporters.StormReporter;

/**
 * A Storm metrics-v2 reporter that reports nothing: it keeps the worker's metric registry, so code in
 * the worker's JVM (a LocalCluster test, a benchmark harness) can read what the sink's tasks
 * registered. Not for production topologies; {@link #install} names it in {@code
 * topology.metrics.reporters}. One topology at a time: the last worker prepared wins. Each reading
 * sums or lists the metrics of every task of a topology, by the topology's name in the metric's key.
 */
public final class RegistryCapture implements StormReporter {
  private static volatile MetricRegistry registry;

  /** Adds this reporter to a topology's configuration. */
  public static void install(Map<String, Object> topologyConfig) {
    topologyConfig.put(Config.TOPOLOGY_METRICS_REPORTERS,
        List.of(Map.of("class", RegistryCapture.class.getName(), "report.period", 60, "report.period.units", "SECONDS")));
  }

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

  /** Whether a worker has handed over its registry since the last {@link #reset()}. */
  public static boolean captured() {
    return registry != null;
  }

  public static void reset() {
    registry = null;
  }

  /** The names registered, for messages; empty before a worker hands over its registry. */
  public static Set<String> names() {
    MetricRegistry current = registry;
    return current == null ? Set.of() : current.getNames();
  }

  /** The sum of counter {@code name} over every task of {@code topology}; fails if no registry was captured. */
  public static long sumOfCounters(String topology, String name) {
    MetricRegistry current = registry;
    if (current == null) {
      throw new IllegalStateException("no worker registry captured: is RegistryCapture.install in the topology's configuration?");
    }
    return current.getCounters(named(topology, name)).values().stream().mapToLong(Counter::getCount).sum();
  }

  /** The timers called {@code name} of every task of {@code topology}; none before a worker hands over its registry. */
  public static List<Timer> timers(String topology, String name) {
    MetricRegistry current = registry;
    return current == null ? List.of() : List.copyOf(current.getTimers(named(topology, name)).values());
  }

  /** The largest value of the number gauges called {@code name} over every task of {@code topology}, or -1 for none. */
  @SuppressWarnings("rawtypes")
  public static long maxOfGauges(String topology, String name) {
    MetricRegistry current = registry;
    long max = -1;
    if (current == null) {
      return max;
    }
    for (Gauge gauge : current.getGauges(named(topology, name)).values()) {
      if (gauge.getValue() instanceof Number value) {
        max = Math.max(max, value.longValue());
      }
    }
    return max;
  }

  private static MetricFilter named(String topology, String name) {
    return (key, metric) -> key.contains(topology) && key.endsWith(name);
  }
}
