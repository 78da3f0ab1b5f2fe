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
import org.apache.storm.iceberg.kernel.trident.TridentDescriptors;
import org.apache.storm.iceberg.kernel.trident.TridentTask;
import org.apache.storm.iceberg.kernel.trident.TridentTransactions;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.state.State;
import org.apache.storm.trident.tuple.TridentTuple;

/**
 * The committing state of {@link IcebergTrident#persist}: gathers the descriptors every partition
 * sent for a transaction and commits all their files in one snapshot, as {@link IcebergState} does
 * for one partition.
 */
final class WholeStreamState implements State {
  private final TridentTask task;

  WholeStreamState(TridentTask task) {
    this.task = task;
  }

  @Override
  public void beginCommit(Long txid) {
    task.transactions().begin(txid);
  }

  void emitCommitEvents(TridentCollector collector) {
    task.transactions().emitCommitEvents(collector);
  }

  void add(List<TridentTuple> descriptors) {
    if (!task.transactions().wantsFiles()) {
      return;
    }
    try {
      for (TridentTuple descriptor : descriptors) {
        task.transactions().add(TridentDescriptors.decode(task.table(), descriptor.getString(0)));
      }
    } catch (RuntimeException e) {
      throw TridentTransactions.failed("Cannot read a Trident batch's descriptors", e);
    }
  }

  @Override
  public void commit(Long txid) {
    task.transactions().commit(txid);
  }
}
