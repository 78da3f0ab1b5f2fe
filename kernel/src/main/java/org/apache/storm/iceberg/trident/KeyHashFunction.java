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
import org.apache.storm.iceberg.kernel.options.OptionsAccess;
import org.apache.storm.iceberg.kernel.trident.ChangeKeyHash;
import org.apache.storm.trident.operation.BaseFunction;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.operation.TridentOperationContext;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.tuple.Values;

/**
 * Adds each change's key hash ({@link ChangeKeyHash}), which {@link IcebergTrident#persist} partitions
 * a row-level stream by.
 */
final class KeyHashFunction extends BaseFunction {
  private static final long serialVersionUID = 1L;

  private final IcebergOptions options;
  private transient ChangeKeyHash keys;

  KeyHashFunction(IcebergOptions options) {
    this.options = options;
  }

  @Override
  public void prepare(Map<String, Object> conf, TridentOperationContext context) {
    keys = ChangeKeyHash.open(OptionsAccess.settings(options));
  }

  @Override
  public void execute(TridentTuple tuple, TridentCollector collector) {
    collector.emit(new Values(keys.hash(tuple)));
  }

  @Override
  public void cleanup() {
    if (keys != null) {
      keys.close();
    }
  }
}
