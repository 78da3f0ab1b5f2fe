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

package org.apache.storm.iceberg.kernel.grouping;

import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.storm.iceberg.kernel.options.SinkSettings.CatalogTarget;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the sink's table from an upstream task: loads it when the grouping is prepared, then
 * refreshes it every interval on a daemon thread shared by every grouping in the JVM, so that the
 * emitting thread never waits for the catalog. A refresh that finds another spec or schema publishes
 * a new {@link PartitionHasher}, which the emitting thread uses from its next tuple. So a spec change
 * reaches the grouping at most one interval and one catalog round trip after it is committed, with
 * or without traffic.
 *
 * <p>Until the table can be loaded (the sink may still be creating it, or the catalog is down), and
 * while it is unpartitioned, there is no hasher. A refresh that fails keeps the hasher it had and
 * loads the table by name at the next interval, so a table dropped and recreated is followed too.
 * A grouping has no close hook: once it is unreachable (its topology was killed and the worker
 * goes on, as in local mode), its refreshes stop and its catalog is closed.
 */
final class TableFollower {
  private static final Logger LOG = LoggerFactory.getLogger(TableFollower.class);
  private static final ScheduledExecutorService REFRESHES = refreshThread();
  private static final Cleaner CATALOGS = Cleaner.create();

  private final CatalogTarget target;
  private final RecordMapper mapper;
  private final long intervalMillis;
  private final OpenCatalog catalog;
  private volatile PartitionHasher hasher;
  // Touched by one refresh at a time: the first on the preparing thread, then on REFRESHES.
  private Table table;
  private String followed = "";
  private String lastWarning;

  TableFollower(CatalogTarget target, RecordMapper mapper, long intervalMillis) {
    this.target = target;
    this.mapper = mapper;
    this.intervalMillis = intervalMillis;
    this.catalog = new OpenCatalog(target);
    CATALOGS.register(this, catalog);
  }

  /** Loads the table now, on the calling thread, then every interval on the refresh thread. */
  void start() {
    refresh();
    REFRESHES.scheduleWithFixedDelay(new Refresh(this), intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
  }

  /** The hasher for the table's spec as last seen, or null. */
  PartitionHasher hasher() {
    return hasher;
  }

  private void refresh() {
    try {
      if (table == null) {
        table = catalog.get().loadTable(target.tableIdentifier());
      } else {
        table.refresh();
      }
      follow(table);
      lastWarning = null;
    } catch (RuntimeException e) {
      table = null;
      warnOnce(e);
    }
  }

  /** Publishes a new hasher when the spec, the schema or its history changed. */
  private void follow(Table current) {
    String seen = current.spec().specId() + "/" + current.schema().schemaId() + "/" + current.schemas().size();
    if (seen.equals(followed)) {
      return;
    }
    hasher = PartitionHasher.of(current, mapper);
    if (hasher == null) {
      LOG.info("Table {} is unpartitioned: the grouping spreads tuples over the sink's tasks in turn", target.table());
    } else {
      LOG.info("Grouping tuples by the partition of {} under spec {}: {}", target.table(), current.spec().specId(), current.spec());
    }
    followed = seen;
  }

  private static ScheduledExecutorService refreshThread() {
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread thread = new Thread(runnable, "iceberg-grouping-refresh");
      thread.setDaemon(true);
      return thread;
    });
    executor.setRemoveOnCancelPolicy(true);
    return executor;
  }

  /** One follower's refreshes, holding it weakly: they end by throwing once it is gone. */
  private static final class Refresh implements Runnable {
    private final WeakReference<TableFollower> follower;

    Refresh(TableFollower follower) {
      this.follower = new WeakReference<>(follower);
    }

    @Override
    public void run() {
      TableFollower live = follower.get();
      if (live == null) {
        throw new CancellationException("the grouping is gone");
      }
      live.refresh();
    }
  }

  /** The catalog, built on first use and closed by the cleaner once its follower is unreachable. */
  private static final class OpenCatalog implements Runnable {
    private final CatalogTarget target;
    private volatile Catalog catalog;

    OpenCatalog(CatalogTarget target) {
      this.target = target;
    }

    Catalog get() {
      if (catalog == null) {
        catalog = OpenedTable.loadCatalog(target);
      }
      return catalog;
    }

    @Override
    public void run() {
      if (catalog != null) {
        OpenedTable.closeCatalog(catalog);
      }
    }
  }

  private void warnOnce(RuntimeException e) {
    String warning = e.getClass().getName() + ": " + e.getMessage();
    if (!warning.equals(lastWarning)) {
      LOG.warn("Cannot load {} to group tuples by its partition; keeping the grouping it had (tuples spread in turn"
          + " until the table has been loaded once), trying again in {} ms", target.table(),
          intervalMillis, Redaction.of(e));
      lastWarning = warning;
    }
  }
}
