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
 * the interval passed while commits came, and in any case the minimum gap since the last pass.
 */
final class TableTriggers {
  private final MaintenanceOptions.Triggers triggers;
  private long dataFiles;
  private long dataBytes;
  private long deleteFiles;
  private long commits;
  private long lastPassMillis;

  /** @param nowMillis when the table was first seen: its interval and gap count from there */
  TableTriggers(MaintenanceOptions.Triggers triggers, long nowMillis) {
    this.triggers = triggers;
    this.lastPassMillis = nowMillis;
  }

  void add(long files, long bytes, long deletes) {
    dataFiles += files;
    dataBytes += bytes;
    deleteFiles += deletes;
    commits++;
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

  /** A pass starts: what it covers is no longer counted. */
  void started(long nowMillis) {
    dataFiles = 0;
    dataBytes = 0;
    deleteFiles = 0;
    commits = 0;
    lastPassMillis = nowMillis;
  }

  private static boolean reached(long value, long threshold) {
    return threshold > 0 && value >= threshold;
  }
}
