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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.spi.WalEntry;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreListing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Iceberg's snapshot expiry ({@link Table#expireSnapshots()}), held back so that it never expires a
 * snapshot a sink still needs ({@link SinkTokens}): the cutoff asked for is moved back to the
 * earliest snapshot any guard keeps, and the run says so ({@link Result#tokenKept()}). Without that,
 * a sink restarted after its token expired finds no positions and writes its replays again.
 *
 * <p>Pending WAL entries come from the sink's WAL store, which must list them ({@link
 * WalStoreListing}); a store that cannot, or a listing that fails, expires nothing.
 */
public final class SnapshotExpiry {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotExpiry.class);

  /**
   * What to expire.
   *
   * @param maxAge snapshots older than this may go
   * @param retainLast the newest snapshots of each branch kept whatever their age (at least 1)
   * @param cleanup what of the files only the expired snapshots referenced is deleted: Iceberg's
   *     cleanup level ({@code ALL}: data, delete and metadata files; {@code METADATA_ONLY}: manifests
   *     and manifest lists, leaving data files to an orphan pass or to other tables that share them;
   *     {@code NONE})
   * @param retired sinks (WAL namespaces or Trident state names) no longer guarded
   */
  public record Settings(Duration maxAge, int retainLast, ExpireSnapshots.CleanupLevel cleanup, Set<String> retired) {
    /** The cleanup level named {@code all}, {@code metadata-only} or {@code none} (any case); refused otherwise, naming them. */
    public static ExpireSnapshots.CleanupLevel cleanupLevel(String name) {
      String wanted = name.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_');
      for (ExpireSnapshots.CleanupLevel level : ExpireSnapshots.CleanupLevel.values()) {
        if (level.name().equals(wanted)) {
          return level;
        }
      }
      throw new IllegalArgumentException("an expiry cleanup level is all, metadata-only or none, got '" + name + "'");
    }

    /** As the canonical constructor; {@code deleteFiles} is cleanup level {@code ALL}, or {@code NONE}. */
    public Settings(Duration maxAge, int retainLast, boolean deleteFiles, Set<String> retired) {
      this(maxAge, retainLast, deleteFiles ? ExpireSnapshots.CleanupLevel.ALL : ExpireSnapshots.CleanupLevel.NONE, retired);
    }

    public Settings {
      Objects.requireNonNull(cleanup, "cleanup");
      Objects.requireNonNull(maxAge, "maxAge");
      if (maxAge.isNegative()) {
        throw new IllegalArgumentException("expiry max age " + maxAge + " is negative: give the age snapshots may reach, e.g. PT24H");
      }
      if (retainLast < 1) {
        throw new IllegalArgumentException("expiry retain-last " + retainLast + " keeps no snapshot: give at least 1");
      }
      retired = Set.copyOf(retired);
    }
  }

  /**
   * What a run did.
   *
   * @param expiredSnapshotIds the snapshots expired (with a dry run, those that would have been)
   * @param requestedCutoffMillis the cutoff the settings asked for
   * @param appliedCutoffMillis the cutoff used: earlier when a token had to be kept
   * @param keptFor the guard that moved the cutoff back, if one did
   */
  public record Result(List<Long> expiredSnapshotIds, long requestedCutoffMillis, long appliedCutoffMillis, Optional<SinkTokens.Guard> keptFor, boolean dryRun) {
    /** Whether a sink's token kept snapshots the settings alone would have expired. */
    public boolean tokenKept() {
      return keptFor.isPresent();
    }
  }

  private final Settings settings;
  /** The sinks' WAL store; null for an expiry without the guard. */
  private final WalStore walStore;

  /** @param walStore the sinks' WAL store, which must list every entry of a table */
  public SnapshotExpiry(Settings settings, WalStore walStore) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.walStore = Objects.requireNonNull(walStore, "walStore");
  }

  private SnapshotExpiry(Settings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.walStore = null;
  }

  /**
   * For tests only: this expiry with the guard off. It keeps no token and reads no WAL entry, so its
   * cutoff is always the one the settings ask for, exactly as Iceberg's own expiry with the same
   * settings. It exists so that a test can show what the guard prevents (a sink writing its
   * replays again) with everything else equal; nothing outside the tests may use it.
   */
  static SnapshotExpiry withoutTheGuardForTests(Settings settings) {
    return new SnapshotExpiry(settings);
  }

  /** Expires what the settings allow and no guard keeps, at {@code nowMillis}; the caller refreshed the table. */
  public Result run(Table table, long nowMillis, boolean dryRun) {
    long requested = nowMillis - settings.maxAge().toMillis();
    Optional<SinkTokens.Guard> earliest = walStore == null ? Optional.empty()
        : SinkTokens.guards(table, pendingCommitIds(table), settings.retired()).stream()
            .min(Comparator.comparingLong(SinkTokens.Guard::earliestTimestampMillis));
    Optional<SinkTokens.Guard> keptFor = earliest.filter(guard -> guard.earliestTimestampMillis() < requested);
    long applied = keptFor.map(SinkTokens.Guard::earliestTimestampMillis).orElse(requested);
    keptFor.ifPresent(guard -> LOG.info(
        "Expiry of {} keeps snapshots from {} on: branch {} needs the {} (cutoff asked for: {})",
        table.name(), applied, guard.branch(), guard.deepest(), requested));

    ExpireSnapshots expiry = table.expireSnapshots()
        .expireOlderThan(applied)
        .retainLast(settings.retainLast())
        .cleanupLevel(settings.cleanup());
    List<Long> expired = ids(expiry.apply());
    if (!dryRun && !expired.isEmpty()) {
      expiry.commit();
    }
    return new Result(expired, requested, applied, keptFor, dryRun);
  }

  private Set<String> pendingCommitIds(Table table) {
    Set<String> ids = new HashSet<>();
    for (WalEntry entry : PendingWalEntries.of(walStore, table, "Cannot expire snapshots",
        "a snapshot a pending entry must settle against could be expired")) {
      ids.add(entry.commitId());
    }
    return ids;
  }

  private static List<Long> ids(List<Snapshot> snapshots) {
    List<Long> ids = new ArrayList<>(snapshots.size());
    for (Snapshot snapshot : snapshots) {
      ids.add(snapshot.snapshotId());
    }
    return ids;
  }
}
