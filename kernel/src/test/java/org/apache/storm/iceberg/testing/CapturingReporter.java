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
