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

import java.util.Arrays;

/**
 * A set of offsets of one source partition, kept as disjoint closed ranges. A stream of offsets
 * without gaps stays one range, however long; an offset retried after later ones landed leaves a
 * gap until it lands too. Not thread-safe.
 *
 * <p>The ranges sit in order in two arrays of starts and ends, because every tuple of a partition
 * asks and adds here and nearly all of them only extend the last range: that takes a comparison
 * and a store. Adding elsewhere shifts the ranges after it; a partition has few, one per gap.
 */
final class OffsetRanges {
  /** {@code starts[i]..ends[i]} (inclusive) for {@code i < count}: ascending, disjoint and never adjacent. */
  private long[] starts = new long[2];
  private long[] ends = new long[2];
  private int count;

  boolean contains(long offset) {
    if (count == 0 || offset > ends[count - 1]) {
      return false;
    }
    int range = floor(offset);
    return range >= 0 && ends[range] >= offset;
  }

  /** Adds one offset, merging it with the ranges it touches. */
  void add(long offset) {
    add(offset, offset);
  }

  /** Adds {@code [from, to]}, merging it with the ranges it touches or overlaps. */
  void add(long from, long to) {
    if (count > 0 && from >= starts[count - 1]) {
      // At or after the last range's start: it extends the last range or follows it.
      if (from <= ends[count - 1] + 1) {
        ends[count - 1] = Math.max(ends[count - 1], to);
        return;
      }
      append(from, to);
      return;
    }
    // The first range it touches, and the first one after those it touches.
    int first = floor(from);
    if (first < 0 || ends[first] < from - 1) {
      first++;
    }
    int after = first;
    while (after < count && starts[after] <= to + 1) {
      after++;
    }
    if (first == after) {
      insert(first, from, to);
      return;
    }
    starts[first] = Math.min(starts[first], from);
    ends[first] = Math.max(ends[after - 1], to);
    int removed = after - first - 1;
    System.arraycopy(starts, after, starts, first + 1, count - after);
    System.arraycopy(ends, after, ends, first + 1, count - after);
    count -= removed;
  }

  void addAll(OffsetRanges other) {
    for (int i = 0; i < other.count; i++) {
      add(other.starts[i], other.ends[i]);
    }
  }

  /** The lowest offset held by both, or -1 when they share none. */
  long firstShared(OffsetRanges other) {
    for (int i = 0; i < other.count; i++) {
      long from = other.starts[i];
      int covering = floor(from);
      if (covering >= 0 && ends[covering] >= from) {
        return from;
      }
      int next = covering + 1;
      if (next < count && starts[next] <= other.ends[i]) {
        return starts[next];
      }
    }
    return -1;
  }

  /** Adds the offsets from {@code from} to {@code to} that {@code except} does not hold. */
  void addMissing(long from, long to, OffsetRanges except) {
    long next = from;
    int range = except.floor(from);
    if (range < 0) {
      range = 0;
    }
    for (; range < except.count && next <= to; range++) {
      if (except.ends[range] < next) {
        continue;
      }
      if (except.starts[range] > to) {
        break;
      }
      if (except.starts[range] > next) {
        add(next, except.starts[range] - 1);
      }
      next = except.ends[range] + 1;
    }
    if (next <= to) {
      add(next, to);
    }
  }

  /** Adds every offset of {@code other} that {@code except} does not hold. */
  void addMissing(OffsetRanges other, OffsetRanges except) {
    for (int i = 0; i < other.count; i++) {
      addMissing(other.starts[i], other.ends[i], except);
    }
  }

  boolean isEmpty() {
    return count == 0;
  }

  /** The lowest offset held; call only when not empty. */
  long smallest() {
    return starts[0];
  }

  /** The highest offset held; call only when not empty. */
  long largest() {
    return ends[count - 1];
  }

  /** A copy holding only the offsets up to {@code max}. */
  OffsetRanges upTo(long max) {
    OffsetRanges clipped = new OffsetRanges();
    for (int i = 0; i < count && starts[i] <= max; i++) {
      clipped.add(starts[i], Math.min(ends[i], max));
    }
    return clipped;
  }

  /** Whether every offset of {@code other} is held here. */
  boolean covers(OffsetRanges other) {
    for (int i = 0; i < other.count; i++) {
      int covering = floor(other.starts[i]);
      if (covering < 0 || ends[covering] < other.ends[i]) {
        return false;
      }
    }
    return true;
  }

  /** Whether every offset from {@code from} to {@code to} is held here; true when {@code to < from}. */
  boolean covers(long from, long to) {
    if (to < from) {
      return true;
    }
    int covering = floor(from);
    return covering >= 0 && ends[covering] >= to;
  }

  int rangeCount() {
    return count;
  }

  /** The index of the last range starting at or before {@code offset}, or -1. */
  private int floor(long offset) {
    int found = Arrays.binarySearch(starts, 0, count, offset);
    return found >= 0 ? found : -found - 2;
  }

  private void append(long from, long to) {
    insert(count, from, to);
  }

  private void insert(int at, long from, long to) {
    if (count == starts.length) {
      starts = Arrays.copyOf(starts, count * 2);
      ends = Arrays.copyOf(ends, count * 2);
    }
    System.arraycopy(starts, at, starts, at + 1, count - at);
    System.arraycopy(ends, at, ends, at + 1, count - at);
    starts[at] = from;
    ends[at] = to;
    count++;
  }

  /** {@code 0-99,105,107-200}: ranges in order, a single offset without its end. */
  String encode() {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        text.append(',');
      }
      text.append(starts[i]);
      if (starts[i] != ends[i]) {
        text.append('-').append(ends[i]);
      }
    }
    return text.toString();
  }

  static OffsetRanges decode(String text) {
    OffsetRanges decoded = new OffsetRanges();
    for (String range : text.split(",")) {
      int dash = range.indexOf('-');
      long from = Long.parseLong(dash < 0 ? range : range.substring(0, dash));
      long to = dash < 0 ? from : Long.parseLong(range.substring(dash + 1));
      if (from < 0 || to < from) {
        throw new IllegalArgumentException("not an offset range: '" + range + "'");
      }
      decoded.add(from, to);
    }
    return decoded;
  }

  @Override
  public String toString() {
    return encode();
  }
}
