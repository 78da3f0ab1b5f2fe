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

package org.apache.storm.iceberg.kernel;

import static org.apache.storm.iceberg.OptionsInternals.settings;

import com.codahale.metrics.MetricRegistry;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;

/**
 * What the routing tests share: a real HadoopCatalog in a test's directory whose tables' operations
 * inject {@link #faults}, a recording collector, a test clock, metrics in a registry of their own,
 * and options routing by a field through a template into auto-created tables.
 */
final class RoutingFixture {
  static final TaskIdentity TASK = new TaskIdentity("topology", "iceberg", 7, 0, 1);

  final AtomicLong clock = new AtomicLong(1_000_000);
  final RecordingCollector recorder = new RecordingCollector();
  final Faults faults = Faults.create();
  final MetricRegistry registry = new MetricRegistry();
  final Map<String, String> catalogProperties;
  final Catalog catalog;

  RoutingFixture(Path dir) {
    Map<String, String> hadoop = TestCatalogs.hadoop(dir);
    this.catalogProperties = FaultInjectingCatalog.properties(hadoop, faults);
    this.catalog = TestCatalogs.load(hadoop);
  }

  /** Routes by {@code template} ({@code db.events_{region}}) into auto-created tables; seals at 1,000 records. */
  IcebergOptions.Builder options(String template) {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTableRouter("field", Map.of("template", template))
        .withAutoCreate(TestTables.SCHEMA, PartitionSpec.unpartitioned()).withCommitIntervalRecords(1_000);
  }

  /** The task's environment on {@code time}, its metrics in {@link #registry}. */
  TaskEnvironment env(Map<String, Object> topologyConfig, LongSupplier time) {
    return new TaskEnvironment(TASK, recorder.collector(), time, SinkMetrics.detached(registry, time), topologyConfig);
  }

  /** A routing task committing each table as it seals, on the test clock. */
  RoutedSinkTask open(IcebergOptions options, Map<String, Object> topologyConfig) {
    return RoutedSinkTask.open(settings(options), env(topologyConfig, clock::get), SinkTasks::open);
  }

  RoutedSinkTask open(IcebergOptions options) {
    return open(options, Map.of());
  }

  Table table(String namespace, String name) {
    return catalog.loadTable(TableIdentifier.of(namespace, name));
  }
}
