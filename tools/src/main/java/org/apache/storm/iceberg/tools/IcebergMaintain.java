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

package org.apache.storm.iceberg.tools;

import java.io.PrintStream;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.maintenance.DataCompaction;
import org.apache.storm.iceberg.maintenance.JdbcLease;
import org.apache.storm.iceberg.maintenance.MaintenanceLease;
import org.apache.storm.iceberg.maintenance.MaintenanceOptions;
import org.apache.storm.iceberg.maintenance.ManifestRewrite;
import org.apache.storm.iceberg.maintenance.OrphanFiles;
import org.apache.storm.iceberg.maintenance.SnapshotExpiry;
import org.apache.storm.iceberg.maintenance.ZooKeeperLease;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.spi.SecretReferences;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;

/**
 * The maintenance tasks run once, for operators who prefer cron to a bolt: compaction, snapshot
 * expiry that keeps the sinks' tokens, the manifest rewrite and orphan-file removal, in that order,
 * each only when asked for. {@code --dry-run} plans and reports without changing the table.
 *
 * <pre>
 *   java -jar storm-iceberg-tools-….jar maintain --catalog type=jdbc --catalog uri=… --table db.events \
 *       --compact --expire --expire-max-age PT1H --rewrite-manifests [--dry-run]
 * </pre>
 *
 * With {@code --zookeeper} (Storm's), or {@code --lease jdbc} for a JDBC catalog (a table in the
 * catalog's own database), it first takes the table's maintenance lease, as the maintenance bolt
 * does, so that it never runs beside a topology's maintenance of the same table; it checks the lease
 * before each step, and skips the steps left once it is lost.
 *
 * Exit codes: 0 done, 1 a task failed (the others still ran), 2 a usage or table error, 3 another
 * maintainer holds the table's lease (nothing done).
 */
public final class IcebergMaintain {
  static final String USAGE = "maintain --catalog KEY=VALUE ... --table NS.TABLE [--catalog-name NAME]"
      + " [--compact [--compaction-option KEY=VALUE ...] [--file-format NAME [--file-format-property KEY=VALUE ...]]"
      + " [--write-property KEY=VALUE ...] [--branch NAME]] [--expire [--expire-max-age DURATION] [--retain-last N]"
      + " [--expire-cleanup all|metadata-only|none] [--retired-sink NAME ...]] [--rewrite-manifests [--min-manifests N]] [--remove-orphans [--orphan-min-age DURATION]]"
      + " [--lease zookeeper|jdbc|none] [--zookeeper HOST:PORT,...] [--dry-run] [--wal-store NAME --wal-property KEY=VALUE]";

  private IcebergMaintain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** How long a crashed run's lease outlives it. */
  static final Duration LEASE_EXPIRY = Duration.ofSeconds(30);

  /** Runs the command line {@code args}, reporting to {@code out}; the exit code. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    Arguments arguments;
    Map<String, String> catalogProperties;
    Table table;
    WalStore wal;
    try {
      arguments = Arguments.parse(args);
      if (arguments.compact && arguments.fileFormat != null) {
        DataCompaction.requireFileFormat(arguments.fileFormat);
      }
      catalogProperties = SecretReferences.resolve(arguments.catalog);
      Redaction.remember(catalogProperties);
      Catalog catalog = CatalogUtil.buildIcebergCatalog(arguments.catalogName, catalogProperties,
          new org.apache.hadoop.conf.Configuration());
      table = catalog.loadTable(TableIdentifier.parse(arguments.table));
      wal = ProviderRegistry.find(WalStoreFactory.class, arguments.walStore, IcebergMaintain.class.getClassLoader()).create(arguments.walProperties);
    } catch (IllegalArgumentException e) {
      err.println(Redaction.redact(e.getMessage()));
      return 2;
    } catch (NoSuchTableException e) {
      err.println(Redaction.redact(e.getMessage()) + ": check --table and the catalog properties (--catalog, --catalog-name)");
      return 2;
    }
    if (arguments.lease == MaintenanceLease.Kind.NONE) {
      return runSteps(arguments, table, wal, out, err, () -> true);
    }
    try (MaintenanceLease lease = arguments.lease == MaintenanceLease.Kind.JDBC
        ? JdbcLease.connect(arguments.catalogName, catalogProperties, LEASE_EXPIRY)
        : ZooKeeperLease.connect(arguments.zooKeeper, ZooKeeperLease.ROOT, LEASE_EXPIRY)) {
      MaintenanceLease.Held held = lease.tryAcquire(arguments.table, MaintenanceLease.owner("storm-iceberg-tools maintain"));
      if (held == null) {
        err.println("Another maintainer holds the lease of " + arguments.table + " (" + lease.holder(arguments.table)
            + "): nothing done; run again later");
        return 3;
      }
      try (held) {
        return runSteps(arguments, table, wal, out, err, held::valid);
      }
    } catch (IllegalStateException e) {
      err.println(Redaction.redact(e.getMessage()));
      return 1;
    }
  }

  private static int runSteps(Arguments arguments, Table table, WalStore wal, PrintStream out, PrintStream err,
      BooleanSupplier leaseHeld) {
    String mode = arguments.dryRun ? " (dry run: nothing changed)" : "";
    int failures = 0;
    Step step = (name, task) -> {
      if (!leaseHeld.getAsBoolean()) {
        err.println(name + " skipped: the maintenance lease of " + arguments.table + " was lost, and another maintainer may have"
            + " started; run again later");
        return 1;
      }
      return IcebergMaintain.step(err, name, task);
    };
    if (arguments.compact) {
      failures += step.run("compaction", () -> {
        DataCompaction.Result r = new DataCompaction(arguments.compactionOptions, arguments.fileFormat,
            arguments.fileFormatProperties, arguments.writeProperties).run(table, arguments.branch, arguments.dryRun);
        out.printf("compaction%s: %d groups planned, %d committed, %d dropped on conflict; %d files rewritten into %d;"
            + " %d delete files no data file needs removed%n", mode, r.groupsPlanned(), r.groupsCommitted(), r.groupsAbandoned(),
            r.filesRewritten(), r.filesAdded(), r.deleteFilesRemoved());
      });
    }
    if (arguments.expire) {
      failures += step.run("expiry", () -> {
        table.refresh();
        SnapshotExpiry.Result r = new SnapshotExpiry(new SnapshotExpiry.Settings(arguments.expireMaxAge, arguments.retainLast, arguments.expireCleanup,
            arguments.retiredSinks), wal).run(table, System.currentTimeMillis(), arguments.dryRun);
        out.printf("expiry%s: %d snapshots expired%n", mode, r.expiredSnapshotIds().size());
        r.keptFor().ifPresent(guard -> out.printf("  kept from %d on: branch %s needs the %s%n",
            r.appliedCutoffMillis(), guard.branch(), guard.deepest()));
      });
    }
    if (arguments.rewriteManifests) {
      failures += step.run("manifest rewrite", () -> {
        table.refresh();
        int manifests = new ManifestRewrite(arguments.minManifests).run(table, arguments.dryRun);
        out.printf("manifest rewrite%s: %d manifests rewritten%n", mode, manifests);
      });
    }
    if (arguments.removeOrphans) {
      failures += step.run("orphan removal", () -> {
        OrphanFiles.Result r = new OrphanFiles(new OrphanFiles.Settings(arguments.orphanMinAge, arguments.dryRun), wal)
            .run(table, System.currentTimeMillis());
        out.printf("orphan removal%s: %d files listed, %d orphans %s, %d kept as younger than %s, %d kept for pending WAL"
            + " entries%n", mode, r.filesListed(), r.deleted().size(), r.dryRun() ? "would be deleted" : "deleted", r.keptYoung().size(),
            arguments.orphanMinAge, r.keptForWal().size());
        r.deleted().forEach(location -> out.println("  " + location));
      });
    }
    return failures == 0 ? 0 : 1;
  }

  private interface Step {
    int run(String name, Runnable task);
  }

  private static int step(PrintStream err, String name, Runnable task) {
    try {
      task.run();
      return 0;
    } catch (RuntimeException e) {
      err.println(name + " failed: " + Redaction.redact(e.getMessage()));
      return 1;
    }
  }

  /** The command line, read strictly: an unknown flag is an error that lists the known ones. */
  static final class Arguments {
    String catalogName = IcebergOptions.DEFAULT_CATALOG_NAME;
    final Map<String, String> catalog = new LinkedHashMap<>();
    String table;
    boolean compact;
    final Map<String, String> compactionOptions = new LinkedHashMap<>();
    String fileFormat;
    org.apache.iceberg.ExpireSnapshots.CleanupLevel expireCleanup = org.apache.iceberg.ExpireSnapshots.CleanupLevel.ALL;
    final Map<String, String> fileFormatProperties = new LinkedHashMap<>();
    final Map<String, String> writeProperties = new LinkedHashMap<>();
    String branch = SnapshotRef.MAIN_BRANCH;
    boolean expire;
    Duration expireMaxAge = Duration.ofHours(1);
    int retainLast = 10;
    final Set<String> retiredSinks = new LinkedHashSet<>();
    boolean rewriteManifests;
    int minManifests = 1;
    boolean removeOrphans;
    Duration orphanMinAge = Duration.ofDays(3);
    String zooKeeper;
    MaintenanceLease.Kind lease;
    boolean dryRun;
    String walStore = IcebergOptions.DEFAULT_WAL_STORE;
    final Map<String, String> walProperties = new LinkedHashMap<>();

    static Arguments parse(String[] args) {
      Arguments parsed = new Arguments();
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--compact" -> parsed.compact = true;
          case "--expire" -> parsed.expire = true;
          case "--rewrite-manifests" -> parsed.rewriteManifests = true;
          case "--dry-run" -> parsed.dryRun = true;
          case "--remove-orphans" -> parsed.removeOrphans = true;
          case "--zookeeper" -> parsed.zooKeeper = value(args, i++);
          case "--lease" -> parsed.lease = MaintenanceLease.Kind.named(value(args, i++));
          case "--orphan-min-age" -> parsed.orphanMinAge = duration("--orphan-min-age", value(args, i++));
          case "--catalog" -> keyValue(value(args, i++), parsed.catalog);
          case "--catalog-name" -> parsed.catalogName = value(args, i++);
          case "--table" -> parsed.table = value(args, i++);
          case "--compaction-option" -> keyValue(value(args, i++), parsed.compactionOptions);
          case "--file-format" -> parsed.fileFormat = value(args, i++);
          case "--file-format-property" -> keyValue(value(args, i++), parsed.fileFormatProperties);
          case "--write-property" -> keyValue(value(args, i++), parsed.writeProperties);
          case "--branch" -> parsed.branch = value(args, i++);
          case "--expire-max-age" -> parsed.expireMaxAge = duration("--expire-max-age", value(args, i++));
          case "--retain-last" -> parsed.retainLast = Integer.parseInt(value(args, i++));
          case "--expire-cleanup" -> parsed.expireCleanup = cleanupLevel(value(args, i++));
          case "--retired-sink" -> parsed.retiredSinks.add(value(args, i++));
          case "--min-manifests" -> parsed.minManifests = Integer.parseInt(value(args, i++));
          case "--wal-store" -> parsed.walStore = value(args, i++);
          case "--wal-property" -> keyValue(value(args, i++), parsed.walProperties);
          default -> throw new IllegalArgumentException("unknown option " + args[i] + "; usage: " + USAGE);
        }
      }
      if (parsed.table == null || parsed.catalog.isEmpty()) {
        throw new IllegalArgumentException("usage: " + USAGE);
      }
      if (!parsed.compact && !parsed.expire && !parsed.rewriteManifests && !parsed.removeOrphans) {
        throw new IllegalArgumentException("nothing to do: give --compact, --expire, --rewrite-manifests or --remove-orphans (or several)");
      }
      if (parsed.rewriteManifests && !parsed.branch.equals(SnapshotRef.MAIN_BRANCH)) {
        throw new IllegalArgumentException("--rewrite-manifests rewrites main's manifests only (Iceberg's manifest rewrite"
            + " commits to main), not branch " + parsed.branch + "'s: run it without --branch, or drop it");
      }
      if (parsed.orphanMinAge.toMillis() < MaintenanceOptions.MIN_ORPHAN_AGE_MILLIS) {
        throw new IllegalArgumentException("--orphan-min-age " + parsed.orphanMinAge + " is below "
            + Duration.ofMillis(MaintenanceOptions.MIN_ORPHAN_AGE_MILLIS) + ", the floor the maintenance bolt keeps too: a file"
            + " that young may belong to a sink's batch still open or committing; give more than twice the sinks'"
            + " topology.message.timeout.secs and at least " + Duration.ofMillis(MaintenanceOptions.MIN_ORPHAN_AGE_MILLIS)
            + " (the default is P3D)");
      }
      parsed.checkLease();
      return parsed;
    }

    /** {@code --zookeeper} alone takes the lease there; {@code --lease jdbc} needs a JDBC catalog. */
    private void checkLease() {
      if (lease == null) {
        lease = zooKeeper == null ? MaintenanceLease.Kind.NONE : MaintenanceLease.Kind.ZOOKEEPER;
      }
      if (lease == MaintenanceLease.Kind.ZOOKEEPER && zooKeeper == null) {
        throw new IllegalArgumentException("--lease zookeeper needs --zookeeper HOST:PORT,... (Storm's ZooKeeper)");
      }
      if (lease != MaintenanceLease.Kind.ZOOKEEPER && zooKeeper != null) {
        throw new IllegalArgumentException("--zookeeper goes with --lease zookeeper, not --lease " + lease.flag());
      }
      if (lease == MaintenanceLease.Kind.JDBC && (!JdbcLease.isJdbcCatalog(catalog) || !catalog.containsKey("uri"))) {
        throw new IllegalArgumentException("--lease jdbc takes the lease in the JDBC catalog's database, but the catalog is not a"
            + " JDBC catalog with a uri (--catalog type=jdbc --catalog uri=jdbc:...): take it on Storm's ZooKeeper instead"
            + " (--zookeeper HOST:PORT,...)");
      }
    }

    private static String value(String[] args, int i) {
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(args[i] + " needs a value");
      }
      return args[i + 1];
    }

    private static Duration duration(String option, String text) {
      try {
        return Duration.parse(text);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(option + " takes an ISO-8601 duration such as PT1H or P7D, got " + text);
      }
    }

    private static org.apache.iceberg.ExpireSnapshots.CleanupLevel cleanupLevel(String text) {
      try {
        return SnapshotExpiry.Settings.cleanupLevel(text);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--expire-cleanup: " + e.getMessage(), e);
      }
    }

    private static void keyValue(String pair, Map<String, String> into) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("expected KEY=VALUE, got a value without '='");
      }
      into.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
  }
}
