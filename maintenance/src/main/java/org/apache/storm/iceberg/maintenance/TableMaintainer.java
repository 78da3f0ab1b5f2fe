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

package org.apache.storm.iceberg.maintenance;

import com.codahale.metrics.Counter;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.storm.Config;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.spi.SecretReferences;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;
import org.apache.storm.task.IMetricsContext;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The maintenance of the tables one task owns, shared by {@link IcebergMaintenanceBolt} and {@link
 * IcebergMaintenanceFunction}: counts each table's commit events against its {@link TableTriggers}
 * and runs a due pass ({@link MaintenancePass}), holding the table's lease when the options ask for
 * one, on a thread of its own, never the caller's. One pass at a time per table, and one at a time in
 * all: passes queue on that one thread. A failed pass is logged and counted, and runs again when next
 * due. Thread-safe: events and ticks may come from different threads.
 */
final class TableMaintainer {
  private static final Logger LOG = LoggerFactory.getLogger(TableMaintainer.class);
  private static final String[] COUNTERS = {"iceberg-maintenance-passes", "iceberg-maintenance-failures",
      "iceberg-maintenance-token-kept", "iceberg-compaction-files-rewritten", "iceberg-compaction-groups-abandoned",
      "iceberg-snapshots-expired", "iceberg-manifests-rewritten", "iceberg-orphan-files-deleted", "iceberg-maintenance-lease-busy"};

  private final MaintenanceOptions options;
  private final Catalog catalog;
  private final MaintenancePass pass;
  private final MaintenanceLease lease;
  private final String owner;
  private final ScheduledExecutorService passes;
  private final Map<String, Counter> counters = new HashMap<>();
  private final Map<String, TableTriggers> tables = new HashMap<>();
  private final Set<String> running = new HashSet<>();
  /** Tables loaded once, used on the pass thread only. */
  private final Map<String, Table> loaded = new HashMap<>();

  private TableMaintainer(MaintenanceOptions options, Catalog catalog, MaintenancePass pass, MaintenanceLease lease, String owner,
      ScheduledExecutorService passes) {
    this.options = options;
    this.catalog = catalog;
    this.pass = pass;
    this.lease = lease;
    this.owner = owner;
    this.passes = passes;
  }

  /**
   * Opens the maintainer of a task: its catalog, WAL store, lease and pass thread.
   *
   * @param topoConf the topology's configuration, for its message timeout and ZooKeeper
   * @param metrics where the maintenance counters are registered
   * @param task names the task, unique within its topology: the lease owner's id and the thread's name are made from it
   * @throws IllegalStateException when the orphan minimum age does not exceed twice the message timeout, or
   *     the lease or WAL store asked for cannot be had
   */
  static TableMaintainer open(MaintenanceOptions options, Map<String, Object> topoConf, IMetricsContext metrics, String task) {
    requireOrphanAgeAboveTimeout(options, topoConf);
    // Secret references (env:NAME, file:/path) resolve here, on the worker, as the sink's do.
    Map<String, String> resolvedCatalog = SecretReferences.resolve(options.catalogProperties);
    Catalog catalog = catalog(options.catalogName, resolvedCatalog);
    MaintenancePass pass = new MaintenancePass(options, walStore(options, Thread.currentThread().getContextClassLoader()));
    MaintenanceLease lease = openLease(options, topoConf, resolvedCatalog);
    String owner = lease == null ? null : MaintenanceLease.owner(task);
    String threadName = "iceberg-maintenance-" + task.replace('/', '-');
    ScheduledExecutorService passes = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, threadName);
      thread.setDaemon(true);
      return thread;
    });
    TableMaintainer maintainer = new TableMaintainer(options, catalog, pass, lease, owner, passes);
    for (String name : COUNTERS) {
      maintainer.counters.put(name, metrics.registerCounter(name));
    }
    return maintainer;
  }

  /**
   * The catalog the passes load tables from. Secret references (env:NAME, file:/path) resolve here,
   * on the worker, as the sink's do, and the secrets are remembered so that a pass's logged error
   * that echoes one shows it masked ({@link Redaction}).
   */
  static Catalog catalog(MaintenanceOptions options) {
    return catalog(options.catalogName, SecretReferences.resolve(options.catalogProperties));
  }

  /** The catalog of resolved properties, whose secrets every maintenance log line then masks. */
  private static Catalog catalog(String name, Map<String, String> resolvedProperties) {
    Redaction.remember(resolvedProperties);
    return CatalogUtil.buildIcebergCatalog(name, resolvedProperties, new org.apache.hadoop.conf.Configuration());
  }

  /**
   * Refuses an orphan minimum age that a file of a batch still open or committing could reach. A
   * sink's batch stays open at most {@code topology.message.timeout.secs} less its commit deadline
   * margin (older tuples are failed, the batch unappended), and the task that commits it (the bolt
   * itself, or an {@code IcebergCommitterBolt} or Trident commit taking the writers' files) starts no
   * attempt later than the same span after it received them; only then does a WAL entry name the
   * files. So a file may stay unnamed for up to twice the message timeout, and the age must exceed
   * that. Without message timeouts nothing bounds a batch, and orphan removal is refused.
   *
   * @throws IllegalStateException saying which setting to change
   */
  static void requireOrphanAgeAboveTimeout(MaintenanceOptions options, Map<String, Object> topoConf) {
    if (!options.removeOrphans) {
      return;
    }
    if (!ObjectReader.getBoolean(topoConf.get(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS), true)) {
      throw new IllegalStateException("The maintenance bolt removes orphan files, but topology.enable.message.timeouts is false:"
          + " nothing bounds how long a sink's batch stays open or committing, so no minimum age keeps its files safe; turn"
          + " orphan removal off here (withOrphanRemoval(false, ...), Flux remove-orphans: false) and run the tools' maintain"
          + " --remove-orphans while no sink writes the table, or enable message timeouts");
    }
    long timeoutMillis = ObjectReader.getInt(topoConf.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS), 30) * 1_000L;
    long floorMillis = 2 * timeoutMillis;
    if (options.orphanMinAgeMillis <= floorMillis) {
      throw new IllegalStateException("The maintenance bolt's orphan minimum age (" + options.orphanMinAgeMillis + " ms) does not"
          + " exceed twice topology.message.timeout.secs (2 x " + timeoutMillis / 1_000 + " s = " + floorMillis + " ms): a batch"
          + " stays open up to the timeout less its commit deadline margin, and its files may wait as long again for the task"
          + " that commits them before a WAL entry names them, so files of batches still open or committing could be deleted;"
          + " raise withOrphanRemoval's minimum age (Flux orphan-min-age-millis) above " + floorMillis + " ms (the default is"
          + " 3 days), or lower the message timeout");
    }
  }

  static WalStore walStore(MaintenanceOptions options, ClassLoader loader) {
    for (WalStoreFactory factory : ServiceLoader.load(WalStoreFactory.class, loader)) {
      if (factory.name().equals(options.walStore)) {
        return factory.create(options.walStoreProperties);
      }
    }
    throw new IllegalStateException("No WAL store named '" + options.walStore + "' on the class path: put the sinks' WAL"
        + " store provider (storm-iceberg-wal-backends for the built-in ones) beside the maintenance bolt");
  }

  /** The lease {@code options} ask for, or null for none. */
  static MaintenanceLease openLease(MaintenanceOptions options, Map<String, Object> topoConf, Map<String, String> resolvedCatalog) {
    Duration expiry = Duration.ofMillis(options.leaseSessionTimeoutMillis);
    return switch (options.lease) {
      case ZOOKEEPER -> ZooKeeperLease.connect(zooKeeperOf(topoConf), ZooKeeperLease.ROOT, expiry);
      case JDBC -> JdbcLease.connect(options.catalogName, resolvedCatalog, expiry);
      case NONE -> null;
    };
  }

  /** The topology's ZooKeeper, where the leases live: Storm's own. */
  static String zooKeeperOf(Map<String, Object> topoConf) {
    Object servers = topoConf.get(Config.STORM_ZOOKEEPER_SERVERS);
    Object port = topoConf.get(Config.STORM_ZOOKEEPER_PORT);
    if (!(servers instanceof java.util.List<?> hosts) || hosts.isEmpty()) {
      throw new IllegalStateException("The maintenance bolt's lease needs Storm's ZooKeeper, but storm.zookeeper.servers is"
          + " not set; set it, or take the lease in a JDBC catalog's database (withLease(MaintenanceLease.Kind.JDBC, ...)), or turn it off"
          + " (withLease(MaintenanceLease.Kind.NONE, ...)) if nothing else maintains the table");
    }
    StringBuilder connect = new StringBuilder();
    for (Object host : hosts) {
      connect.append(connect.length() == 0 ? "" : ",").append(host).append(':').append(port == null ? 2181 : port);
    }
    return connect.toString();
  }

  /** How often the time trigger and the minimum gap are read: within a tenth of the shorter, between 1 s and 60 s. */
  static int tickSeconds(MaintenanceOptions options) {
    long shortest = Math.max(1_000, Math.min(nonZero(options.triggers().intervalMillis()), nonZero(options.triggers().minGapMillis())) / 10);
    return (int) Math.max(1, Math.min(60, shortest / 1_000));
  }

  private static long nonZero(long millis) {
    return millis == 0 ? Long.MAX_VALUE : millis;
  }

  /** Counts a commit event of {@code table} and starts its pass if one is now due. */
  synchronized void committed(String table, int dataFiles, long dataBytes, int deleteFiles, long nowMillis) {
    TableTriggers triggers = tables.computeIfAbsent(table,
        name -> new TableTriggers(options.triggers(), options.manifestRewriteTriggerCommits(), nowMillis));
    triggers.add(dataFiles, dataBytes, deleteFiles);
    startIfDue(table, triggers, nowMillis);
  }

  /** Starts the pass of every table seen whose time has come. */
  synchronized void tick(long nowMillis) {
    tables.forEach((table, triggers) -> startIfDue(table, triggers, nowMillis));
  }

  /** Ticks every {@link #tickSeconds} on the pass thread: for a caller that gets no tick tuples. */
  void tickOnItsOwn() {
    long period = tickSeconds(options);
    passes.scheduleWithFixedDelay(() -> tick(System.currentTimeMillis()), period, period, TimeUnit.SECONDS);
  }

  /** Starts the pass of {@code table} if one is due, or else its manifest rewrite alone if that is due on its own trigger. */
  private void startIfDue(String table, TableTriggers triggers, long now) {
    if (running.contains(table)) {
      return;
    }
    boolean wholePass = triggers.due(now);
    if (!wholePass && !triggers.manifestRewriteDue(now)) {
      return;
    }
    running.add(table);
    if (wholePass) {
      triggers.started(now);
    } else {
      triggers.manifestRewriteStarted(now);
    }
    passes.execute(() -> {
      try {
        runLeased(table, wholePass);
      } catch (RuntimeException e) {
        counters.get("iceberg-maintenance-failures").inc();
        LOG.warn("A maintenance pass over {} failed; it runs again when next due", table, Redaction.of(e));
      } finally {
        finished(table);
      }
    });
  }

  private synchronized void finished(String table) {
    running.remove(table);
  }

  /**
   * Runs a pass over {@code table} ({@code wholePass}) or its manifest rewrite alone, holding its
   * lease, or skips it while another maintainer holds it.
   */
  private void runLeased(String table, boolean wholePass) {
    Table loadedTable = loaded.computeIfAbsent(table, this::load);
    if (lease == null) {
      record(table, run(loadedTable, wholePass, () -> true));
      return;
    }
    MaintenanceLease.Held held = lease.tryAcquire(table, owner);
    if (held == null) {
      counters.get("iceberg-maintenance-lease-busy").inc();
      LOG.info("Skipping maintenance of {}: {} holds its lease", table, lease.holder(table));
      return;
    }
    try (held) {
      record(table, run(loadedTable, wholePass, held::valid));
    }
  }

  /**
   * Loads {@code table}, as the commit event names it. A JDBC catalog keeps tables per catalog name,
   * so a maintenance task whose catalog name is not the sink's finds none of its tables: said so.
   */
  private Table load(String table) {
    try {
      return catalog.loadTable(TableIdentifier.parse(table));
    } catch (NoSuchTableException e) {
      throw new NoSuchTableException(e, "Table %s does not exist in catalog '%s' (catalogs such as JDBC keep tables per catalog"
          + " name: give the maintenance options the sink's withCatalogName)", table, options.catalogName);
    }
  }

  private MaintenancePass.Result run(Table table, boolean wholePass, java.util.function.BooleanSupplier leaseHeld) {
    return wholePass ? pass.run(table, System.currentTimeMillis(), leaseHeld) : pass.rewriteManifests(table, leaseHeld);
  }

  private void record(String table, MaintenancePass.Result result) {
    LOG.info("Maintenance pass over {}: {}", table, result);
    counters.get("iceberg-maintenance-passes").inc();
    counters.get("iceberg-maintenance-failures").inc(result.failures());
    if (result.compaction() != null) {
      counters.get("iceberg-compaction-files-rewritten").inc(result.compaction().filesRewritten());
      counters.get("iceberg-compaction-groups-abandoned").inc(result.compaction().groupsAbandoned());
    }
    if (result.expiry() != null) {
      counters.get("iceberg-snapshots-expired").inc(result.expiry().expiredSnapshotIds().size());
      if (result.expiry().tokenKept()) {
        counters.get("iceberg-maintenance-token-kept").inc();
      }
    }
    counters.get("iceberg-manifests-rewritten").inc(result.manifestsRewritten());
    if (result.orphans() != null) {
      counters.get("iceberg-orphan-files-deleted").inc(result.orphans().deleted().size());
    }
  }

  /** Stops the pass thread (a pass cut short leaves at most orphan files), then lets go of the lease and the catalog. */
  void close() {
    passes.shutdownNow();
    try {
      // A pass's commit is atomic: one cut short leaves at most orphan files, which a later pass finds.
      passes.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (lease != null) {
      lease.close();
    }
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        LOG.debug("Closing the maintenance catalog failed", Redaction.of(e));
      }
    }
  }
}
