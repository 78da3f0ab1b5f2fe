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
import java.util.Queue;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.CatalogUtil;
import org.apache.storm.Config;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.spi.CommitEventFields;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.spi.SecretReferences;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maintains the tables a sink commits to, inside the topology: fed the sinks' commit events ({@code
 * withCommitEvents}) by a fields grouping on {@link CommitEventFields#TABLE}, so that one task owns
 * each table and no two passes over a table ever overlap within the topology. Passes ({@link
 * MaintenancePass}) run on a thread of the task's own, never on the executor: tuples are acked at
 * once, and a pass never delays or fails one. Ticks drive the time trigger.
 *
 * <pre>{@code
 * builder.setBolt("iceberg", new IcebergBolt(options.withCommitEvents("iceberg-commits").build()), 4)...;
 * builder.setBolt("maintenance", new IcebergMaintenanceBolt(maintenance), 1)
 *     .fieldsGrouping("iceberg", "iceberg-commits", new Fields(CommitEventFields.TABLE));
 * }</pre>
 *
 * <p>Metrics: {@code iceberg-maintenance-passes}, {@code iceberg-maintenance-failures}, {@code
 * iceberg-maintenance-token-kept}, {@code iceberg-compaction-files-rewritten}, {@code
 * iceberg-compaction-groups-abandoned}, {@code iceberg-snapshots-expired}, {@code
 * iceberg-manifests-rewritten}, {@code iceberg-orphan-files-deleted}, {@code
 * iceberg-maintenance-lease-busy} (a pass skipped: another maintainer held the table's lease).
 *
 * <p>Across topologies and cron runs, a pass first takes the table's lease, on the topology's
 * ZooKeeper ({@link ZooKeeperLease}) or in the JDBC catalog's database ({@link JdbcLease}), as
 * {@link MaintenanceOptions.Builder#withLease(MaintenanceLease.Kind, Duration)} says; a pass that
 * cannot is skipped, and runs when next due.
 */
public class IcebergMaintenanceBolt extends BaseRichBolt {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(IcebergMaintenanceBolt.class);

  private final MaintenanceOptions options;

  private transient OutputCollector collector;
  private transient Catalog catalog;
  private transient MaintenancePass pass;
  private transient ExecutorService passes;
  private transient Map<String, TableTriggers> tables;
  private transient Set<String> running;
  private transient Queue<String> finished;
  private transient Map<String, Table> loaded;
  private transient Map<String, Counter> counters;
  private transient MaintenanceLease lease;
  private transient String owner;

  public IcebergMaintenanceBolt(MaintenanceOptions options) {
    this.options = options;
  }

  @Override
  public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
    requireOrphanAgeAboveTimeout(options, topoConf);
    this.collector = collector;
    // Secret references (env:NAME, file:/path) resolve here, on the worker, as the sink's do.
    Map<String, String> resolvedCatalog = SecretReferences.resolve(options.catalogProperties);
    this.catalog = catalog(options.catalogName, resolvedCatalog);
    this.pass = new MaintenancePass(options, walStore(options, Thread.currentThread().getContextClassLoader()));
    this.lease = openLease(options, topoConf, resolvedCatalog);
    if (lease != null) {
      this.owner = MaintenanceLease.owner(context.getStormId() + "/" + context.getThisComponentId() + "/" + context.getThisTaskIndex());
    }
    String threadName = "iceberg-maintenance-" + context.getThisComponentId() + "-" + context.getThisTaskIndex();
    this.passes = Executors.newSingleThreadExecutor(runnable -> {
      Thread thread = new Thread(runnable, threadName);
      thread.setDaemon(true);
      return thread;
    });
    this.tables = new HashMap<>();
    this.running = new HashSet<>();
    this.finished = new ConcurrentLinkedQueue<>();
    this.loaded = new HashMap<>();
    this.counters = new HashMap<>();
    for (String name : new String[] {"iceberg-maintenance-passes", "iceberg-maintenance-failures", "iceberg-maintenance-token-kept",
        "iceberg-compaction-files-rewritten", "iceberg-compaction-groups-abandoned", "iceberg-snapshots-expired",
        "iceberg-manifests-rewritten", "iceberg-orphan-files-deleted", "iceberg-maintenance-lease-busy"}) {
      counters.put(name, context.registerCounter(name));
    }
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

  /** An orphan younger than the message timeout may be a file of a batch still open: refuse to start rather than delete it. */
  static void requireOrphanAgeAboveTimeout(MaintenanceOptions options, Map<String, Object> topoConf) {
    Object timeout = topoConf.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS);
    long timeoutMillis = timeout instanceof Number seconds ? seconds.longValue() * 1_000 : 30_000;
    if (options.removeOrphans && options.orphanMinAgeMillis <= timeoutMillis) {
      throw new IllegalStateException("The maintenance bolt's orphan minimum age (" + options.orphanMinAgeMillis + " ms) does not"
          + " exceed topology.message.timeout.secs (" + timeoutMillis / 1_000 + " s): files of batches still open could be"
          + " deleted; raise withOrphanRemoval's minimum age well above the message timeout");
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

  @Override
  public void execute(Tuple tuple) {
    long now = System.currentTimeMillis();
    for (String done; (done = finished.poll()) != null; ) {
      running.remove(done);
    }
    if (TupleUtils.isTick(tuple)) {
      tables.forEach((table, triggers) -> startIfDue(table, triggers, now));
    } else {
      String table = tuple.getStringByField(CommitEventFields.TABLE);
      TableTriggers triggers = tables.computeIfAbsent(table, name -> new TableTriggers(options.triggers(), now));
      triggers.add(tuple.getIntegerByField(CommitEventFields.DATA_FILES), tuple.getLongByField(CommitEventFields.DATA_BYTES),
          tuple.getIntegerByField(CommitEventFields.DELETE_FILES));
      startIfDue(table, triggers, now);
    }
    collector.ack(tuple);
  }

  private void startIfDue(String table, TableTriggers triggers, long now) {
    if (running.contains(table) || !triggers.due(now)) {
      return;
    }
    running.add(table);
    triggers.started(now);
    passes.execute(() -> {
      try {
        runLeased(table);
      } catch (RuntimeException e) {
        counters.get("iceberg-maintenance-failures").inc();
        LOG.warn("A maintenance pass over {} failed; it runs again when next due", table, Redaction.of(e));
      } finally {
        finished.add(table);
      }
    });
  }

  /** Runs a pass over {@code table} holding its lease, or skips it while another maintainer holds it. */
  private void runLeased(String table) {
    Table loadedTable = loaded.computeIfAbsent(table, name -> catalog.loadTable(TableIdentifier.parse(name)));
    if (lease == null) {
      record(table, pass.run(loadedTable, System.currentTimeMillis()));
      return;
    }
    MaintenanceLease.Held held = lease.tryAcquire(table, owner);
    if (held == null) {
      counters.get("iceberg-maintenance-lease-busy").inc();
      LOG.info("Skipping maintenance of {}: {} holds its lease", table, lease.holder(table));
      return;
    }
    try (held) {
      record(table, pass.run(loadedTable, System.currentTimeMillis(), held::valid));
    }
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

  @Override
  public void cleanup() {
    if (passes != null) {
      passes.shutdownNow();
      try {
        // A pass's commit is atomic: one cut short leaves at most orphan files, which a later pass finds.
        passes.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
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

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    // The end of the line.
  }

  /** Ticks often enough for the time trigger and the minimum gap to be read within a tenth of them. */
  @Override
  public Map<String, Object> getComponentConfiguration() {
    long shortest = Math.max(1_000, Math.min(nonZero(options.triggers().intervalMillis()), nonZero(options.triggers().minGapMillis())) / 10);
    int seconds = (int) Math.max(1, Math.min(60, shortest / 1_000));
    return TupleUtils.putTickFrequencyIntoComponentConfig(new HashMap<>(), seconds);
  }

  private static long nonZero(long millis) {
    return millis == 0 ? Long.MAX_VALUE : millis;
  }
}
