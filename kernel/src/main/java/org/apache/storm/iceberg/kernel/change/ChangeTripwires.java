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

package org.apache.storm.iceberg.kernel.change;

import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a task's row-level commits count and warn of, none of which stops a batch: a batch whose
 * smallest sequence number from a source lane (a Kafka partition) is below the largest this task
 * committed before from that lane (its change of that key
 * is older than one the table may hold; the check knows no keys, so it also fires for changes of
 * other keys), the update-before images upsert mode dropped, and deletes of keys the table never
 * held ({@link UnseenKeys}). Called by one commit thread at a time, in commit order.
 */
public final class ChangeTripwires {
  private static final Logger LOG = LoggerFactory.getLogger(ChangeTripwires.class);

  private final String table;
  private final SinkMetrics metrics;
  /** Per source lane, the largest sequence number this task committed. */
  private final java.util.Map<String, Long> largestCommitted = new java.util.HashMap<>();

  private final UnseenKeys unseenKeys;

  public ChangeTripwires(String table, SinkMetrics metrics) {
    this.table = table;
    this.metrics = metrics;
    this.unseenKeys = new UnseenKeys(table, metrics);
  }

  /** Counts and warns of what {@code batch} holds before its commit is attempted. */
  public void beforeCommit(ChangeSummary batch) {
    if (batch.updateBeforeDropped() > 0) {
      metrics.updateBeforeDropped(batch.updateBeforeDropped());
    }
    for (java.util.Map.Entry<String, ChangeSummary.Lane> lane : batch.lanes().entrySet()) {
      Long committed = largestCommitted.get(lane.getKey());
      if (committed != null && lane.getValue().smallest() < committed) {
        metrics.sequenceInversion();
        LOG.warn("A batch of changes to {} holds sequence number {} (key {}{}), below {}, the largest this task committed"
            + " before from that source: if that key's newer change is in the table, this older one replaces it. Make"
            + " sure each key's changes reach one task in order (a keyed topic, grouped by topic and partition); the"
            + " check knows no keys, so changes of other keys can set it off too", table, lane.getValue().smallest(),
            lane.getValue().smallestKey(), lane.getKey().isEmpty() ? "" : ", from " + lane.getKey(), committed);
      }
    }
  }

  /**
   * Records a batch that landed as {@code snapshot}'s snapshot of {@code table} (asked for only when
   * the batch removed keys it did not write, which {@link UnseenKeys} then checks).
   */
  public void landed(ChangeSummary batch, java.util.function.Supplier<Snapshot> snapshot, Table table) {
    batch.lanes().forEach((lane, sequences) -> largestCommitted.merge(lane, sequences.largest(), Math::max));
    if (batch.removedKeys() != null && batch.removedKeys().total() > 0) {
      unseenKeys.afterLanding(table, snapshot.get(), batch.removedKeys());
    }
  }

  /** Stops the unseen-keys check's thread. */
  public void close() {
    unseenKeys.close();
  }
}
