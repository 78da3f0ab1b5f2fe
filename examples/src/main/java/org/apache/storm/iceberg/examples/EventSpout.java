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

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits a fixed number of synthetic events ({@code id, region, event_time, payload}), each with its
 * id as message id, and replays any the sink fails, as a Kafka spout would. Counts acks in a static
 * counter that an example running in LocalCluster (same JVM) can watch. On a cluster the counter
 * lives in the worker's JVM, where the constructor never ran: {@link #open} makes it there.
 */
public class EventSpout extends BaseRichSpout {
  static final String[] REGIONS = {"eu", "us", "apac", "latam"};
  private static final Map<String, AtomicLong> ACKED = new ConcurrentHashMap<>();

  private final String runId;
  private final long count;
  private final long firstEventMillis;
  private transient SpoutOutputCollector collector;
  private transient AtomicLong acked;
  private transient Queue<Long> replay;
  private transient long next;

  public EventSpout(String runId, long count, long firstEventMillis) {
    this.runId = runId;
    this.count = count;
    this.firstEventMillis = firstEventMillis;
    ACKED.putIfAbsent(runId, new AtomicLong());
  }

  /** Acks seen so far by the spout of run {@code runId} in this JVM. */
  public static long acked(String runId) {
    return ACKED.computeIfAbsent(runId, id -> new AtomicLong()).get();
  }

  @Override
  public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
    this.collector = collector;
    this.acked = ACKED.computeIfAbsent(runId, id -> new AtomicLong());
    this.replay = new ConcurrentLinkedQueue<>();
  }

  @Override
  public void nextTuple() {
    Long id = replay.poll();
    if (id == null && next < count) {
      id = next++;
    }
    if (id != null) {
      // One event a second of event time, spread over four regions.
      collector.emit(
          new Values(id, REGIONS[(int) (id % REGIONS.length)], firstEventMillis + id * 1000L, "event " + id), id);
    }
  }

  @Override
  public void ack(Object msgId) {
    acked.incrementAndGet();
  }

  @Override
  public void fail(Object msgId) {
    replay.add((Long) msgId);
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    declarer.declare(new Fields("id", "region", "event_time", "payload"));
  }
}
