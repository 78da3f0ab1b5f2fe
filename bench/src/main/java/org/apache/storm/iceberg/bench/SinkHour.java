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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.maintenance.IcebergMaintenanceBolt;
import org.apache.storm.iceberg.maintenance.MaintenanceOptions;
import org.apache.storm.iceberg.spi.CommitEventFields;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.tuple.TupleImpl;

/**
 * The simulated hour with the sink running: an {@link org.apache.storm.iceberg.IcebergBolt} task
 * commits each batch of {@code rowsPerCommit} rows of {@link BenchData} (5 columns, 4 buckets of
 * c0), Parquet files rolled at 1,000 rows, so that a batch of 8,000 rows makes about 8 files over the
 * four partitions. When maintained, an {@link IcebergMaintenanceBolt} task gets the sink's commit
 * events, as a {@code fieldsGrouping} on the table would deliver them, and maintains the table on
 * its own thread while the sink goes on committing: compaction, expiry and manifest rewrites race
 * the sink's commits as they do in a topology.
 */
final class SinkHour implements AutoCloseable {
  static final String EVENTS = "iceberg-commits";
  private static final int DURATION = CommitEventFields.fields().fieldIndex(CommitEventFields.DURATION_MILLIS);
  private static final int DATA_FILES = CommitEventFields.fields().fieldIndex(CommitEventFields.DATA_FILES);
  private static final int SNAPSHOT_ID = CommitEventFields.fields().fieldIndex(CommitEventFields.SNAPSHOT_ID);

  /**
   * The maintained table's properties, as README recommends beside the maintenance bolt at several commits a second: the
   * sink's appends never merge manifests on its commit path (a merge took 65–165 ms of CPU, one commit in a hundred;
   * the maintenance bolt's manifest rewrite packs them), a commit that meets a maintenance commit retries after 10 ms
   * rather than 100, and a maintenance commit, slower than the sink's, gets ten tries at landing between them.
   */
  static final Map<String, String> MAINTAINED_TABLE_PROPERTIES = Map.of(
      TableProperties.MANIFEST_MERGE_ENABLED, "false",
      TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "10",
      TableProperties.COMMIT_NUM_RETRIES, "10");

  private final BenchData data = new BenchData(5, 4);
  private final int rowsPerCommit;
  private final PreparedBolt sink;
  private final IcebergMaintenanceBolt maintenance;
  private final TopologyContext maintenanceContext;
  private final StormMetricRegistry maintenanceMetrics = new StormMetricRegistry();
  /** The commit events' durations and data files, in the order the commits landed. */
  final List<Long> commitMillis = new CopyOnWriteArrayList<>();
  final List<Integer> commitFiles = new CopyOnWriteArrayList<>();
  private long rowsSent;

  /**
   * @param catalog the catalog the sink's table {@code db.events} is created in
   * @param maintenanceOptions the maintenance bolt's options; {@code null} for none
   */
  SinkHour(Map<String, String> catalog, int rowsPerCommit, MaintenanceOptions maintenanceOptions) {
    this.rowsPerCommit = rowsPerCommit;
    IcebergOptions options = data.sinkOptions(catalog)
        .withAutoCreate(data.schema, data.spec, maintenanceOptions == null ? Map.of() : MAINTAINED_TABLE_PROPERTIES)
        .withCommitIntervalRecords(rowsPerCommit)
        .withWriteProperties(Map.of(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "1"))
        .withCommitEvents(EVENTS)
        .build();
    if (maintenanceOptions == null) {
      maintenance = null;
      maintenanceContext = null;
    } else {
      maintenance = new IcebergMaintenanceBolt(maintenanceOptions);
      Map<String, Object> conf = PreparedBolt.workerConf(maintenance.getComponentConfiguration());
      maintenanceContext = PreparedBolt.context(conf, Map.of(PreparedBolt.BOLT, Map.of(EVENTS, CommitEventFields.fields())),
          PreparedBolt.MAINTENANCE, 3, maintenanceMetrics);
      maintenance.prepare(conf, maintenanceContext, new OutputCollector(new PreparedBolt.CountingCollector()));
    }
    sink = new PreparedBolt(options, data.fields, (stream, values) -> {
      if (stream.equals(EVENTS)) {
        delivered(values);
      }
    });
  }

  /** {@code key=value,key=value} as a map. */
  static Map<String, String> pairs(String pairs) {
    Map<String, String> properties = new java.util.HashMap<>();
    for (String pair : pairs.split(",")) {
      if (!pair.isBlank()) {
        properties.put(pair.substring(0, pair.indexOf('=')).trim(), pair.substring(pair.indexOf('=') + 1).trim());
      }
    }
    return properties;
  }

  /** A commit event: recorded, and passed to the maintenance task as the stream would pass it. */
  private void delivered(List<Object> event) {
    commitMillis.add(((Number) event.get(DURATION)).longValue());
    CommitReportLog.line("event", event.get(SNAPSHOT_ID), event.get(DURATION), CommitReportLog.gcMillis(),
        CommitReportLog.cpuMillisOfThreads("iceberg-maintenance"), CommitReportLog.cpuMillisOfThreads("iceberg-commit"));
    commitFiles.add(((Number) event.get(DATA_FILES)).intValue());
    if (maintenance != null) {
      maintenance.execute(new TupleImpl(maintenanceContext, event, PreparedBolt.BOLT, 2, EVENTS));
    }
  }

  /** Sends one batch of rows, not seen before, and waits until the sink has committed and acked it. */
  void commitOneBatch() {
    long first = rowsSent;
    for (long row = first; row < first + rowsPerCommit; row++) {
      sink.bolt.execute(data.tuple(row));
    }
    rowsSent += rowsPerCommit;
    sink.settle(rowsSent);
    if (sink.counts.acked != rowsSent) {
      throw new IllegalStateException("acked " + sink.counts.acked + " of " + rowsSent + ", failed " + sink.counts.failed,
          sink.counts.lastError);
    }
  }

  /** A counter of the maintenance task ({@code iceberg-maintenance-passes}, ...); 0 when unmaintained. */
  long maintenanceCounter(String name) {
    return maintenanceMetrics.getRegistry().getCounters((metric, counter) -> metric.endsWith("-" + name)).values().stream()
        .mapToLong(com.codahale.metrics.Counter::getCount).sum();
  }

  /** Waits, up to {@code deadline}, until the maintenance task has run more than {@code passes} passes. */
  void awaitPassesAbove(long passes, java.time.Duration deadline) {
    long end = System.nanoTime() + deadline.toNanos();
    while (maintenanceCounter("iceberg-maintenance-passes") <= passes) {
      if (System.nanoTime() > end) {
        throw new IllegalStateException("no maintenance pass ended within " + deadline);
      }
      java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
    }
  }

  long rowsSent() {
    return rowsSent;
  }

  /** Reads every row of the table back: throws unless each row sent is there exactly once. */
  static long readEveryRowOnce(org.apache.iceberg.Table table, long rowsSent) {
    BitSet seen = new BitSet();
    long rows = 0;
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).select("c0").build()) {
      for (Record record : read) {
        int id = Math.toIntExact((Long) record.get(0));
        if (seen.get(id)) {
          throw new IllegalStateException("row " + id + " read back twice");
        }
        seen.set(id);
        rows++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (rows != rowsSent) {
      throw new IllegalStateException("read back " + rows + " rows of " + rowsSent);
    }
    return rows;
  }

  static TableIdentifier table() {
    return TableIdentifier.of("db", "events");
  }

  /** Waits for the maintenance pass under way, if any, by stopping the maintenance task. */
  @Override
  public void close() {
    sink.close();
    if (maintenance != null) {
      maintenance.cleanup();
    }
  }
}
