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

import java.util.Map;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.commit.TransactionScope;
import org.apache.storm.iceberg.kernel.options.OptionsAccess;
import org.apache.storm.iceberg.kernel.trident.TridentTask;
import org.apache.storm.task.IMetricsContext;
import org.apache.storm.trident.state.State;
import org.apache.storm.trident.state.StateFactory;

/** Makes the one committing state of {@link IcebergTrident#persist}. */
final class WholeStreamStateFactory implements StateFactory {
  private static final long serialVersionUID = 1L;

  private final IcebergOptions options;

  WholeStreamStateFactory(IcebergOptions options) {
    this.options = options;
  }

  @Override
  public State makeState(Map<String, Object> conf, IMetricsContext metrics, int partitionIndex, int numPartitions) {
    TridentTask task = TridentTask.openState(
        OptionsAccess.settings(options), conf, metrics, partitionIndex, numPartitions, TransactionScope.WHOLE_STREAM);
    return new WholeStreamState(task);
  }
}
