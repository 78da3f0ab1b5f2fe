package org.apache.storm.iceberg.kernel.position;

import java.util.Map;
import java.util.TreeMap;

/**
 * A set of offsets of one source partition, kept as disjoint closed ranges. A stream of offsets
 * without gaps stays one range, however long; an offset retried after later ones landed leaves a
 * gap until it lands too. Not thread-safe.
 */
final class OffsetRanges {
  /** Range start → range end (inclusive); ranges are disjoint and never adjacent. */
  private final TreeMap<Long, Long> ranges = new TreeMap<>();

  boolean contains(long offset) {
    Map.Entry<Long, Long> range = ranges.floorEntry(offset);
    return range != null && range.getValue() >= offset;
  }

  /** Adds one offset, merging it with the ranges it touches. */
  void add(long offset) {
    add(offset, offset);
  }

  /** Adds {@code [from, to]}, merging it with the ranges it touches or overlaps. */
  void add(long from, long to) {
    long start = from;
    long end = to;
    Map.Entry<Long, Long> before = ranges.floorEntry(from);
    if (before != null && before.getValue() >= from - 1) {
      start = before.getKey();
      end = Math.max(end, before.getValue());
    }
    Map.Entry<Long, Long> next = ranges.ceilingEntry(start);
    while (next != null && next.getKey() <= end + 1) {
      end = Math.max(end, next.getValue());
      ranges.remove(next.getKey());
      next = ranges.ceilingEntry(start);
    }
    ranges.put(start, end);
  }

  void addAll(OffsetRanges other) {
    other.ranges.forEach(this::add);
  }

  /** The lowest offset held by both, or -1 when they share none. */
  long firstShared(OffsetRanges other) {
    for (Map.Entry<Long, Long> range : other.ranges.entrySet()) {
      Map.Entry<Long, Long> covering = ranges.floorEntry(range.getKey());
      if (covering != null && covering.getValue() >= range.getKey()) {
        return range.getKey();
      }
      Long nextStart = ranges.ceilingKey(range.getKey());
      if (nextStart != null && nextStart <= range.getValue()) {
        return nextStart;
      }
    }
    return -1;
  }

  boolean isEmpty() {
    return ranges.isEmpty();
  }

  int rangeCount() {
    return ranges.size();
  }

  /** {@code 0-99,105,107-200}: ranges in order, a single offset without its end. */
  String encode() {
    StringBuilder text = new StringBuilder();
    ranges.forEach((from, to) -> {
      if (text.length() > 0) {
        text.append(',');
      }
      text.append(from);
      if (!from.equals(to)) {
        text.append('-').append(to);
      }
    });
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
