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

package org.apache.storm.iceberg.trident;

import java.util.List;
import org.apache.storm.iceberg.kernel.trident.TridentFiles;
import org.apache.storm.iceberg.kernel.trident.TridentTransactions;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.state.State;
import org.apache.storm.trident.tuple.TridentTuple;

/**
 * One partition of an Iceberg Trident state. Trident calls {@link #beginCommit}, then {@link
 * IcebergStateUpdater} hands {@link #write} the partition's whole batch, then {@link #commit}
 * appends the batch's files in one snapshot, under a commit id built from the WAL namespace, the
 * topology's name, the state name, the partition index and the txid.
 *
 * <p>What a replayed transaction does depends on the state type in the options: with {@code
 * TRANSACTIONAL}, a txid the table already holds for this partition is skipped; with {@code
 * OPAQUE}, a replay of the partition's newest transaction replaces the files its snapshot added,
 * in one overwrite snapshot; a txid older than the newest fails loudly. A batch with no tuples makes
 * no snapshot. A failure is reported as Trident's {@code FailedException}, so the batch replays.
 *
 * <p>With {@code withCommitEvents} in the options, each transaction whose commit landed yields one
 * commit event ({@link org.apache.storm.iceberg.spi.CommitEventFields}), which {@link
 * IcebergStateUpdater} emits at the partition's next batch (see {@link IcebergStateFactory}).
 *
 * <p>Assumptions: the stream in front is partitioned deterministically (see {@link
 * IcebergStateFactory}); one task holds a partition at a time; Trident calls a state from one
 * thread.
 */
public final class IcebergState implements State {
  private final TridentTransactions transactions;
  private final TridentFiles files;

  IcebergState(TridentTransactions transactions, TridentFiles files) {
    this.transactions = transactions;
    this.files = files;
  }

  @Override
  public void beginCommit(Long txid) {
    transactions.begin(txid);
  }

  /**
   * Writes the partition's tuples of the transaction begun into data files, unless the table
   * already holds that transaction.
   *
   * @throws org.apache.storm.topology.FailedException when a tuple cannot be mapped or a file
   *     written; the batch replays
   */
  public void write(List<TridentTuple> tuples) {
    if (!transactions.wantsFiles()) {
      return;
    }
    try {
      transactions.add(files.write(tuples));
    } catch (RuntimeException e) {
      throw TridentTransactions.failed("Cannot write a Trident batch", e);
    }
  }

  /** Emits, through {@code collector}, the events of the commits that landed since the last call. */
  public void emitCommitEvents(TridentCollector collector) {
    transactions.emitCommitEvents(collector);
  }

  @Override
  public void commit(Long txid) {
    transactions.commit(txid);
  }
}
