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

package org.apache.storm.iceberg.examples;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;

/**
 * Runs an example topology in LocalCluster until every event is committed (acked, for a spout to
 * bolts; in the table, for Trident), then reads the table back and says what was committed, and how
 * long the first rows took to become visible.
 */
public final class LocalExampleRun {
  static final Duration DEADLINE = Duration.ofMinutes(3);

  private LocalExampleRun() {}

  /** Builds an example's topology for one run: its spout emits {@code events} events as {@code runId}. */
  public interface TopologyFactory {
    StormTopology create(String runId, long events);
  }

  /** Catalog properties of the embedded local Hadoop catalog under {@code warehouse}. */
  public static Map<String, String> catalogProperties(Path warehouse) {
    return Map.of("type", "hadoop", "warehouse", warehouse.toUri().toString());
  }

  /** What kind of topology an example runs: how it is configured, and how a run knows it is done. */
  public enum Pipeline {
    /** A spout into bolts: done when the spout has seen every event acked. */
    BOLTS(20_000),
    /**
     * Trident: its spouts see no acks, so done when the table holds every event. Max spout pending
     * counts batches here, not tuples: a few in flight keep the pipeline busy.
     */
    TRIDENT(3);

    private final int maxSpoutPending;

    Pipeline(int maxSpoutPending) {
      this.maxSpoutPending = maxSpoutPending;
    }

    /** The configuration examples of this kind run with, locally and on a cluster. */
    Config config() {
      Config conf = new Config();
      conf.setMaxSpoutPending(maxSpoutPending);
      conf.setMessageTimeoutSecs(60);
      return conf;
    }

    /** Events of run {@code runId} committed so far: acked, or rows added to the table since {@code before}. */
    long committed(String runId, Catalog catalog, TableIdentifier table, TableSummary before) {
      if (this == BOLTS) {
        return EventSpout.acked(runId);
      }
      try {
        Snapshot current = catalog.loadTable(table).currentSnapshot();
        return current == null ? 0 : Long.parseLong(current.summary().get(SnapshotSummary.TOTAL_RECORDS_PROP)) - before.rows();
      } catch (NoSuchTableException e) {
        return 0;
      }
    }

    String done() {
      return this == BOLTS ? "acked" : "committed";
    }
  }

  /** The configuration the spout-to-bolt examples run with, locally and on a cluster. */
  static Config config() {
    return Pipeline.BOLTS.config();
  }

  /** Runs in a LocalCluster of its own, as an example's {@code main} does. */
  public static String run(String name, Path warehouse, String table, long events, TopologyFactory topology)
      throws Exception {
    return run(name, warehouse, table, events, Pipeline.BOLTS, topology);
  }

  public static String run(String name, Path warehouse, String table, long events, Pipeline pipeline, TopologyFactory topology)
      throws Exception {
    try (LocalCluster cluster = new LocalCluster()) {
      return run(cluster, name, warehouse, table, events, pipeline, topology);
    }
  }

  /**
   * Runs in {@code cluster}, which may be shared: returns once the topology has left it, so the
   * next run may reuse its name.
   */
  public static String run(ILocalCluster cluster, String name, Path warehouse, String table, long events, TopologyFactory topology)
      throws Exception {
    return run(cluster, name, warehouse, table, events, Pipeline.BOLTS, topology);
  }

  public static String run(
      ILocalCluster cluster, String name, Path warehouse, String table, long events, Pipeline pipeline, TopologyFactory topology)
      throws Exception {
    Catalog catalog = CatalogUtil.buildIcebergCatalog("local", catalogProperties(warehouse), new org.apache.hadoop.conf.Configuration());
    TableIdentifier identifier = TableIdentifier.parse(table);
    TableSummary before = summaryIfExists(catalog, identifier);
    String runId = UUID.randomUUID().toString();
    long started = System.nanoTime();
    cluster.submitTopology(name, pipeline.config(), topology.create(runId, events));
    long firstVisibleNanos;
    try {
      firstVisibleNanos = awaitCommitted(pipeline, runId, events, catalog, identifier, before) - started;
    } finally {
      kill(cluster, name);
    }
    long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
    Table loaded = catalog.loadTable(identifier);
    return "storm-iceberg example: "
        + events
        + " events " + pipeline.done() + " in "
        + seconds
        + " s; first rows visible "
        + Duration.ofNanos(firstVisibleNanos).toMillis()
        + " ms after submission; "
        + TableSummary.of(loaded).describeSince(before, table + " at " + loaded.location());
  }

  private static void kill(ILocalCluster cluster, String name) throws Exception {
    KillOptions kill = new KillOptions();
    kill.set_wait_secs(0);
    cluster.killTopologyWithOpts(name, kill);
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (cluster.getTopologySummaries().stream().anyMatch(t -> t.get_name().equals(name))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("topology " + name + " still in the cluster " + DEADLINE + " after it was killed");
      }
      Thread.sleep(50);
    }
  }

  private static TableSummary summaryIfExists(Catalog catalog, TableIdentifier table) {
    try {
      return TableSummary.of(catalog.loadTable(table));
    } catch (NoSuchTableException e) {
      return new TableSummary(0, 0, 0);
    }
  }

  /** Waits until every event is committed; returns when (System.nanoTime()) the first new snapshot showed. */
  private static long awaitCommitted(
      Pipeline pipeline, String runId, long events, Catalog catalog, TableIdentifier table, TableSummary before)
      throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    long firstVisible = -1;
    while (pipeline.committed(runId, catalog, table, before) < events || firstVisible < 0) {
      if (firstVisible < 0 && snapshots(catalog, table) > before.snapshots()) {
        firstVisible = System.nanoTime();
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("only " + pipeline.committed(runId, catalog, table, before) + " of " + events + " events "
            + pipeline.done() + " after " + DEADLINE);
      }
      Thread.sleep(50);
    }
    return firstVisible;
  }

  private static int snapshots(Catalog catalog, TableIdentifier table) {
    try {
      int count = 0;
      for (var ignored : catalog.loadTable(table).snapshots()) {
        count++;
      }
      return count;
    } catch (NoSuchTableException e) {
      return 0;
    }
  }
}
