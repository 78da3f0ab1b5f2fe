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

package org.apache.storm.iceberg.kernel.task;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.Snapshot;
import org.apache.storm.iceberg.kernel.commit.CommitOutcome;
import org.apache.storm.iceberg.kernel.commit.CommitProtocol;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Values;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit-event stream ({@code CommitEventFields}): one unanchored tuple per commit that landed.
 * A commit is described where it runs (the commit thread, which looks its snapshot up by commit id)
 * and emitted where its tuples are settled (the executor thread, the only one that may emit).
 */
final class CommitEvents {
  private static final Logger LOG = LoggerFactory.getLogger(CommitEvents.class);

  /** No stream: nothing described, nothing emitted. */
  static final CommitEvents NONE = new CommitEvents(null, null, null);

  private final String stream;
  private final String table;
  private final CommitProtocol protocol;
  /** Described, not yet emitted, by commit id. */
  private final Map<String, Values> described = new ConcurrentHashMap<>();

  /**
   * @param stream the stream to emit on, or null for none
   * @param table the table as the catalog names it ({@code db.events}), which a maintenance task loads
   */
  private CommitEvents(String stream, String table, CommitProtocol protocol) {
    this.stream = stream;
    this.table = table;
    this.protocol = protocol;
  }

  /** The events of the one table {@code settings} target, committed by {@code protocol}. */
  static CommitEvents of(SinkSettings settings, CommitProtocol protocol) {
    String stream = settings.commits().commitEventsStream();
    if (stream == null) {
      return NONE;
    }
    // A routed task's per-table settings name their table; the protocol's name carries the catalog's in front.
    String table = settings.target().table();
    return new CommitEvents(stream, table != null ? table : protocol.tableName(), protocol);
  }

  /** Describes a commit that landed, attempted at {@code attemptMillis}; off the executor is fine. */
  void landed(CommitOutcome outcome, long attemptMillis, int dataFiles, long dataBytes, int deleteFiles, long durationMillis) {
    if (stream == null || !outcome.landed()) {
      return;
    }
    Snapshot snapshot = protocol.landedSnapshot(outcome.commitId(), attemptMillis);
    if (snapshot == null) {
      // Landed, then gone from the branch (rolled back, or expired already): nothing to maintain for it.
      LOG.debug("No snapshot of {} carries commit {} any more; no commit event", protocol.tableName(), outcome.commitId());
      return;
    }
    described.put(outcome.commitId(), new Values(table, snapshot.snapshotId(), snapshot.sequenceNumber(),
        dataFiles, dataBytes, deleteFiles, durationMillis));
  }

  /** Emits the event of a settled commit, if it was described: on the executor thread only. */
  void emit(CommitOutcome outcome, OutputCollector collector) {
    if (stream == null || outcome.commitId() == null) {
      return;
    }
    Values event = described.remove(outcome.commitId());
    if (event != null) {
      collector.emit(stream, event);
    }
  }
}
