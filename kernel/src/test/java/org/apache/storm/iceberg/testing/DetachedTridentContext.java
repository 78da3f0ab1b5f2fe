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
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.MetricSet;
import com.codahale.metrics.Timer;
import org.apache.storm.iceberg.kernel.metrics.RegistryContext;
import org.apache.storm.metric.api.CombinedMetric;
import org.apache.storm.metric.api.ICombiner;
import org.apache.storm.metric.api.IMetric;
import org.apache.storm.metric.api.IReducer;
import org.apache.storm.metric.api.ReducedMetric;
import org.apache.storm.trident.operation.TridentOperationContext;
import org.apache.storm.trident.tuple.TridentTupleView;
import org.apache.storm.tuple.Fields;

/**
 * What Trident hands a task outside a topology: a {@link TridentOperationContext} (for an
 * aggregator's {@code prepare}, and as the {@code IMetricsContext} of {@code makeState}) that names
 * the task's partition and keeps its metrics (v2) in a registry of its own, through the kernel's
 * {@link RegistryContext}. It is no {@code TopologyContext}, so the checks that read the topology's
 * wiring are not made.
 */
public final class DetachedTridentContext extends TridentOperationContext {
  private final MetricRegistry registry = new MetricRegistry();
  /** Trident's context is a class, not an interface, so its metrics methods delegate to this one. */
  private final RegistryContext metrics = new RegistryContext(registry);
  private final int partitionIndex;
  private final int partitions;

  public DetachedTridentContext(int partitionIndex, int partitions) {
    super((org.apache.storm.task.TopologyContext) null, new TridentTupleView.FreshOutputFactory(new Fields()));
    this.partitionIndex = partitionIndex;
    this.partitions = partitions;
  }

  /** The task's metrics. */
  public MetricRegistry registry() {
    return registry;
  }

  /** The count of counter {@code name}, 0 when the task never registered it. */
  public long count(String name) {
    Counter counter = registry.getCounters().get(name);
    return counter == null ? 0 : counter.getCount();
  }

  @Override
  public int getPartitionIndex() {
    return partitionIndex;
  }

  @Override
  public int numPartitions() {
    return partitions;
  }

  @Override
  public <T extends IMetric> T registerMetric(String name, T metric, int bucketSecs) {
    return metrics.registerMetric(name, metric, bucketSecs);
  }

  @Override
  public ReducedMetric registerMetric(String name, IReducer reducer, int bucketSecs) {
    return metrics.registerMetric(name, reducer, bucketSecs);
  }

  @Override
  public CombinedMetric registerMetric(String name, ICombiner combiner, int bucketSecs) {
    return metrics.registerMetric(name, combiner, bucketSecs);
  }

  @Override
  public Timer registerTimer(String name) {
    return metrics.registerTimer(name);
  }

  @Override
  public Histogram registerHistogram(String name) {
    return metrics.registerHistogram(name);
  }

  @Override
  public Meter registerMeter(String name) {
    return metrics.registerMeter(name);
  }

  @Override
  public Counter registerCounter(String name) {
    return metrics.registerCounter(name);
  }

  @Override
  public <T> Gauge<T> registerGauge(String name, Gauge<T> gauge) {
    // As a worker's registry does (StormMetricRegistry), and unlike RegistryContext: a gauge
    // registered twice under one name throws, so a state that does so fails here too.
    return registry.register(name, gauge);
  }

  @Override
  public void registerMetricSet(String prefix, MetricSet set) {
    metrics.registerMetricSet(prefix, set);
  }
}
