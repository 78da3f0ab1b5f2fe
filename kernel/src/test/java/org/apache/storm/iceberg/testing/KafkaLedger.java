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

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;
import org.apache.storm.kafka.spout.KafkaSpoutMessageId;
import org.apache.storm.kafka.spout.KafkaTupleListener;
import org.apache.storm.task.TopologyContext;

/**
 * What a real {@code KafkaSpout} did, seen through its tuple listener: the records it emitted, had
 * acked and retried, by partition and offset. Kept in a static registry under a key the test
 * chooses, since LocalCluster runs the spout in the test's JVM; the listener travels with the spout
 * config and finds its ledger by key.
 */
public final class KafkaLedger {
  private static final Map<String, KafkaLedger> LEDGERS = new ConcurrentHashMap<>();

  /** Each record acked, as "partition/offset" (a record acked twice counts once). */
  public final Set<String> acked = ConcurrentHashMap.newKeySet();
  public final AtomicInteger emits = new AtomicInteger();
  /** Emits of a record the spout had failed (after a sink's fail or a message timeout). */
  public final AtomicInteger retries = new AtomicInteger();
  /** Each assignment the spout's consumers were given, in order. */
  public final List<Collection<TopicPartition>> assignments = new java.util.concurrent.CopyOnWriteArrayList<>();

  private KafkaLedger() {}

  /** The ledger under {@code key}, made on first use. */
  public static KafkaLedger of(String key) {
    return LEDGERS.computeIfAbsent(key, k -> new KafkaLedger());
  }

  /** A listener for {@code KafkaSpoutConfig.Builder.setTupleListener} that records into the ledger under {@code key}. */
  public static KafkaTupleListener listener(String key) {
    of(key);
    return new Listener(key);
  }

  private static final class Listener implements KafkaTupleListener {
    private static final long serialVersionUID = 1L;
    private final String key;

    Listener(String key) {
      this.key = key;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context) {}

    @Override
    public void onEmit(List<Object> tuple, KafkaSpoutMessageId id) {
      of(key).emits.incrementAndGet();
    }

    @Override
    public void onAck(KafkaSpoutMessageId id) {
      of(key).acked.add(id.partition() + "/" + id.offset());
    }

    @Override
    public void onPartitionsReassigned(Collection<TopicPartition> partitions) {
      of(key).assignments.add(List.copyOf(partitions));
    }

    @Override
    public void onRetry(KafkaSpoutMessageId id) {
      of(key).retries.incrementAndGet();
    }

    @Override
    public void onMaxRetryReached(KafkaSpoutMessageId id) {}
  }
}
