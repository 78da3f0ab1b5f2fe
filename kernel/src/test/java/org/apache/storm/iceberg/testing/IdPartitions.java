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

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.spout.ISpoutPartition;
import org.apache.storm.trident.topology.TransactionAttempt;
import org.apache.storm.tuple.Fields;

/**
 * The ids {@code 0..count-1} spread over the test spouts' partitions: partition {@code p} of
 * {@code n} holds {@code p, p+n, p+2n, ...} in that order, like a Kafka topic's partitions. A batch
 * of a partition is a range of its ids, kept by Trident in ZooKeeper as JSON: {@code {"offset": o,
 * "count": c}}.
 */
final class IdPartitions implements Serializable {
  private static final long serialVersionUID = 1L;
  static final Fields FIELDS = new Fields(TestTables.FIELDS);

  final String ledgerKey;
  final long count;
  final int partitions;
  final int batchSize;

  IdPartitions(String ledgerKey, long count, int partitions, int batchSize) {
    this.ledgerKey = ledgerKey;
    this.count = count;
    this.partitions = partitions;
    this.batchSize = batchSize;
  }

  /** One spout partition. */
  static final class Partition implements ISpoutPartition, Serializable {
    private static final long serialVersionUID = 1L;
    final int index;

    Partition(int index) {
      this.index = index;
    }

    @Override
    public String getId() {
      return "ids-" + index;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Partition p && p.index == index;
    }

    @Override
    public int hashCode() {
      return Objects.hash(index);
    }

    @Override
    public String toString() {
      return getId();
    }
  }

  /** The coordinator's metadata: the number of partitions (a JSON number). */
  Object coordinatorMeta() {
    return (long) partitions;
  }

  List<Partition> ordered(Object coordinatorMeta) {
    int n = ((Number) coordinatorMeta).intValue();
    List<Partition> ordered = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ordered.add(new Partition(i));
    }
    return ordered;
  }

  /** How many ids partition {@code p} holds. */
  long size(Partition p) {
    return count <= p.index ? 0 : (count - 1 - p.index) / partitions + 1;
  }

  /** Where the batch after {@code lastMeta} starts in the partition (0 for the first batch). */
  static long next(Object lastMeta) {
    if (lastMeta == null) {
      return 0;
    }
    Map<?, ?> meta = (Map<?, ?>) lastMeta;
    return ((Number) meta.get("offset")).longValue() + ((Number) meta.get("count")).longValue();
  }

  static Map<String, Object> meta(long offset, long count) {
    Map<String, Object> meta = new HashMap<>();
    meta.put("offset", offset);
    meta.put("count", count);
    return meta;
  }

  /** Emits the batch {@code meta} of partition {@code p} and records it in the ledger. */
  void emit(TransactionAttempt tx, TridentCollector collector, Partition p, Map<?, ?> meta) {
    long offset = ((Number) meta.get("offset")).longValue();
    long n = ((Number) meta.get("count")).longValue();
    List<Long> ids = new ArrayList<>();
    for (long i = offset; i < offset + n; i++) {
      long id = p.index + i * partitions;
      ids.add(id);
      collector.emit(ReplayingSpout.values(id));
    }
    TridentLedger.of(ledgerKey).record(tx.getTransactionId(), p.getId(), ids);
  }
}
