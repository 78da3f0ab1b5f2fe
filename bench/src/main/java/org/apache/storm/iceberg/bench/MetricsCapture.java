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

package org.apache.storm.iceberg.bench;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.metrics2.reporters.StormReporter;

/**
 * A Storm metrics-v2 reporter (named in {@code topology.metrics.reporters}) that keeps the worker's
 * registry, so a harness can read what the sink's tasks registered (LocalCluster runs its workers
 * in the harness's JVM). One topology at a time: the last worker prepared wins.
 */
public class MetricsCapture implements StormReporter {
  private static volatile MetricRegistry registry;

  /** Adds this reporter to {@code conf}. */
  static void install(Config conf) {
    conf.put(Config.TOPOLOGY_METRICS_REPORTERS,
        List.of(Map.of("class", MetricsCapture.class.getName(), "report.period", 60, "report.period.units", "SECONDS")));
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

  /** The timers called {@code name} of every task of {@code topology}. */
  static List<Timer> timers(String topology, String name) {
    MetricRegistry current = registry;
    if (current == null) {
      return List.of();
    }
    return current.getTimers((key, metric) -> key.contains(topology) && key.endsWith(name)).values().stream()
        .collect(Collectors.toList());
  }

  /** The largest value of the long gauges called {@code name} over every task of {@code topology}, or -1 for none. */
  @SuppressWarnings("rawtypes")
  static long maxOfGauges(String topology, String name) {
    MetricRegistry current = registry;
    long max = -1;
    if (current == null) {
      return max;
    }
    for (Gauge gauge : current.getGauges((key, metric) -> key.contains(topology) && key.endsWith(name)).values()) {
      Object value = gauge.getValue();
      if (value instanceof Number) {
        max = Math.max(max, ((Number) value).longValue());
      }
    }
    return max;
  }
}
