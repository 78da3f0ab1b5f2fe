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
import org.apache.storm.iceberg.kernel.trident.TridentDescriptors;
import org.apache.storm.iceberg.kernel.trident.TridentFiles;
import org.apache.storm.iceberg.kernel.trident.TridentTask;
import org.apache.storm.iceberg.kernel.trident.TridentTransactions;
import org.apache.storm.trident.operation.Aggregator;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.operation.TridentOperationContext;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.tuple.Values;

/**
 * One writing partition of {@link IcebergTrident#persist}: writes each tuple's record as it arrives
 * and, when the batch ends, emits one descriptor of the files, with no files when the partition got
 * no tuples. The files stay invisible until the committing state commits the transaction.
 */
final class FilesAggregator implements Aggregator<FilesAggregator.Batch> {
  private static final long serialVersionUID = 1L;

  private final IcebergOptions options;
  private transient TridentTask task;
  private transient int partitionIndex;

  FilesAggregator(IcebergOptions options) {
    this.options = options;
  }

  /** A batch's writing, opened at its first tuple. */
  static final class Batch {
    private TridentFiles.Writing writing;
  }

  @Override
  public void prepare(Map<String, Object> conf, TridentOperationContext context) {
    partitionIndex = context.getPartitionIndex();
    task = TridentTask.openWriter(OptionsAccess.settings(options), conf, context, partitionIndex, context.numPartitions());
  }

  @Override
  public Batch init(Object batchId, TridentCollector collector) {
    return new Batch();
  }

  @Override
  public void aggregate(Batch batch, TridentTuple tuple, TridentCollector collector) {
    try {
      if (batch.writing == null) {
        batch.writing = task.files().start();
      }
      batch.writing.add(tuple);
    } catch (RuntimeException e) {
      // The writing abandoned itself; the batch replays from scratch.
      batch.writing = null;
      throw TridentTransactions.failed("Cannot write a Trident batch", e);
    }
  }

  @Override
  public void complete(Batch batch, TridentCollector collector) {
    try {
      TridentFiles.Files files = batch.writing == null ? TridentFiles.Files.none() : batch.writing.finish();
      collector.emit(new Values(TridentDescriptors.encode(task.table(), partitionIndex, files, System.currentTimeMillis())));
    } catch (RuntimeException e) {
      throw TridentTransactions.failed("Cannot close a Trident batch's data files", e);
    }
  }

  @Override
  public void cleanup() {}
}
