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
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import org.apache.storm.task.IMetricsContext;

/**
 * Metrics v2 over a plain Dropwizard registry, for a task outside a topology; the deprecated v1
 * methods throw. A gauge registered again under its name replaces the one before it.
 */
public final class RegistryContext implements IMetricsContext {
  private final MetricRegistry registry;

  public RegistryContext(MetricRegistry registry) {
    this.registry = registry;
  }

  @Override
  public <T extends org.apache.storm.metric.api.IMetric> T registerMetric(String name, T metric, int bucketSecs) {
    throw new UnsupportedOperationException("metrics v1");
  }

  @Override
  public org.apache.storm.metric.api.ReducedMetric registerMetric(
      String name, org.apache.storm.metric.api.IReducer reducer, int bucketSecs) {
    throw new UnsupportedOperationException("metrics v1");
  }

  @Override
  public org.apache.storm.metric.api.CombinedMetric registerMetric(
      String name, org.apache.storm.metric.api.ICombiner combiner, int bucketSecs) {
    throw new UnsupportedOperationException("metrics v1");
  }

  @Override
  public Timer registerTimer(String name) {
    return registry.timer(name);
  }

  @Override
  public com.codahale.metrics.Histogram registerHistogram(String name) {
    return registry.histogram(name);
  }

  @Override
  public com.codahale.metrics.Meter registerMeter(String name) {
    return registry.meter(name);
  }

  @Override
  public Counter registerCounter(String name) {
    return registry.counter(name);
  }

  @Override
  public <T> Gauge<T> registerGauge(String name, Gauge<T> gauge) {
    // A task opened again over the same registry (a restart, in a test or a tool) reports its own gauges.
    registry.remove(name);
    return registry.register(name, gauge);
  }

  @Override
  public void registerMetricSet(String prefix, com.codahale.metrics.MetricSet set) {
    registry.register(prefix, set);
  }
}
