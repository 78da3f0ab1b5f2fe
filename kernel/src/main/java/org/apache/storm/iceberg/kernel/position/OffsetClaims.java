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

package org.apache.storm.iceberg.kernel.position;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.iceberg.spi.SourcePosition;

/**
 * What a routing task claims for each table's commits when it records source positions: a table's
 * batch records its own offsets and, per source partition, every offset the task saw routed to
 * another table below the batch's largest own offset, so that each table's positions stay one
 * range per partition instead of gaining a gap for every record another table took
 * (docs/ROUTING.md, "Source positions with routing").
 *
 * <p>Why claiming another table's offset is safe: the router is deterministic, so a replay of that
 * offset goes to the other table again and is never looked up in this table's positions. What a
 * claim never holds is an offset routed to its own table that is not in its batch (one of a batch
 * that failed, or is still replaying), nor an offset the task has not seen (it may be this table's):
 * so a record is skipped on replay only when its own table committed it.
 *
 * <p>The task keeps, per source partition, the offsets it routed as runs of one table each (routing
 * usually sends runs of a partition to one table), at most {@code maxRuns} runs: past that the
 * oldest run is forgotten, and a table whose next claim would have reached down to it leaves a gap
 * there instead (its summary grows by a range; nothing is lost). An offset routed to two tables (a
 * router that is not deterministic) is claimed by neither. Not thread-safe: one executor thread
 * routes and seals.
 */
public final class OffsetClaims {
  /** How many runs of one table a partition keeps by default: about 80 bytes each. */
  public static final int DEFAULT_MAX_RUNS = 8_192;
  /** The table of an offset routed to more than one table: claimed by none. */
  private static final String SEVERAL = new String("<several tables>");

  private final int maxRuns;
  private final Map<String, Map<Integer, TreeMap<Long, Run>>> sources = new HashMap<>();

  /** A run of consecutive offsets, {@code start} (its key) to {@code end}, all routed to {@code table}. */
  private static final class Run {
    long end;
    final String table;

    Run(long end, String table) {
      this.end = end;
      this.table = table;
    }
  }

  public OffsetClaims() {
    this(DEFAULT_MAX_RUNS);
  }

  /** @param maxRuns how many runs each partition keeps at most; positive */
  public OffsetClaims(int maxRuns) {
    if (maxRuns < 1) {
      throw new IllegalArgumentException("maxRuns must be positive, got " + maxRuns);
    }
    this.maxRuns = maxRuns;
  }

  /** Notes that the tuple at {@code position} was routed to {@code table}. */
  public void routed(SourcePosition position, String table) {
    TreeMap<Long, Run> runs = sources.computeIfAbsent(position.source(), s -> new HashMap<>())
        .computeIfAbsent(position.partition(), p -> new TreeMap<>());
    long offset = position.offset();
    Map.Entry<Long, Run> last = runs.lastEntry();
    if (last == null || offset > last.getValue().end) {
      // The usual case: the next offset of the partition, extending the last run or starting one.
      if (last != null && offset == last.getValue().end + 1 && last.getValue().table.equals(table)) {
        last.getValue().end = offset;
      } else {
        add(runs, offset, offset, table);
      }
      return;
    }
    Map.Entry<Long, Run> covering = runs.floorEntry(offset);
    if (covering == null || covering.getValue().end < offset) {
      add(runs, offset, offset, table); // seen for the first time, after later offsets
    } else if (!covering.getValue().table.equals(table) && covering.getValue().table != SEVERAL) {
      split(runs, covering.getKey(), covering.getValue(), offset);
    }
  }

  /** Marks {@code offset}, inside the run at {@code start}, as routed to several tables. */
  private void split(TreeMap<Long, Run> runs, long start, Run run, long offset) {
    long end = run.end;
    runs.remove(start);
    if (start < offset) {
      runs.put(start, new Run(offset - 1, run.table));
    }
    runs.put(offset, new Run(offset, SEVERAL));
    if (offset < end) {
      runs.put(offset + 1, new Run(end, run.table));
    }
    trim(runs);
  }

  private void add(TreeMap<Long, Run> runs, long start, long end, String table) {
    runs.put(start, new Run(end, table));
    trim(runs);
  }

  private void trim(TreeMap<Long, Run> runs) {
    while (runs.size() > maxRuns) {
      runs.pollFirstEntry();
    }
  }

  /**
   * Whether every offset from {@code from} to {@code to} of one source partition either is in
   * {@code arrived} or was routed to a table other than {@code table}: a row-level table new to a
   * partition waits only for the offsets that may be its own ({@code ChangeFence}).
   */
  public boolean arrivedOrRoutedElsewhere(String table, String source, int partition, long from, long to, Positions arrived) {
    if (to < from) {
      return true;
    }
    Positions seen = arrived.of(source, partition);
    Map<Integer, TreeMap<Long, Run>> partitions = sources.get(source);
    TreeMap<Long, Run> runs = partitions == null ? null : partitions.get(partition);
    if (runs != null) {
      Long first = runs.floorKey(from);
      for (Map.Entry<Long, Run> entry : runs.subMap(first == null ? from : first, true, to, true).entrySet()) {
        Run run = entry.getValue();
        if (!run.table.equals(table) && run.table != SEVERAL && run.end >= from) {
          seen.addMissing(source, partition, Math.max(from, entry.getKey()), Math.min(to, run.end), new Positions());
        }
      }
    }
    return seen.holdsAll(source, partition, from, to);
  }

  /**
   * The positions a batch of {@code table} records: its own, {@code own}, plus per source partition
   * every offset routed to another table below its largest own offset that {@code committed} does
   * not hold.
   *
   * @param own the batch's own positions, each routed to {@code table}
   * @param committed what the table's ledger holds and what batches of the table still pending
   *     claimed: a claim must not record an offset twice
   * @return a new positions object; {@code own} is left unchanged
   */
  public Positions claim(String table, Positions own, Positions committed) {
    Positions claimed = own.copy();
    for (Positions.Span span : own.spans()) {
      Map<Integer, TreeMap<Long, Run>> partitions = sources.get(span.source());
      TreeMap<Long, Run> runs = partitions == null ? null : partitions.get(span.partition());
      if (runs == null) {
        continue;
      }
      for (Map.Entry<Long, Run> entry : runs.headMap(span.largest(), false).entrySet()) {
        Run run = entry.getValue();
        if (!run.table.equals(table) && run.table != SEVERAL) {
          claimed.addMissing(span.source(), span.partition(), entry.getKey(), Math.min(run.end, span.largest() - 1), committed);
        }
      }
    }
    return claimed;
  }
}
