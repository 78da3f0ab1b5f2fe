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

package org.apache.storm.iceberg.bench;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.spout.IBatchSpout;
import org.apache.storm.tuple.Fields;

/**
 * The Trident counterpart of {@link CountingSpout}: emits rows {@code 0..count-1} of {@link
 * BenchData} in batches of {@code batchSize} rows, one batch per Trident transaction, and counts a
 * batch's rows as acked when Trident reports the transaction committed ({@link #ack}). A replayed
 * transaction re-emits the rows it first emitted (transactional, within the worker's life). Reports
 * to a {@link CountingSpout.Run} the harness reads through a static registry, as {@link
 * CountingSpout} does, its warm half starting at the middle row's emit as {@link CountingSpout}'s
 * does at the middle tuple's.
 */
public class CountingTridentSpout implements IBatchSpout {
  private static final long serialVersionUID = 1L;
  private static final Map<String, CountingSpout.Run> RUNS = new java.util.concurrent.ConcurrentHashMap<>();

  private final String key;
  private final long count;
  private final int columns;
  private final int partitions;
  private final int batchSize;
  private transient BenchData data;
  private transient CountingSpout.Run run;
  private transient long next;
  /** Batch id to its rows {@code [from, to)}, until the batch commits. */
  private transient Map<Long, long[]> batches;

  CountingTridentSpout(String key, long count, int columns, int partitions, int batchSize) {
    this.key = key;
    this.count = count;
    this.columns = columns;
    this.partitions = partitions;
    this.batchSize = batchSize;
    RUNS.put(key, new CountingSpout.Run());
  }

  static CountingSpout.Run run(String key) {
    return RUNS.get(key);
  }

  @Override
  public void open(Map<String, Object> conf, TopologyContext context) {
    data = new BenchData(columns, partitions);
    run = RUNS.get(key);
    batches = new HashMap<>();
  }

  @Override
  public void emitBatch(long batchId, TridentCollector collector) {
    long[] rows = batches.computeIfAbsent(batchId, id -> {
      long from = next;
      next = Math.min(count, next + batchSize);
      return new long[] {from, next};
    });
    for (long row = rows[0]; row < rows[1]; row++) {
      run.emitting(row, count, 1);
      collector.emit(data.values(row));
    }
  }

  @Override
  public void ack(long batchId) {
    long[] rows = batches.remove(batchId);
    if (rows != null && rows[1] > rows[0]) {
      run.ack(rows[1] - rows[0]);
    }
  }

  @Override
  public void close() {}

  @Override
  public Map<String, Object> getComponentConfiguration() {
    return null;
  }

  @Override
  public Fields getOutputFields() {
    return new BenchData(columns, partitions).fields;
  }
}
