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

import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits events with ids {@code 0..count-1}, each with its id as message id, and replays whatever is
 * failed (or times out), like a Kafka spout would. What happened is kept in a {@link Ledger} shared
 * with the test through a static registry, since LocalCluster runs in the test's JVM.
 */
public class ReplayingSpout extends BaseRichSpout {
  private static final Map<String, Ledger> LEDGERS = new ConcurrentHashMap<>();
  private static final String[] REGIONS = {"eu", "us", "apac", "latam"};
  private static final long DAY0_MILLIS = 1_793_534_400_000L; // 2026-11-01T12:00:00Z

  private final String ledgerKey;
  private final long count;
  private transient SpoutOutputCollector collector;
  private transient Ledger ledger;
  private transient long next;

  /** What a spout saw: acks and fails by id, and ids waiting for replay. */
  public static final class Ledger {
    public final Set<Long> acked = ConcurrentHashMap.newKeySet();
    public final AtomicInteger ackCount = new AtomicInteger();
    public final AtomicInteger failCount = new AtomicInteger();
    public final Set<Long> failedIds = ConcurrentHashMap.newKeySet();
    /** New ids below this are emitted; a test raises it to let the rest of the stream go (replays always go). */
    public volatile long emitLimit = Long.MAX_VALUE;
    final Queue<Long> replay = new ConcurrentLinkedQueue<>();
  }

  public ReplayingSpout(String ledgerKey, long count) {
    this.ledgerKey = ledgerKey;
    this.count = count;
    LEDGERS.putIfAbsent(ledgerKey, new Ledger());
  }

  public static Ledger ledger(String key) {
    return LEDGERS.get(key);
  }

  @Override
  public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
    this.collector = collector;
    this.ledger = LEDGERS.get(ledgerKey);
  }

  @Override
  public void nextTuple() {
    Long id = ledger.replay.poll();
    if (id == null && next < Math.min(count, ledger.emitLimit)) {
      id = next++;
    }
    if (id != null) {
      collector.emit(event(id), id);
    }
  }

  /** What is emitted for {@code id}: {@link #values}, unless a subclass emits other fields. */
  protected Values event(long id) {
    return values(id);
  }

  /** The fields of {@link #event}. */
  protected Fields eventFields() {
    return new Fields(TestTables.FIELDS);
  }

  /** The event for {@code id}: region and day spread so batches span many partitions. */
  public static Values values(long id) {
    return new Values(id, REGIONS[(int) (id % REGIONS.length)], DAY0_MILLIS + 86_400_000L * ((id / 4) % 5), "payload-" + id);
  }

  @Override
  public void ack(Object msgId) {
    ledger.ackCount.incrementAndGet();
    ledger.acked.add((Long) msgId);
  }

  @Override
  public void fail(Object msgId) {
    ledger.failCount.incrementAndGet();
    ledger.failedIds.add((Long) msgId);
    ledger.replay.add((Long) msgId);
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    declarer.declare(eventFields());
  }
}
