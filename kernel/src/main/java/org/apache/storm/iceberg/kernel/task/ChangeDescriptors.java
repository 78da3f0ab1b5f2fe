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

import java.util.List;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.kernel.ack.HeldTuples;
import org.apache.storm.iceberg.kernel.ack.Holders;
import org.apache.storm.iceberg.kernel.batch.SealedBatch;
import org.apache.storm.iceberg.kernel.change.ChangeSummary;
import org.apache.storm.iceberg.kernel.commit.CommitOutcome;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.tuple.Tuple;

/**
 * The split sink committer's descriptors of row-level changes. Each commits alone, in the order the
 * committer took them, as one row delta (an append when it holds no deletes) with its source
 * positions: an equality delete reaches only rows of earlier commits, so two batches of one key
 * must never share a commit.
 *
 * <p>The writers do not learn their batches' outcomes (the committer acks or fails the descriptors,
 * whose anchors fail the source tuples), so the committer keeps each source partition's changes in
 * order across writers with the same {@link ChangeFence} rule as {@code IcebergBolt}'s commits: a
 * descriptor holding changes after a failed descriptor's offsets of its partition, without bringing
 * every failed one up to its own largest offset (with what landed since), is failed unattempted,
 * and its offsets join the fence, as do a failed commit's, an expired descriptor's and a refused
 * one's. A committer new to a partition holds back a descriptor after a gap for a while (its
 * predecessor's pending descriptors replay only once Storm times them out). The sequence-inversion
 * tripwire, the unseen-keys check (the descriptor carries the keys its batch removed without writing
 * them) and the delete counts run here, on each commit ({@link org.apache.storm.iceberg.kernel.change.ChangeTripwires}).
 */
final class ChangeDescriptors {
  private final ChangeFence fence;
  private final CommitThenAck committer;
  private final Table table;

  /** {@code table} is the committer's own: its specs type the removed keys' partitions. */
  ChangeDescriptors(ChangeFence fence, CommitThenAck committer, Table table) {
    this.fence = fence;
    this.committer = committer;
    this.table = table;
  }

  /** Whether {@code entry} is a batch of row-level changes: it carries delete files or a change summary. */
  static boolean holds(DataFilesCodec.Entry entry) {
    return !entry.deleteFiles().isEmpty() || entry.changes() != null;
  }

  /**
   * Commits one descriptor's files in a commit of their own and settles it, unless its partitions are
   * fenced.
   *
   * @param held its source positions, or null for none: the fence orders these alone
   * @param committed what the sink's positions ledger held when the committer's round began
   * @param recorded what its commit records in the ledger ({@link RoundClaims}), or null for none
   */
  void commit(Tuple descriptor, DataFilesCodec.Entry entry, Positions held, Positions committed, Positions recorded) {
    Positions positions = held == null ? new Positions() : held;
    HeldTuples tuples = Holders.whole(List.of(descriptor));
    String blocked = positions.isEmpty() ? null : fence.blocksArrived(positions, committed, RoundClaims.elsewhere(entry));
    CommitOutcome outcome;
    if (blocked != null) {
      fence.failed(positions);
      outcome = new CommitOutcome(CommitOutcome.Status.FAILED, null, new IllegalStateException(
          "Committer of " + table.name() + " fails the descriptor of batch " + entry.id() + " from task " + entry.taskIndex()
              + " unattempted: " + blocked));
    } else {
      long records = entry.files().stream().mapToLong(file -> file.recordCount()).sum();
      SealedBatch batch = new SealedBatch(entry.files(), entry.deleteFiles(), tuples, records, entry.oldestTupleMillis(),
          positions, entry.changes() == null ? null : ChangeSummary.decode(entry.changes(), table.specs()))
          .recording(recorded == null ? positions : recorded);
      outcome = committer.commitOnly(batch, DescriptorGroup.summary(1, List.of(entry.taskIndex())));
    }
    committer.settle(outcome, tuples);
  }

  /** A descriptor failed without an attempt (expired, or holding offsets committed or held elsewhere): it replays, so its partitions are fenced. */
  void failed(Positions held) {
    if (held != null) {
      fence.failed(held);
    }
  }
}
