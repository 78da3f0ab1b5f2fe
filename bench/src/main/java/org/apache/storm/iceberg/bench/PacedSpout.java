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

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;

/**
 * Emits rows {@code 0, 1, 2, ...} of {@link BenchData} without end, at most {@code rate} a second
 * (0: as fast as max-spout-pending lets it), each with its row number as message id, and replays
 * failed rows first. The {@link Pace} it reports to is shared with the harness through a static
 * registry (LocalCluster runs in the harness's JVM), which also stops it.
 *
 * <p>The pace is a token bucket holding at most one second of rows: after a stall (a commit, a
 * collection) the spout catches up by at most one second's rows at once, rather than by the whole
 * stall, so the offered load stays near {@code rate} and does not burst.
 */
public class PacedSpout extends BaseRichSpout {
  private static final long serialVersionUID = 1L;
  private static final Map<String, Pace> PACES = new ConcurrentHashMap<>();

  private final String key;
  private final int columns;
  private transient SpoutOutputCollector collector;
  private transient BenchData data;
  private transient Pace pace;
  private transient ArrayDeque<Long> replay;
  private transient long nextRow;
  private transient long paced;
  private transient long startNanos;

  /** What the harness sees of a run, and how it stops it. */
  public static final class Pace {
    final double ratePerSecond;
    final AtomicLong acked = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong emittedRows = new AtomicLong();
    volatile boolean stopped;

    Pace(double ratePerSecond) {
      this.ratePerSecond = ratePerSecond;
    }

    /** Rows emitted (first emits, not replays) and not yet acked. */
    long inFlight() {
      return emittedRows.get() - acked.get();
    }
  }

  PacedSpout(String key, int columns, double ratePerSecond) {
    this.key = key;
    this.columns = columns;
    PACES.put(key, new Pace(ratePerSecond));
  }

  static Pace pace(String key) {
    return PACES.get(key);
  }

  @Override
  public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
    this.collector = collector;
    this.data = new BenchData(columns, 1);
    this.pace = PACES.get(key);
    this.replay = new ArrayDeque<>();
  }

  @Override
  public void nextTuple() {
    Long row = replay.poll();
    if (row == null) {
      if (pace.stopped || !due()) {
        return;
      }
      row = nextRow++;
      pace.emittedRows.lazySet(nextRow);
    }
    collector.emit(data.values(row), row);
  }

  /** Whether the pace allows another new row now; takes it from the bucket when it does. */
  private boolean due() {
    double rate = pace.ratePerSecond;
    if (rate <= 0) {
      return true;
    }
    long now = System.nanoTime();
    if (startNanos == 0) {
      startNanos = now;
    }
    long allowed = (long) ((now - startNanos) * rate / 1e9);
    if (paced >= allowed) {
      return false;
    }
    if (allowed - paced > rate) {
      // More than a second behind: forget the stall rather than burst through it.
      paced = allowed - (long) rate;
    }
    paced++;
    return true;
  }

  @Override
  public void ack(Object msgId) {
    pace.acked.incrementAndGet();
  }

  @Override
  public void fail(Object msgId) {
    pace.failed.incrementAndGet();
    replay.add((Long) msgId);
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    declarer.declare(new BenchData(columns, 1).fields);
  }
}
