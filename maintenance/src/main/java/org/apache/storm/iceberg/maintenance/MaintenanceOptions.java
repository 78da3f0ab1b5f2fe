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

import java.io.Serializable;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.SnapshotRef;
import org.apache.storm.iceberg.spi.SecretReferences;

/**
 * What {@link IcebergMaintenanceBolt} maintains and when. A pass over a table runs when one trigger
 * is reached since the table's last pass (data files, bytes or delete files added, commits, or time),
 * and never sooner than the minimum gap after it. A pass compacts, then expires snapshots, then
 * rewrites the manifests if the table has more than the manifest threshold; each can be turned off.
 * The manifest rewrite also has a trigger of its own (commits since it last ran), so that it runs
 * between passes when compaction and expiry are not due.
 * The defaults suit one commit a second. Built with {@link Builder} or, for Flux, {@link #fromMap}.
 * Validated on the submitting client by {@link Builder#build()}.
 */
public final class MaintenanceOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The catalog name the sinks use unless they name another (a JDBC catalog keeps tables per name). */
  public static final String DEFAULT_CATALOG_NAME = "storm_iceberg";
  /** The WAL store the sinks use unless they name another: the table's own FileIO. */
  public static final String DEFAULT_WAL_STORE = "table-fileio";
  /** The youngest orphan ever deleted: no batch stays open and committing longer than Storm's message timeouts allow, in practice. */
  public static final long MIN_ORPHAN_AGE_MILLIS = Duration.ofHours(1).toMillis();

  final String catalogName;
  final Map<String, String> catalogProperties;
  final String walStore;
  final Map<String, String> walStoreProperties;
  final Triggers triggers;
  final boolean compaction;
  final Map<String, String> compactionOptions;
  /** The file-format provider compaction writes with, chosen as the sink chooses its own. */
  final CompactionFormat compactionFormat;
  final boolean expiry;
  final long expiryMaxAgeMillis;
  final int expiryRetainLast;
  final org.apache.iceberg.ExpireSnapshots.CleanupLevel expiryCleanup;
  final Set<String> retiredSinks;
  final boolean rewriteManifests;
  final int rewriteManifestsMinCount;
  final long rewriteManifestsTriggerCommits;
  final boolean removeOrphans;
  final long orphanMinAgeMillis;
  final long orphanIntervalMillis;
  final MaintenanceLease.Kind lease;
  final long leaseSessionTimeoutMillis;
  final String branch;

  /**
   * When a table's pass is due: each threshold counts since its last pass, 0 turns it off.
   *
   * @param minGapMillis no pass sooner than this after the last one, whatever the counts
   */
  public record Triggers(long dataFiles, long dataBytes, long deleteFiles, long commits, long intervalMillis, long minGapMillis)
      implements Serializable {}

  private MaintenanceOptions(Builder b) {
    this.catalogName = b.catalogName;
    this.catalogProperties = Map.copyOf(b.catalogProperties);
    this.walStore = b.walStore;
    this.walStoreProperties = Map.copyOf(b.walStoreProperties);
    this.triggers = new Triggers(b.dataFiles, b.dataBytes, b.deleteFiles, b.commits, b.intervalMillis, b.minGapMillis);
    this.compaction = b.compaction;
    this.compactionOptions = Map.copyOf(b.compactionOptions);
    this.compactionFormat = new CompactionFormat(b.fileFormat, b.fileFormatProperties, b.writeProperties);
    this.expiry = b.expiry;
    this.expiryMaxAgeMillis = b.expiryMaxAgeMillis;
    this.expiryRetainLast = b.expiryRetainLast;
    this.expiryCleanup = b.expiryCleanup;
    this.retiredSinks = Set.copyOf(b.retiredSinks);
    this.rewriteManifests = b.rewriteManifests;
    this.rewriteManifestsMinCount = b.rewriteManifestsMinCount;
    this.rewriteManifestsTriggerCommits = b.rewriteManifestsTriggerCommits;
    this.removeOrphans = b.removeOrphans;
    this.orphanMinAgeMillis = b.orphanMinAgeMillis;
    this.orphanIntervalMillis = b.orphanIntervalMillis;
    this.lease = b.lease;
    this.leaseSessionTimeoutMillis = b.leaseSessionTimeoutMillis;
    this.branch = b.branch;
  }

  public Triggers triggers() {
    return triggers;
  }

  /**
   * After how many commits since it last ran the manifest rewrite runs on its own, between passes;
   * 0 when it runs with passes only (off, turned off, or a branch other than main, whose manifests
   * Iceberg does not rewrite).
   */
  public long manifestRewriteTriggerCommits() {
    return rewriteManifests && branch.equals(SnapshotRef.MAIN_BRANCH) ? rewriteManifestsTriggerCommits : 0;
  }

  /** The expiry settings a pass uses. */
  public SnapshotExpiry.Settings expirySettings() {
    return new SnapshotExpiry.Settings(Duration.ofMillis(expiryMaxAgeMillis), expiryRetainLast, expiryCleanup, retiredSinks);
  }

  /**
   * Options from a map, for Flux ({@code factory: "fromMap"}). Keys: {@code catalog} (a map, required),
   * {@code catalog-name}, {@code branch}, {@code wal-store}, {@code wal-store-properties}, {@code trigger-data-files},
   * {@code trigger-data-bytes}, {@code trigger-delete-files}, {@code trigger-commits}, {@code
   * trigger-interval-millis}, {@code min-gap-millis}, {@code compaction}, {@code compaction-options},
   * {@code file-format}, {@code file-format-properties}, {@code write-properties},
   * {@code expiry}, {@code expiry-max-age-millis}, {@code expiry-retain-last}, {@code
   * expiry-delete-files}, {@code expiry-cleanup} ({@code all}, {@code metadata-only} or {@code none}), {@code retired-sinks}, {@code rewrite-manifests}, {@code
   * rewrite-manifests-min-count}, {@code rewrite-manifests-trigger-commits}, {@code remove-orphans}, {@code orphan-min-age-millis}, {@code
   * orphan-interval-millis}, {@code lease} ({@code zookeeper}, {@code jdbc} or {@code none}; {@code true} is {@code
   * zookeeper}, {@code false} {@code none}), {@code lease-session-timeout-millis}. An unknown key is refused, naming the known ones.
   */
  public static MaintenanceOptions fromMap(Map<String, Object> config) {
    Builder b = new Builder();
    for (Map.Entry<String, Object> entry : config.entrySet()) {
      Object v = entry.getValue();
      switch (entry.getKey()) {
        case "catalog" -> b.withCatalogProperties(stringMap(entry.getKey(), v));
        case "catalog-name" -> b.withCatalogName(String.valueOf(v));
        case "wal-store" -> b.withWalStore(String.valueOf(v), b.walStoreProperties);
        case "wal-store-properties" -> b.withWalStore(b.walStore, stringMap(entry.getKey(), v));
        case "trigger-data-files" -> b.triggerOnDataFiles(number(entry.getKey(), v));
        case "trigger-data-bytes" -> b.triggerOnDataBytes(number(entry.getKey(), v));
        case "trigger-delete-files" -> b.triggerOnDeleteFiles(number(entry.getKey(), v));
        case "trigger-commits" -> b.triggerOnCommits(number(entry.getKey(), v));
        case "trigger-interval-millis" -> b.triggerEvery(Duration.ofMillis(number(entry.getKey(), v)));
        case "min-gap-millis" -> b.withMinGap(Duration.ofMillis(number(entry.getKey(), v)));
        case "compaction" -> b.withCompaction(bool(entry.getKey(), v), b.compactionOptions);
        case "compaction-options" -> b.withCompaction(b.compaction, stringMap(entry.getKey(), v));
        case "file-format" -> b.withFileFormat(String.valueOf(v), b.fileFormatProperties);
        case "file-format-properties" -> b.withFileFormat(b.fileFormat, stringMap(entry.getKey(), v));
        case "write-properties" -> b.withWriteProperties(stringMap(entry.getKey(), v));
        case "expiry" -> b.withExpiry(bool(entry.getKey(), v));
        case "expiry-max-age-millis" -> b.withExpiryMaxAge(Duration.ofMillis(number(entry.getKey(), v)));
        case "expiry-retain-last" -> b.withExpiryRetainLast((int) number(entry.getKey(), v));
        case "expiry-delete-files" -> b.withExpiryDeletingFiles(bool(entry.getKey(), v));
        case "expiry-cleanup" -> b.withExpiryCleanup(cleanupLevel(entry.getKey(), v));
        case "retired-sinks" -> b.withRetiredSinks(stringList(entry.getKey(), v).toArray(String[]::new));
        case "rewrite-manifests" -> b.withManifestRewrite(bool(entry.getKey(), v), b.rewriteManifestsMinCount);
        case "rewrite-manifests-min-count" -> b.withManifestRewrite(b.rewriteManifests, (int) number(entry.getKey(), v));
        case "rewrite-manifests-trigger-commits" -> b.triggerManifestRewriteOnCommits(number(entry.getKey(), v));
        case "remove-orphans" -> b.withOrphanRemoval(bool(entry.getKey(), v), Duration.ofMillis(b.orphanMinAgeMillis),
            Duration.ofMillis(b.orphanIntervalMillis));
        case "orphan-min-age-millis" -> b.withOrphanRemoval(b.removeOrphans, Duration.ofMillis(number(entry.getKey(), v)),
            Duration.ofMillis(b.orphanIntervalMillis));
        case "orphan-interval-millis" -> b.withOrphanRemoval(b.removeOrphans, Duration.ofMillis(b.orphanMinAgeMillis),
            Duration.ofMillis(number(entry.getKey(), v)));
        case "lease" -> b.withLease(leaseKind(entry.getKey(), v), Duration.ofMillis(b.leaseSessionTimeoutMillis));
        case "lease-session-timeout-millis" -> b.withLease(b.lease, Duration.ofMillis(number(entry.getKey(), v)));
        case "branch" -> b.withBranch(String.valueOf(v));
        default -> throw new IllegalArgumentException("Unknown maintenance option '" + entry.getKey() + "'; known: " + KNOWN_KEYS);
      }
    }
    return b.build();
  }

  private static org.apache.iceberg.ExpireSnapshots.CleanupLevel cleanupLevel(String key, Object value) {
    try {
      return SnapshotExpiry.Settings.cleanupLevel(String.valueOf(value));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
    }
  }

  private static final List<String> KNOWN_KEYS = List.of("catalog", "catalog-name", "wal-store", "wal-store-properties",
      "trigger-data-files", "trigger-data-bytes", "trigger-delete-files", "trigger-commits", "trigger-interval-millis",
      "min-gap-millis", "compaction", "compaction-options", "file-format", "file-format-properties", "write-properties", "expiry", "expiry-max-age-millis", "expiry-retain-last",
      "expiry-delete-files", "expiry-cleanup", "retired-sinks", "rewrite-manifests", "rewrite-manifests-min-count",
      "rewrite-manifests-trigger-commits", "remove-orphans",
      "orphan-min-age-millis", "orphan-interval-millis", "lease", "lease-session-timeout-millis", "branch");

  /** The keys {@link #fromMap} takes. */
  public static List<String> mapKeys() {
    return KNOWN_KEYS;
  }

  private static Map<String, String> stringMap(String key, Object value) {
    if (!(value instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException("Maintenance option '" + key + "' takes a map, got " + typeOf(value));
    }
    Map<String, String> strings = new LinkedHashMap<>();
    map.forEach((k, v) -> strings.put(String.valueOf(k), String.valueOf(v)));
    return strings;
  }

  private static List<String> stringList(String key, Object value) {
    if (!(value instanceof List<?> list)) {
      throw new IllegalArgumentException("Maintenance option '" + key + "' takes a list, got " + typeOf(value));
    }
    return list.stream().map(String::valueOf).toList();
  }

  private static long number(String key, Object value) {
    if (value instanceof Number n && n.doubleValue() == n.longValue()) {
      return n.longValue();
    }
    throw new IllegalArgumentException("Maintenance option '" + key + "' takes a whole number, got " + typeOf(value));
  }

  private static boolean bool(String key, Object value) {
    if (value instanceof Boolean b) {
      return b;
    }
    throw new IllegalArgumentException("Maintenance option '" + key + "' takes true or false, got " + typeOf(value));
  }

  private static MaintenanceLease.Kind leaseKind(String key, Object value) {
    if (value instanceof Boolean enabled) {
      return enabled ? MaintenanceLease.Kind.ZOOKEEPER : MaintenanceLease.Kind.NONE;
    }
    if (value instanceof String name) {
      return MaintenanceLease.Kind.named(name);
    }
    throw new IllegalArgumentException("Maintenance option '" + key + "' takes zookeeper, jdbc or none, got " + typeOf(value));
  }

  private static String typeOf(Object value) {
    return value == null ? "null" : value.getClass().getSimpleName() + " " + value;
  }

  /** The settings; catalog property values never appear, as they may hold credentials. */
  @Override
  public String toString() {
    return "MaintenanceOptions{catalog=" + catalogName + " " + new TreeSet<>(catalogProperties.keySet()) + ", walStore=" + walStore
        + ", " + triggers + ", compaction=" + compaction + (compactionOptions.isEmpty() ? "" : " " + compactionOptions) + " writing " + compactionFormat
        + ", expiry=" + expiry + (expiry ? " maxAgeMillis=" + expiryMaxAgeMillis + " retainLast=" + expiryRetainLast : "")
        + (retiredSinks.isEmpty() ? "" : " retired=" + new TreeSet<>(retiredSinks))
        + (branch.equals(SnapshotRef.MAIN_BRANCH) ? "" : ", branch=" + branch)
        + ", rewriteManifests=" + rewriteManifests + (rewriteManifests ? " over " + rewriteManifestsMinCount
            + " every " + rewriteManifestsTriggerCommits + " commits" : "")
        + ", lease=" + lease.flag() + ", removeOrphans=" + removeOrphans + (removeOrphans ? " olderThanMillis=" + orphanMinAgeMillis + " everyMillis=" + orphanIntervalMillis : "")
        + "}";
  }

  /** Builds {@link MaintenanceOptions}; defaults suit one commit a second. */
  public static final class Builder {
    private String catalogName = DEFAULT_CATALOG_NAME;
    private Map<String, String> catalogProperties;
    private String walStore = DEFAULT_WAL_STORE;
    private Map<String, String> walStoreProperties = Map.of();
    private long dataFiles = 1_000;
    private long dataBytes = 0;
    private long deleteFiles = 100;
    private long commits = 600;
    private long intervalMillis = Duration.ofHours(1).toMillis();
    private long minGapMillis = Duration.ofMinutes(5).toMillis();
    private boolean compaction = true;
    private Map<String, String> compactionOptions = Map.of();
    private String fileFormat;
    private Map<String, String> fileFormatProperties = Map.of();
    private Map<String, String> writeProperties = Map.of();
    private boolean expiry = true;
    private long expiryMaxAgeMillis = Duration.ofHours(1).toMillis();
    private int expiryRetainLast = 10;
    private org.apache.iceberg.ExpireSnapshots.CleanupLevel expiryCleanup = org.apache.iceberg.ExpireSnapshots.CleanupLevel.ALL;
    private Set<String> retiredSinks = Set.of();
    private boolean rewriteManifests = true;
    private int rewriteManifestsMinCount = 100;
    private long rewriteManifestsTriggerCommits = 100;
    private boolean removeOrphans = true;
    private long orphanMinAgeMillis = Duration.ofDays(3).toMillis();
    private long orphanIntervalMillis = Duration.ofDays(1).toMillis();
    private MaintenanceLease.Kind lease = MaintenanceLease.Kind.ZOOKEEPER;
    private long leaseSessionTimeoutMillis = Duration.ofSeconds(30).toMillis();
    private String branch = SnapshotRef.MAIN_BRANCH;

    /**
     * The catalog holding the tables, as {@code CatalogUtil.buildIcebergCatalog} takes it; required.
     * Secret-named properties may be references ({@code env:NAME}, {@code file:/path}), resolved on
     * the worker, as the sink's are.
     */
    public Builder withCatalogProperties(Map<String, String> properties) {
      this.catalogProperties = Map.copyOf(Objects.requireNonNull(properties, "withCatalogProperties"));
      return this;
    }

    /**
     * The branch compaction rewrites: the one the sink writes ({@code withBranch} on the sink), {@code
     * main} by default. Expiry keeps every branch's sink token whatever this says; Iceberg rewrites
     * manifests on {@code main} only, so on another branch the manifest rewrite is skipped.
     */
    public Builder withBranch(String branch) {
      if (branch == null || branch.isBlank()) {
        throw new IllegalArgumentException("withBranch needs a branch name, such as main or the one the sink writes (withBranch)");
      }
      this.branch = branch;
      return this;
    }

    public Builder withCatalogName(String name) {
      this.catalogName = Objects.requireNonNull(name, "withCatalogName");
      return this;
    }

    /** The sinks' WAL store (its provider name and properties), whose pending entries expiry keeps. */
    public Builder withWalStore(String name, Map<String, String> properties) {
      this.walStore = Objects.requireNonNull(name, "withWalStore");
      this.walStoreProperties = Map.copyOf(properties);
      return this;
    }

    public Builder triggerOnDataFiles(long files) {
      this.dataFiles = notNegative(files, "triggerOnDataFiles");
      return this;
    }

    public Builder triggerOnDataBytes(long bytes) {
      this.dataBytes = notNegative(bytes, "triggerOnDataBytes");
      return this;
    }

    public Builder triggerOnDeleteFiles(long files) {
      this.deleteFiles = notNegative(files, "triggerOnDeleteFiles");
      return this;
    }

    public Builder triggerOnCommits(long commits) {
      this.commits = notNegative(commits, "triggerOnCommits");
      return this;
    }

    /** A pass at least this often while the table receives commits; {@link Duration#ZERO} for none. */
    public Builder triggerEvery(Duration interval) {
      this.intervalMillis = notNegative(interval.toMillis(), "triggerEvery");
      return this;
    }

    public Builder withMinGap(Duration gap) {
      this.minGapMillis = notNegative(gap.toMillis(), "withMinGap");
      return this;
    }

    /** Whether a pass compacts, and Iceberg's rewrite options for it ({@code min-input-files}, {@code target-file-size-bytes}, ...). */
    /**
     * The file-format provider compaction writes with, and its properties: give the sink's {@code
     * withFileFormat}, so that compacted files are written as the sink's are. Default: the provider
     * named like the table's {@code write.format.default}, as the sink's default. A provider named
     * must be on the classpath (checked at {@link #build()}).
     */
    public Builder withFileFormat(String provider, Map<String, String> properties) {
      this.fileFormat = provider;
      this.fileFormatProperties = Map.copyOf(Objects.requireNonNull(properties, "withFileFormat properties"));
      return this;
    }

    /** Iceberg {@code write.*} properties for compaction's files, over the table's: give the sink's {@code withWriteProperties}. */
    public Builder withWriteProperties(Map<String, String> properties) {
      this.writeProperties = Map.copyOf(Objects.requireNonNull(properties, "withWriteProperties"));
      return this;
    }

    public Builder withCompaction(boolean enabled, Map<String, String> options) {
      this.compaction = enabled;
      this.compactionOptions = Map.copyOf(options);
      return this;
    }

    public Builder withExpiry(boolean enabled) {
      this.expiry = enabled;
      return this;
    }

    public Builder withExpiryMaxAge(Duration maxAge) {
      this.expiryMaxAgeMillis = notNegative(maxAge.toMillis(), "withExpiryMaxAge");
      return this;
    }

    public Builder withExpiryRetainLast(int snapshots) {
      this.expiryRetainLast = snapshots;
      return this;
    }

    /** Whether expiry deletes the files only expired snapshots referenced: cleanup level {@code ALL} (the default) or {@code NONE}. */
    public Builder withExpiryDeletingFiles(boolean deleteFiles) {
      return withExpiryCleanup(deleteFiles ? org.apache.iceberg.ExpireSnapshots.CleanupLevel.ALL
          : org.apache.iceberg.ExpireSnapshots.CleanupLevel.NONE);
    }

    /**
     * What expiry deletes of the files only expired snapshots referenced, as Iceberg's cleanup level:
     * {@code ALL} (the default: data, delete and metadata files), {@code METADATA_ONLY} (manifests and
     * manifest lists; data files stay, for tables that share them or for an orphan pass), {@code NONE}.
     */
    public Builder withExpiryCleanup(org.apache.iceberg.ExpireSnapshots.CleanupLevel level) {
      this.expiryCleanup = Objects.requireNonNull(level, "withExpiryCleanup");
      return this;
    }

    /** Sinks (WAL namespaces, or Trident state names) whose tokens expiry no longer keeps: sinks taken out of service. */
    public Builder withRetiredSinks(String... sinks) {
      this.retiredSinks = Set.of(sinks);
      return this;
    }

    /** Whether a pass rewrites the manifests of a table holding more than {@code minManifests}. */
    public Builder withManifestRewrite(boolean enabled, int minManifests) {
      this.rewriteManifests = enabled;
      this.rewriteManifestsMinCount = minManifests;
      return this;
    }

    /**
     * Runs the manifest rewrite on its own once {@code commits} commits came since it last ran, and
     * the minimum gap since then passed, whether or not a pass is due (a pass runs it too); 0 for
     * with passes only. It still rewrites only a table holding more manifests than {@link
     * #withManifestRewrite}'s threshold. Default: 100, about as many manifests as the threshold.
     */
    public Builder triggerManifestRewriteOnCommits(long commits) {
      this.rewriteManifestsTriggerCommits = notNegative(commits, "triggerManifestRewriteOnCommits");
      return this;
    }

    /**
     * Whether a pass also deletes orphan files (files under the table no snapshot and no pending WAL
     * entry names), only those older than {@code minAge}, and at most once per {@code interval} per
     * table (it lists the whole table location). {@code minAge} must exceed the longest a batch can
     * stay open (the message timeout less the sink's commit deadline margin) plus the time its
     * committing task may hold its files before a WAL entry names them (as long again), so twice
     * {@code topology.message.timeout.secs}: the bolt refuses to start otherwise, as it does in a
     * topology without message timeouts. At least {@link MaintenanceOptions#MIN_ORPHAN_AGE_MILLIS} ({@link
     * #build()} refuses less). Default: on, 3 days, once a day.
     */
    public Builder withOrphanRemoval(boolean enabled, Duration minAge, Duration interval) {
      this.removeOrphans = enabled;
      this.orphanMinAgeMillis = minAge.toMillis();
      this.orphanIntervalMillis = notNegative(interval.toMillis(), "withOrphanRemoval's interval");
      return this;
    }

    /** {@code withLease(enabled ? ZOOKEEPER : NONE, sessionTimeout)}. */
    public Builder withLease(boolean enabled, Duration sessionTimeout) {
      return withLease(enabled ? MaintenanceLease.Kind.ZOOKEEPER : MaintenanceLease.Kind.NONE, sessionTimeout);
    }

    /**
     * Where a pass first takes the table's lease ({@link MaintenanceLease}), so that no other
     * topology or cron run maintains the table at the same time: on the topology's ZooKeeper ({@link
     * ZooKeeperLease}), or in a table of the JDBC catalog's own database ({@link JdbcLease}: a JDBC
     * catalog only, and every maintainer of the table must use it), or nowhere. A crashed maintainer's
     * lease expires after {@code expiry} (the ZooKeeper session timeout, or the JDBC lease's duration).
     * Default: ZooKeeper, 30 s.
     */
    public Builder withLease(MaintenanceLease.Kind kind, Duration expiry) {
      this.lease = Objects.requireNonNull(kind, "withLease");
      this.leaseSessionTimeoutMillis = expiry.toMillis();
      if (kind != MaintenanceLease.Kind.NONE && leaseSessionTimeoutMillis < 1_000) {
        throw new IllegalArgumentException("withLease's expiry " + expiry + " is below a second: ZooKeeper refuses such"
            + " sessions, and a JDBC lease would be renewed more often than a database should be asked; give e.g. PT30S");
      }
      return this;
    }

    /** Checks everything; a mistake fails here, on the submitting client, saying how to fix it. */
    public MaintenanceOptions build() {
      if (catalogProperties == null || catalogProperties.isEmpty()) {
        throw new IllegalArgumentException("Maintenance needs the tables' catalog: withCatalogProperties(...) (Flux: catalog),"
            + " the same properties the sink uses");
      }
      SecretReferences.validate(catalogProperties);
      if (compaction && fileFormat != null) {
        CompactionFormat.requireProvider(fileFormat, Thread.currentThread().getContextClassLoader());
      }
      if (lease == MaintenanceLease.Kind.JDBC && (!JdbcLease.isJdbcCatalog(catalogProperties) || !catalogProperties.containsKey("uri"))) {
        throw new IllegalArgumentException("The jdbc maintenance lease lives in the JDBC catalog's database, but the catalog is not"
            + " a JDBC catalog with a uri (type " + catalogProperties.get("type") + ", catalog-impl " + catalogProperties.get("catalog-impl")
            + "): take the lease on Storm's ZooKeeper instead (withLease(MaintenanceLease.Kind.ZOOKEEPER, ...), Flux lease:"
            + " zookeeper), or none if nothing else maintains the tables");
      }
      if (dataFiles == 0 && dataBytes == 0 && deleteFiles == 0 && commits == 0 && intervalMillis == 0) {
        throw new IllegalArgumentException("Every maintenance trigger is off, so nothing would ever run: set at least one of"
            + " triggerOnDataFiles, triggerOnDataBytes, triggerOnDeleteFiles, triggerOnCommits, triggerEvery");
      }
      if (!compaction && !expiry && !rewriteManifests && !removeOrphans) {
        throw new IllegalArgumentException("Compaction, expiry, manifest rewrite and orphan removal are all off: turn one on,"
            + " or leave the maintenance bolt out of the topology");
      }
      if (removeOrphans && orphanMinAgeMillis < MIN_ORPHAN_AGE_MILLIS) {
        throw new IllegalArgumentException("withOrphanRemoval's minimum age " + Duration.ofMillis(orphanMinAgeMillis) + " is below "
            + Duration.ofMillis(MIN_ORPHAN_AGE_MILLIS) + ": a file that young may belong to a batch still open or committing;"
            + " give more than twice the topology's message timeout and at least " + Duration.ofMillis(MIN_ORPHAN_AGE_MILLIS)
            + " (Flux orphan-min-age-millis; the default is 3 days)");
      }
      if (rewriteManifests && rewriteManifestsMinCount < 1) {
        throw new IllegalArgumentException("withManifestRewrite needs a manifest count of at least 1, got " + rewriteManifestsMinCount);
      }
      MaintenanceOptions options = new MaintenanceOptions(this);
      if (expiry) {
        options.expirySettings(); // refuses a retain-last below 1
      }
      return options;
    }

    private static long notNegative(long value, String setter) {
      if (value < 0) {
        throw new IllegalArgumentException(setter + " takes 0 (off) or more, got " + value);
      }
      return value;
    }
  }
}
