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
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.state.BaseStateUpdater;
import org.apache.storm.trident.tuple.TridentTuple;

/**
 * Hands a partition's batch to its {@link IcebergState}. Trident calls it once per batch that
 * brought the partition tuples, at the end of the batch, between the state's {@code beginCommit} and
 * {@code commit}. It emits the commit events of the state's earlier transactions, when the options
 * ask for them ({@code withCommitEvents}), with the fields {@link
 * org.apache.storm.iceberg.spi.CommitEventFields#fields()}, which {@code partitionPersist} must
 * declare as its function fields for the events to reach {@code newValuesStream()}.
 */
public final class IcebergStateUpdater extends BaseStateUpdater<IcebergState> {
  private static final long serialVersionUID = 1L;

  @Override
  public void updateState(IcebergState state, List<TridentTuple> tuples, TridentCollector collector) {
    // First, so that a batch that fails to write still carries the events of the commits before it.
    state.emitCommitEvents(collector);
    state.write(tuples);
  }
}
