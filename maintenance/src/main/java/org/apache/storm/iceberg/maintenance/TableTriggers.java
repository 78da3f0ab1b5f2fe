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

/**
 * What one table received since its last pass, and whether a pass is due: a threshold reached, or
 * the interval passed while commits came, and in any case the minimum gap since the last pass. The
 * manifest rewrite counts apart: it is due on its own after its number of commits since it last ran
 * (in a pass or alone), the minimum gap after that.
 */
final class TableTriggers {
  private final MaintenanceOptions.Triggers triggers;
  private final long manifestCommits;
  private long commitsSinceManifestRewrite;
  private long lastManifestRewriteMillis;
  private long dataFiles;
  private long dataBytes;
  private long deleteFiles;
  private long commits;
  private long lastPassMillis;

  /**
   * @param manifestCommits commits after which the manifest rewrite is due alone, 0 for never
   * @param nowMillis when the table was first seen: its interval and gap count from there
   */
  TableTriggers(MaintenanceOptions.Triggers triggers, long manifestCommits, long nowMillis) {
    this.triggers = triggers;
    this.manifestCommits = manifestCommits;
    this.lastPassMillis = nowMillis;
    this.lastManifestRewriteMillis = nowMillis;
  }

  void add(long files, long bytes, long deletes) {
    dataFiles += files;
    dataBytes += bytes;
    deleteFiles += deletes;
    commits++;
    commitsSinceManifestRewrite++;
  }

  boolean due(long nowMillis) {
    long since = nowMillis - lastPassMillis;
    if (since < triggers.minGapMillis() || commits == 0) {
      return false;
    }
    return reached(dataFiles, triggers.dataFiles()) || reached(dataBytes, triggers.dataBytes())
        || reached(deleteFiles, triggers.deleteFiles()) || reached(commits, triggers.commits())
        || reached(since, triggers.intervalMillis());
  }

  /** Whether the manifest rewrite is due on its own trigger, a pass or not. */
  boolean manifestRewriteDue(long nowMillis) {
    return reached(commitsSinceManifestRewrite, manifestCommits) && nowMillis - lastManifestRewriteMillis >= triggers.minGapMillis();
  }

  /** A pass starts, the manifest rewrite with it: what it covers is no longer counted. */
  void started(long nowMillis) {
    dataFiles = 0;
    dataBytes = 0;
    deleteFiles = 0;
    commits = 0;
    lastPassMillis = nowMillis;
    manifestRewriteStarted(nowMillis);
  }

  /** The manifest rewrite starts alone: its commits are no longer counted. */
  void manifestRewriteStarted(long nowMillis) {
    commitsSinceManifestRewrite = 0;
    lastManifestRewriteMillis = nowMillis;
  }

  private static boolean reached(long value, long threshold) {
    return threshold > 0 && value >= threshold;
  }
}
