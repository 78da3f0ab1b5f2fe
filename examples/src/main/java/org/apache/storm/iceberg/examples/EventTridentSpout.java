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

package org.apache.storm.iceberg.examples;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.spout.IPartitionedTridentSpout;
import org.apache.storm.trident.spout.ISpoutPartition;
import org.apache.storm.trident.topology.TransactionAttempt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A transactional Trident spout of the events {@link EventSpout} emits ({@code id, region,
 * event_time, payload}), ids {@code 0..count-1} over a fixed number of partitions, as a Kafka topic's
 * partitions would hold them: partition {@code p} holds the ids {@code p, p + partitions, ...}.
 * Each batch takes up to {@code batchSize} ids of a partition after the previous batch's; Trident
 * keeps that position (the batch's metadata) in ZooKeeper, so a replayed transaction re-emits
 * exactly the ids it first emitted, even from a restarted worker: what makes a spout transactional.
 */
public final class EventTridentSpout
    implements IPartitionedTridentSpout<Integer, EventTridentSpout.Partition, Map<String, Long>> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(EventTridentSpout.class);
  private static final String OFFSET = "offset";
  private static final String COUNT = "count";

  private final long count;
  private final int partitions;
  private final int batchSize;
  private final long firstEventMillis;

  /**
   * @param count events in all, ids {@code 0..count-1}
   * @param partitions how many partitions hold them
   * @param batchSize the most ids one batch takes from one partition
   * @param firstEventMillis the event time of id 0; one event a second after it
   */
  public EventTridentSpout(long count, int partitions, int batchSize, long firstEventMillis) {
    this.count = count;
    this.partitions = partitions;
    this.batchSize = batchSize;
    this.firstEventMillis = firstEventMillis;
  }

  /** One partition of the events, by index. */
  public record Partition(int index) implements ISpoutPartition, Serializable {
    @Override
    public String getId() {
      return "events-" + index;
    }
  }

  @Override
  public Coordinator<Integer> getCoordinator(Map<String, Object> conf, TopologyContext context) {
    return new Coordinator<>() {
      @Override
      public Integer getPartitionsForBatch() {
        return partitions;
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
  public Emitter<Integer, Partition, Map<String, Long>> getEmitter(Map<String, Object> conf, TopologyContext context) {
    return new Emitter<>() {
      @Override
      public List<Partition> getOrderedPartitions(Integer all) {
        List<Partition> ordered = new ArrayList<>();
        for (int i = 0; i < all; i++) {
          ordered.add(new Partition(i));
        }
        return ordered;
      }

      @Override
      public Map<Partition, Map<String, Long>> emitBatchNew(
          TransactionAttempt tx, TridentCollector collector, Set<Partition> toEmit, Map<Partition, Map<String, Long>> previous) {
        Map<Partition, Map<String, Long>> batches = new HashMap<>();
        for (Partition partition : toEmit) {
          Map<String, Long> last = previous.get(partition);
          long offset = last == null ? 0 : number(last, OFFSET) + number(last, COUNT);
          long ids = Math.max(0, Math.min(batchSize, idsIn(partition) - offset));
          Map<String, Long> batch = Map.of(OFFSET, offset, COUNT, ids);
          emit(collector, partition, batch);
          batches.put(partition, batch);
        }
        return batches;
      }

      @Override
      public void reEmitPartitionBatch(TransactionAttempt tx, TridentCollector collector, Partition partition, Map<String, Long> batch) {
        if (batch == null) {
          // Trident stored no position of this partition for the transaction: it emitted none of its
          // ids then, and the partition's next transaction starts where its last stored one ended.
          return;
        }
        LOG.info("Replaying transaction {} of {}: {} ids from position {}, as first emitted",
            tx.getTransactionId(), partition.getId(), batch.get(COUNT), batch.get(OFFSET));
        emit(collector, partition, batch);
      }

      @Override
      public void refreshPartitions(List<Partition> partitionResponsibilities) {}

      @Override
      public void close() {}
    };
  }

  /** How many ids partition {@code p} holds: those of {@code 0..count-1} that are {@code p} modulo the partitions. */
  private long idsIn(Partition partition) {
    return count <= partition.index() ? 0 : (count - partition.index() + partitions - 1) / partitions;
  }

  private void emit(TridentCollector collector, Partition partition, Map<String, Long> batch) {
    long offset = number(batch, OFFSET);
    long end = offset + number(batch, COUNT);
    for (long position = offset; position < end; position++) {
      long id = partition.index() + position * partitions;
      collector.emit(new Values(id, EventSpout.REGIONS[(int) (id % EventSpout.REGIONS.length)],
          firstEventMillis + id * 1000L, "event " + id));
    }
  }

  /** A number of a batch's metadata: a Long as emitted, whatever number type ZooKeeper's JSON gave back. */
  private static long number(Map<String, ? extends Object> batch, String key) {
    return ((Number) batch.get(key)).longValue();
  }

  @Override
  public Map<String, Object> getComponentConfiguration() {
    return null;
  }

  @Override
  public Fields getOutputFields() {
    return new Fields("id", "region", "event_time", "payload");
  }
}
