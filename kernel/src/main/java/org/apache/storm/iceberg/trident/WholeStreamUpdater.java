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
 * Hands the descriptors of a transaction to the {@link WholeStreamState}, after emitting the commit
 * events of its earlier transactions. Every writing partition sends a descriptor per batch, so
 * Trident calls it for every transaction: an event goes out with the next transaction's batch.
 */
final class WholeStreamUpdater extends BaseStateUpdater<WholeStreamState> {
  private static final long serialVersionUID = 1L;

  @Override
  public void updateState(WholeStreamState state, List<TridentTuple> descriptors, TridentCollector collector) {
    state.emitCommitEvents(collector);
    state.add(descriptors);
  }
}
