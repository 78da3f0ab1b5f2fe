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

package org.apache.storm.iceberg.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.spout.IPartitionedTridentSpout;
import org.apache.storm.trident.topology.TransactionAttempt;
import org.apache.storm.tuple.Fields;

/**
 * A transactional partitioned Trident spout over the ids {@code 0..count-1} ({@link IdPartitions}):
 * each txid's batch of a partition is fixed when first emitted (Trident keeps its range in
 * ZooKeeper) and a replay emits exactly it again, across a worker restart too. Every emission is
 * recorded in the {@link TridentLedger} under the spout's key. After the last id it emits empty
 * batches.
 */
public final class TransactionalIdsSpout
    implements IPartitionedTridentSpout<Object, IdPartitions.Partition, Map<String, Object>> {
  private static final long serialVersionUID = 1L;
  private final IdPartitions ids;

  /** {@code batchSize} ids per partition and batch, over {@code partitions} spout partitions. */
  public TransactionalIdsSpout(String ledgerKey, long count, int partitions, int batchSize) {
    this.ids = new IdPartitions(ledgerKey, count, partitions, batchSize);
  }

  @Override
  public Coordinator<Object> getCoordinator(Map<String, Object> conf, TopologyContext context) {
    return new Coordinator<>() {
      @Override
      public Object getPartitionsForBatch() {
        return ids.coordinatorMeta();
      }

      @Override
      public boolean isReady(long txid) {
        return true;
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public Emitter<Object, IdPartitions.Partition, Map<String, Object>> getEmitter(Map<String, Object> conf, TopologyContext context) {
    return new Emitter<>() {
      @Override
      public List<IdPartitions.Partition> getOrderedPartitions(Object partitions) {
        return ids.ordered(partitions);
      }

      @Override
      public Map<IdPartitions.Partition, Map<String, Object>> emitBatchNew(TransactionAttempt tx, TridentCollector collector,
          Set<IdPartitions.Partition> partitions, Map<IdPartitions.Partition, Map<String, Object>> lastMetas) {
        Map<IdPartitions.Partition, Map<String, Object>> metas = new HashMap<>();
        for (IdPartitions.Partition p : partitions) {
          long offset = IdPartitions.next(lastMetas.get(p));
          Map<String, Object> meta = IdPartitions.meta(offset, Math.max(0, Math.min(ids.batchSize, ids.size(p) - offset)));
          ids.emit(tx, collector, p, meta);
          metas.put(p, meta);
        }
        return metas;
      }

      @Override
      public void reEmitPartitionBatch(TransactionAttempt tx, TridentCollector collector, IdPartitions.Partition p,
          Map<String, Object> meta) {
        ids.emit(tx, collector, p, meta);
      }

      @Override
      public void refreshPartitions(List<IdPartitions.Partition> partitions) {}

      @Override
      public void close() {}
    };
  }

  @Override
  public Map<String, Object> getComponentConfiguration() {
    return null;
  }

  @Override
  public Fields getOutputFields() {
    return IdPartitions.FIELDS;
  }
}
