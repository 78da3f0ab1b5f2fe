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

package org.apache.storm.iceberg.kernel.trident;

import java.util.ArrayDeque;
import java.util.Queue;
import org.apache.iceberg.Snapshot;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.tuple.Values;

/**
 * The commit events of one Trident state task ({@code CommitEventFields}): one per transaction whose
 * commit landed. Trident's {@code State.commit} has no collector, so a landed commit is described
 * there and queued, and the queue is emitted through the state updater's collector at the next
 * {@code updateState} of the same state, which Trident calls in a later transaction's commit phase.
 *
 * <p>Once per transaction: the first landing of a txid is described; a later one (an opaque replay
 * that replaces the files of a transaction already described, queued or emitted) is not, and a
 * transaction skipped because the table holds it already makes no commit, so none. The queue lives in
 * the task's memory only: events still queued when the task stops are lost, and with them only the
 * nudge they would have given a maintainer. Not thread-safe: Trident calls a state from one thread.
 */
public final class TridentCommitEvents {
  /** No events: nothing described, nothing emitted. */
  static final TridentCommitEvents NONE = new TridentCommitEvents(null);

  private final String table;
  private final Queue<Values> queued = new ArrayDeque<>();
  /** The newest txid described, or null before the first: txids a state commits only grow. */
  private Long newestTxid;

  /** @param table the table as the catalog names it ({@code db.events}), or null for no events */
  private TridentCommitEvents(String table) {
    this.table = table;
  }

  /** The events of the state that {@code settings} configure, committing to {@code tableName}; {@link #NONE} without a stream. */
  static TridentCommitEvents of(SinkSettings settings, String tableName) {
    if (settings.commits().commitEventsStream() == null) {
      return NONE;
    }
    // The name the user gave, as the bolts' events carry it; the table object's carries the catalog's in front.
    String table = settings.target().table();
    return new TridentCommitEvents(table != null ? table : tableName);
  }

  /** Whether landed commits are described: a stream was asked for. */
  boolean enabled() {
    return table != null;
  }

  /**
   * Describes the landed commit of transaction {@code txid} (null for a batch without one), which made
   * {@code snapshot}, unless an earlier landing of that txid was described already.
   */
  void landed(Long txid, Snapshot snapshot, int dataFiles, long dataBytes, int deleteFiles, long durationMillis) {
    if (table == null) {
      return;
    }
    if (txid != null) {
      if (newestTxid != null && txid <= newestTxid) {
        return;
      }
      newestTxid = txid;
    }
    queued.add(new Values(table, snapshot.snapshotId(), snapshot.sequenceNumber(), dataFiles, dataBytes, deleteFiles, durationMillis));
  }

  /** Emits every queued event, oldest first, through {@code collector}; from the thread that calls the state. */
  public void emit(TridentCollector collector) {
    // Taken off the queue before it goes: an emit that throws never sends an event twice.
    for (Values event; (event = queued.poll()) != null; ) {
      collector.emit(event);
    }
  }
}
