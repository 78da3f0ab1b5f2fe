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

import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.position.Positions;

/**
 * What each commit of one split-sink committer round records in its table's positions ledger: the
 * descriptor's own positions, plus the offsets its routing writer routed to other tables ({@link
 * DataFilesCodec.Entry#elsewhere}) that neither the ledger, as the round began, nor an earlier commit
 * of the round records. A writer opens its next batch before its last descriptor landed, so its
 * descriptors' offsets routed elsewhere overlap; the committer, which alone learns what landed,
 * takes each offset once (a ledger refuses a commit that records an offset twice). A writer puts in
 * {@code elsewhere} only offsets its router sent to other tables, never one of the descriptor's own
 * table, so a claim never records an offset of its table that is not in its batch: a record is
 * skipped on replay only when its own table committed it (docs/ROUTING.md, "The split sink").
 *
 * <p>An earlier commit of the round that failed still counts as recording its claims: a later commit
 * of the round leaves those offsets out, a gap the table's next commit closes. One per round, on
 * the committer's executor thread.
 */
final class RoundClaims {
  private final Positions recorded;

  /** @param committed what the table's ledger held as the round began; left unchanged */
  RoundClaims(Positions committed) {
    this.recorded = committed.copy();
  }

  /**
   * The positions the commit of {@code entry}'s batch records: {@code held}, its own (or null for
   * none), plus what it may claim of {@code elsewhere}, which then counts as recorded.
   *
   * @return null when the descriptor carries no positions
   */
  Positions recording(DataFilesCodec.Entry entry, Positions held) {
    if (held == null) {
      return null;
    }
    Positions recording = held.copy();
    Positions others = elsewhere(entry);
    if (others != null) {
      recording.addAllExcept(others, recorded);
    }
    recorded.addAll(recording);
    return recording;
  }

  /** The offsets the descriptor's writer routed to other tables, or null for none. */
  static Positions elsewhere(DataFilesCodec.Entry entry) {
    return entry.elsewhere() == null ? null : Positions.decode(entry.elsewhere());
  }
}
