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

import org.apache.iceberg.Table;

/**
 * Iceberg's manifest rewrite ({@link Table#rewriteManifests()}), when a table's current snapshot
 * holds more manifests than a threshold: each commit of a sink adds at least one, and planning a
 * read opens them all.
 */
public final class ManifestRewrite {
  private final int minManifests;

  /** @param minManifests rewrite only when the current snapshot has more manifests than this */
  public ManifestRewrite(int minManifests) {
    this.minManifests = minManifests;
  }

  /** The manifests replaced (with {@code dryRun}, that would be), or 0 when not due; the caller refreshed the table. */
  public int run(Table table, boolean dryRun) {
    if (table.currentSnapshot() == null) {
      return 0;
    }
    int manifests = table.currentSnapshot().allManifests(table.io()).size();
    if (manifests <= minManifests) {
      return 0;
    }
    if (!dryRun) {
      // One cluster per spec: Iceberg packs each spec's entries into manifests of its target size.
      // Without a cluster function it rewrites nothing.
      table.rewriteManifests().clusterBy(file -> file.specId()).set(DataCompaction.SUMMARY_KEY, "manifest-rewrite").commit();
    }
    return manifests;
  }
}
