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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;

/**
 * Emits rows {@code 0..count-1} of {@link BenchData} as fast as max-spout-pending lets it, each
 * with its row number as message id, and replays failed rows. The {@link Run} it reports to is
 * shared with the harness through a static registry (LocalCluster runs in the harness's JVM): when
 * the first row was emitted and when the last ack arrived, so start-up and shut-down are not timed.
 * With {@code recordsPerTuple} above 0, each tuple instead carries that many rows' values in one field
 * ({@link #ROWS_FIELD}, a list of value lists) for a multi-record mapper, and is acked for all of them.
 */
public class CountingSpout extends BaseRichSpout {
  private static final long serialVersionUID = 1L;
  private static final Map<String, Run> RUNS = new ConcurrentHashMap<>();
  /** The field holding a tuple's rows, when it carries many. */
  static final String ROWS_FIELD = "rows";

  private final String key;
  private final long count;
  private final int columns;
  private final int partitions;
  private final int recordsPerTuple;
  private transient SpoutOutputCollector collector;
  private transient BenchData data;
  private transient Run run;
  private transient long next;
  private transient java.util.ArrayDeque<Long> replay;

  /** What one run saw. */
  public static final class Run {
    final AtomicLong acked = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    volatile long firstEmitNanos;
    volatile long lastAckNanos;
    volatile long firstEmitCpuNanos;
    volatile long doneCpuNanos;

    double recordsPerSecond() {
      return acked.get() * 1e9 / (lastAckNanos - firstEmitNanos);
    }

    /** Records per second of the whole process's CPU time (every thread: spout, bolts, acker, Storm). */
    double recordsPerCpuSecond() {
      return acked.get() * 1e9 / (doneCpuNanos - firstEmitCpuNanos);
    }

    double seconds() {
      return (lastAckNanos - firstEmitNanos) / 1e9;
    }

    /*
     * The warm half: from the first emit of the middle tuple to the last ack, when the JIT has had
     * half the run (after a warm-up repetition) to compile the path. Flink's peer measures the same
     * half of its rows the same way.
     */
    volatile long warmNanos;
    volatile long warmCpuNanos;
    volatile long warmJitMillis;
    volatile long warmFromRecord;
    volatile long doneJitMillis;

    /** Records per second over the warm half. */
    double warmRecordsPerSecond() {
      return (acked.get() - warmFromRecord) * 1e9 / (lastAckNanos - warmNanos);
    }

    /** Records per process CPU second over the warm half. */
    double warmRecordsPerCpuSecond() {
      return (acked.get() - warmFromRecord) * 1e9 / (doneCpuNanos - warmCpuNanos);
    }

    /** Milliseconds the JIT compiled during the warm half: near 0 when compilation had settled. */
    long warmJitMillis() {
      return doneJitMillis - warmJitMillis;
    }

    private void warmHalfStarts(long fromRecord) {
      warmFromRecord = fromRecord;
      warmJitMillis = jitMillis();
      warmCpuNanos = cpuNanos();
      warmNanos = System.nanoTime();
    }

    /**
     * Before tuple {@code tuple} of {@code tuples} is emitted (each carrying {@code recordsPerTuple} records): the
     * run's clocks start at the first emit, the warm half's at the middle tuple. {@link CountingSpout} and {@link
     * CountingTridentSpout} (a tuple per row) both call it, so every contender's halves are cut alike.
     */
    void emitting(long tuple, long tuples, int recordsPerTuple) {
      if (firstEmitNanos == 0) {
        firstEmitNanos = System.nanoTime();
        firstEmitCpuNanos = cpuNanos();
      }
      if (tuple == tuples / 2 && warmNanos == 0) {
        warmHalfStarts(tuple * recordsPerTuple);
      }
    }

    /** When a tuple (or a Trident transaction) of {@code records} records is acked. */
    void ack(long records) {
      lastAckNanos = System.nanoTime();
      acked.addAndGet(records);
    }

    /** Adds {@code variant}'s three warm-half figures: records/s, records per CPU second, the JIT's milliseconds. */
    void reportWarm(Results results, String suite, String params, String variant, int rep) {
      if (warmNanos == 0) {
        throw new IllegalStateException(variant + ": the warm half never started (the spout never emitted its middle tuple)");
      }
      results.add(suite, params, variant + " warm", rep, warmRecordsPerSecond(), "records/s");
      results.add(suite, params, variant + " warm per-cpu-s", rep, warmRecordsPerCpuSecond(), "records/cpu-s");
      results.add(suite, params, variant + " warm jit-ms", rep, warmJitMillis(), "ms");
    }
  }

  /** Milliseconds the JVM's JIT compilers have spent so far. */
  static long jitMillis() {
    return java.lang.management.ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
  }

  CountingSpout(String key, long count, int columns, int partitions) {
    this(key, count, columns, partitions, 0);
  }

  /** @param recordsPerTuple 0 for one row a tuple, its columns as fields; otherwise rows a tuple, in {@link #ROWS_FIELD} */
  CountingSpout(String key, long count, int columns, int partitions, int recordsPerTuple) {
    this.key = key;
    this.recordsPerTuple = recordsPerTuple;
    this.count = recordsPerTuple > 0 ? count / recordsPerTuple : count;
    this.columns = columns;
    this.partitions = partitions;
    RUNS.put(key, new Run());
  }

  static Run run(String key) {
    return RUNS.get(key);
  }

  @Override
  public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
    this.collector = collector;
    this.data = new BenchData(columns, partitions);
    this.run = RUNS.get(key);
    this.replay = new java.util.ArrayDeque<>();
  }

  @Override
  public void nextTuple() {
    Long row = replay.poll();
    if (row == null && next < count) {
      row = next++;
    }
    if (row == null) {
      return;
    }
    run.emitting(row, count, Math.max(1, recordsPerTuple));
    collector.emit(recordsPerTuple > 0 ? List.of(rows(row)) : data.values(row), row);
  }

  /** The values of the rows tuple {@code tuple} carries. */
  private List<List<Object>> rows(long tuple) {
    List<List<Object>> rows = new ArrayList<>(recordsPerTuple);
    for (long row = tuple * recordsPerTuple; row < (tuple + 1) * recordsPerTuple; row++) {
      rows.add(data.values(row));
    }
    return rows;
  }

  static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  @Override
  public void ack(Object msgId) {
    run.ack(Math.max(1, recordsPerTuple));
  }

  @Override
  public void fail(Object msgId) {
    run.failed.incrementAndGet();
    replay.add((Long) msgId);
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {
    declarer.declare(recordsPerTuple > 0 ? new Fields(ROWS_FIELD) : new BenchData(columns, partitions).fields);
  }
}
