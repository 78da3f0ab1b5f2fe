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
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.spi.WalStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One maintenance pass over one table, in the order that leaves the least behind: compaction
 * first (its replaced files become unreferenced), then snapshot expiry (which deletes them once no
 * kept snapshot needs them), then the manifest rewrite, then, at most once per its interval, the
 * removal of orphan files. The manifest rewrite also runs alone, on its own trigger ({@link
 * #rewriteManifests(Table, BooleanSupplier)}). A step that fails is logged and counted,
 * and the next still runs: maintenance never stops a sink, and a failed step runs again next pass.
 */
public final class MaintenancePass {
  private static final Logger LOG = LoggerFactory.getLogger(MaintenancePass.class);

  /**
   * What a pass did.
   *
   * @param compaction the compaction's result, or null when off or failed
   * @param expiry the expiry's result, or null when off or failed
   * @param manifestsRewritten the manifests replaced, 0 when the rewrite was off, not due or failed
   * @param orphans the orphan removal's result, or null when off, not due or failed
   * @param failures the steps that failed
   */
  public record Result(DataCompaction.Result compaction, SnapshotExpiry.Result expiry, int manifestsRewritten, OrphanFiles.Result orphans,
      int failures) {
    /** One line for the log: what each step did, "-" for a step off, not due or failed. */
    @Override
    public String toString() {
      return "compaction " + (compaction == null ? "-" : compaction.filesRewritten() + " files into " + compaction.filesAdded()
              + " (" + compaction.groupsAbandoned() + " groups dropped, " + compaction.deleteFilesRemoved() + " delete files removed)")
          + "; expiry " + (expiry == null ? "-" : expiry.expiredSnapshotIds().size() + " snapshots" + (expiry.tokenKept() ? ", a token kept" : ""))
          + "; manifests " + manifestsRewritten
          + "; orphans " + (orphans == null ? "-" : orphans.deleted().size() + " of " + orphans.filesListed() + " listed")
          + "; " + failures + " steps failed";
    }
  }

  private final MaintenanceOptions options;
  private final DataCompaction compaction;
  private final SnapshotExpiry expiry;
  private final ManifestRewrite manifestRewrite;
  private final OrphanFiles orphanFiles;
  /** When each table's orphans were last removed: only the one maintenance thread reads and writes it. */
  private final Map<String, Long> lastOrphanRemoval = new HashMap<>();

  public MaintenancePass(MaintenanceOptions options, WalStore walStore) {
    this.options = Objects.requireNonNull(options, "options");
    this.compaction = options.compaction ? new DataCompaction(options.compactionOptions, options.compactionFormat) : null;
    this.expiry = options.expiry ? new SnapshotExpiry(options.expirySettings(), walStore) : null;
    this.manifestRewrite = new ManifestRewrite(options.rewriteManifestsMinCount);
    this.orphanFiles = options.removeOrphans
        ? new OrphanFiles(new OrphanFiles.Settings(Duration.ofMillis(options.orphanMinAgeMillis), false), walStore) : null;
  }

  private static boolean stillHeld(Table table, BooleanSupplier leaseHeld) {
    if (leaseHeld.getAsBoolean()) {
      return true;
    }
    LOG.warn("The maintenance lease of {} was lost mid-pass (its ZooKeeper session was suspended or expired, or its JDBC lease"
        + " was not renewed in time or was taken); the pass stops",
        table.name());
    return false;
  }

  /** Iceberg's manifest rewrite commits to main only (RewriteManifests has no toBranch). */
  private boolean manifestRewriteOn() {
    return options.rewriteManifests && options.branch.equals(SnapshotRef.MAIN_BRANCH);
  }

  private int rewriteManifests(Table table) {
    table.refresh();
    return manifestRewrite.run(table, false);
  }

  /**
   * The manifest rewrite alone, on its own trigger: no compaction, expiry or orphan removal. A
   * failure is logged and counted, and the rewrite runs again when next due.
   */
  public Result rewriteManifests(Table table, BooleanSupplier leaseHeld) {
    if (!manifestRewriteOn() || !stillHeld(table, leaseHeld)) {
      return new Result(null, null, 0, null, 0);
    }
    try {
      return new Result(null, null, rewriteManifests(table), null, 0);
    } catch (RuntimeException e) {
      LOG.warn("Manifest rewrite of {} failed; it runs again when next due", table.name(), Redaction.of(e));
      return new Result(null, null, 0, null, 1);
    }
  }

  private boolean orphansDue(String table, long nowMillis) {
    Long last = lastOrphanRemoval.get(table);
    return last == null || nowMillis - last >= options.orphanIntervalMillis;
  }

  /** Runs the pass over {@code table} at {@code nowMillis}: compaction on the options' branch. */
  public Result run(Table table, long nowMillis) {
    return run(table, nowMillis, () -> true);
  }

  /**
   * As {@link #run(Table, long)}, checking before each step that the table's lease is still held;
   * once it is not, the pass ends: another maintainer may have started.
   */
  public Result run(Table table, long nowMillis, BooleanSupplier leaseHeld) {
    int failures = 0;
    DataCompaction.Result compacted = null;
    SnapshotExpiry.Result expired = null;
    int manifests = 0;
    if (compaction != null && stillHeld(table, leaseHeld)) {
      try {
        table.refresh();
        compacted = compaction.run(table, options.branch);
      } catch (RuntimeException e) {
        failures++;
        LOG.warn("Compaction of {} failed; it runs again next pass", table.name(), Redaction.of(e));
      }
    }
    if (expiry != null && stillHeld(table, leaseHeld)) {
      try {
        table.refresh();
        expired = expiry.run(table, nowMillis, false);
      } catch (RuntimeException e) {
        failures++;
        LOG.warn("Snapshot expiry of {} failed; it runs again next pass", table.name(), Redaction.of(e));
      }
    }
    if (manifestRewriteOn() && stillHeld(table, leaseHeld)) {
      try {
        manifests = rewriteManifests(table);
      } catch (RuntimeException e) {
        failures++;
        LOG.warn("Manifest rewrite of {} failed; it runs again next pass", table.name(), Redaction.of(e));
      }
    }
    OrphanFiles.Result orphans = null;
    if (orphanFiles != null && orphansDue(table.name(), nowMillis) && stillHeld(table, leaseHeld)) {
      try {
        orphans = orphanFiles.run(table, nowMillis);
        lastOrphanRemoval.put(table.name(), nowMillis);
      } catch (RuntimeException e) {
        failures++;
        LOG.warn("Orphan-file removal of {} failed; nothing was deleted that a snapshot or WAL entry names, and it runs again"
            + " next pass", table.name(), Redaction.of(e));
      }
    }
    return new Result(compacted, expired, manifests, orphans, failures);
  }
}
