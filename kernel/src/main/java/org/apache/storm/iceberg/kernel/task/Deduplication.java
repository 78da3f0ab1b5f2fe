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

import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.kernel.commit.PositionsLedger;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.apache.storm.iceberg.spi.SourcePositionExtractor;
import org.apache.storm.tuple.ITuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells, for each tuple, where it sits in its source and whether the sink already committed its
 * record, from the positions the sink's newest commit recorded ({@link PositionsLedger}), read again
 * whenever a batch opens.
 *
 * <p>A source's identity (a Kafka topic's id) is checked the first time the task sees the source:
 * positions recorded under another identity belong to an earlier incarnation of the source (the
 * topic was deleted and created again, restarting its offsets), so they are never taken for
 * duplicates. Unless a reset is accepted, every tuple of such a source is refused loudly ({@link
 * SourceResetException}) rather than written or skipped; accepted, the source starts over.
 */
final class Deduplication {
  private static final Logger LOG = LoggerFactory.getLogger(Deduplication.class);
  private final SourcePositionExtractor extractor;
  private final PositionsLedger ledger;
  private final boolean resetAccepted;
  private final SinkMetrics metrics;
  private Positions committed = new Positions();
  /** The sources this task checked, with the identity it found (null: the extractor cannot tell). */
  private final Map<String, String> checked = new HashMap<>();
  /** The last tuple's source (compared by reference: a run of tuples shares one string) and its identity, once checked. */
  private String lastSource;
  private String lastIdentity;
  private boolean tokenMissingWarned;

  Deduplication(SourcePositionExtractor extractor, PositionsLedger ledger, boolean resetAccepted, SinkMetrics metrics) {
    this.extractor = extractor;
    this.ledger = ledger;
    this.resetAccepted = resetAccepted;
    this.metrics = metrics;
  }

  /** Reads what the sink has committed; the caller refreshed the table. */
  void refresh(Table table) {
    PositionsLedger.Committed found = ledger.committed(table);
    warnIfTokenMayBeExpired(table, found);
    committed = found.positions();
    checked.forEach((source, identity) -> {
      String recorded = committed.identityOf(source);
      if (identity != null && recorded != null && !recorded.equals(identity)) {
        // Accepted as a new incarnation, and not yet committed under it.
        committed.forget(source);
      }
    });
  }

  /**
   * Warns, once per task, when no positions of the sink were found in a history that snapshot expiry
   * cut short: if the sink committed to the table before, its token was expired with that history,
   * and what it committed will be written again as its replays come (Beam's suspected token expiry).
   */
  private void warnIfTokenMayBeExpired(Table table, PositionsLedger.Committed found) {
    if (found.historyCutAt() == null || tokenMissingWarned) {
      return;
    }
    tokenMissingWarned = true;
    metrics.tokenMissing();
    LOG.warn("No source positions of this sink in {}, whose history ends at snapshot {}: the snapshots before it were expired."
        + " If this sink committed to the table before, its token (its newest snapshot with positions) was expired with them,"
        + " and the records it committed will be written again when their source replays them. Keep the sinks' tokens: run"
        + " expiry through IcebergMaintenanceBolt or the tools' maintain command, which keep them, not plain expire_snapshots."
        + " If this sink is new to the table, nothing is wrong.", table.name(), found.historyCutAt());
  }

  /**
   * The tuple's position, or null when it has none.
   *
   * @throws SourceResetException when the tuple's source changed identity under committed positions
   * @throws RuntimeException when the extractor cannot read the position or the source's identity
   */
  SourcePosition position(String table, ITuple tuple) {
    SourcePosition position = extractor.position(tuple);
    if (position != null && position.source() != lastSource) {
      if (!checked.containsKey(position.source())) {
        check(table, position.source());
      }
      lastSource = position.source();
      lastIdentity = checked.get(lastSource);
    }
    return position;
  }

  private void check(String table, String source) {
    String identity = extractor.sourceIdentity(source);
    String recorded = committed.identityOf(source);
    if (identity != null && recorded != null && !recorded.equals(identity)) {
      if (!resetAccepted) {
        metrics.offsetRegression();
        throw new SourceResetException(table, source, recorded, identity);
      }
      committed.forget(source);
    }
    checked.put(source, identity);
  }

  /** The identity found for {@code source} when the task checked it, or null. */
  String identity(String source) {
    return source == lastSource ? lastIdentity : checked.get(source);
  }

  /** The largest offset the sink has committed of {@code position}'s source partition, or -1 for none. */
  long largestCommitted(SourcePosition position) {
    return committed.largest(position.source(), position.partition());
  }

  /** What the sink had committed when the open batch opened; the caller must not change it. */
  Positions committed() {
    return committed;
  }

  /** Whether the sink has committed the record at {@code position}. */
  boolean committed(SourcePosition position) {
    return committed.contains(position);
  }

  /** A tuple of a source whose identity changed under committed positions. */
  static final class SourceResetException extends IllegalStateException {
    SourceResetException(String table, String source, String recorded, String identity) {
      super("Source " + source + " changed identity (" + recorded + " when the sink last committed to " + table + ", "
          + identity + " now): it was deleted and created again, so its offsets restarted and the committed ones"
          + " belong to its earlier incarnation. Its tuples are refused, neither written nor skipped; if the reset"
          + " was deliberate, accept it with withSourceResetAccepted(true) and the source starts over");
    }
  }
}
