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
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.trident.operation.Aggregator;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.state.State;
import org.apache.storm.trident.state.StateFactory;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.tuple.Fields;

/**
 * Lets kernel tests drive the stages {@link IcebergTrident#persist} wires, as Trident would: the
 * writing partitions' aggregator, the committing state's factory and its updater.
 */
public final class TridentStages {
  private TridentStages() {}

  /** The aggregator of one writing partition; its batch object is opaque to the caller. */
  @SuppressWarnings("unchecked")
  public static Aggregator<Object> filesAggregator(IcebergOptions options) {
    return (Aggregator<Object>) (Aggregator<?>) new FilesAggregator(options);
  }

  /** The fields of the descriptors the writing partitions emit. */
  public static Fields descriptorFields() {
    return new Fields(IcebergTrident.DESCRIPTOR_FIELD);
  }

  public static StateFactory wholeStreamStateFactory(IcebergOptions options) {
    return new WholeStreamStateFactory(options);
  }

  /** What {@code partitionPersist} does with the committing state's buffered descriptors. */
  public static void updateWholeStream(State state, List<TridentTuple> descriptors, TridentCollector collector) {
    new WholeStreamUpdater().updateState((WholeStreamState) state, descriptors, collector);
  }
}
