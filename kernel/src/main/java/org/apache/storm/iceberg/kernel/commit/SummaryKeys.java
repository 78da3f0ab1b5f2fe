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

package org.apache.storm.iceberg.kernel.commit;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.storm.iceberg.spi.SinkSnapshotKeys;

/**
 * The snapshot-summary keys of the commit protocol. The commit stage owns them; {@code
 * IcebergOptions} publishes {@link #COMMIT_ID} and {@link #RESERVED_PREFIX}, by which users find the
 * sink's snapshots.
 */
public final class SummaryKeys {
  /** Prefix of every key the sink writes; user snapshot properties may not use it. */
  public static final String RESERVED_PREFIX = SinkSnapshotKeys.RESERVED_PREFIX;
  /** The commit id of every snapshot the sink commits, by which a commit is found again. */
  public static final String COMMIT_ID = SinkSnapshotKeys.COMMIT_ID;

  private SummaryKeys() {}

  /**
   * The summary every commit of a task carries: the user's snapshot properties first, then the
   * sink's own keys naming the task, which win.
   */
  static Map<String, String> withTaskKeys(Map<String, String> user, String topology, String component, int taskIndex) {
    Map<String, String> summary = new LinkedHashMap<>(user);
    summary.put(RESERVED_PREFIX + "topology", topology);
    summary.put(RESERVED_PREFIX + "component", component);
    summary.put(RESERVED_PREFIX + "task-index", String.valueOf(taskIndex));
    return summary;
  }
}
