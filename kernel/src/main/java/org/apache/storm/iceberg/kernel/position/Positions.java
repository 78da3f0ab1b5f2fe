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
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.iceberg.spi.SourcePosition;

/**
 * Source positions by source and partition, as offset ranges, with each source's identity when it
 * is known (see {@code SourcePositionExtractor#sourceIdentity}). It is what a batch holds, and what
 * a sink's commits hold, recorded whole in every commit's snapshot summary ({@link #encode}): a
 * source partition whose offsets have no gap takes its number and two offsets (24 bytes with
 * nine-digit offsets), and each gap one more range. Not thread-safe.
 */
public final class Positions {
  private final TreeMap<String, Source> sources = new TreeMap<>();
  /** The source a run of tuples comes from, looked up once per run rather than per tuple. */
  private Source lastSource;

  private static final class Source {
    /** Partitions at or above this are found in the map alone; below, in {@link #byNumber} too. */
    private static final int INDEXED_PARTITIONS = 1 << 16;

    final String name;
    String identity;
    final TreeMap<Integer, OffsetRanges> partitions = new TreeMap<>();
    /** The ranges of partition {@code p} at {@code byNumber[p]}: a Kafka topic numbers its partitions from 0. */
    private OffsetRanges[] byNumber = new OffsetRanges[0];

    Source(String name) {
      this.name = name;
    }

    OffsetRanges ranges(int partition) {
      return partition < byNumber.length ? byNumber[partition] : partition < INDEXED_PARTITIONS ? null : partitions.get(partition);
    }

    OffsetRanges create(int partition) {
      OffsetRanges ranges = ranges(partition);
      return ranges != null ? ranges : put(partition, new OffsetRanges());
    }

    OffsetRanges put(int partition, OffsetRanges ranges) {
      partitions.put(partition, ranges);
      if (partition < INDEXED_PARTITIONS) {
        if (partition >= byNumber.length) {
          byNumber = Arrays.copyOf(byNumber, Math.min(INDEXED_PARTITIONS, Math.max(partition + 1, byNumber.length * 2)));
        }
        byNumber[partition] = ranges;
      }
      return ranges;
    }
  }

  public boolean contains(SourcePosition position) {
    Source source = source(position.source(), false);
    OffsetRanges ranges = source == null ? null : source.ranges(position.partition());
    return ranges != null && ranges.contains(position.offset());
  }

  public void add(SourcePosition position) {
    source(position.source(), true).create(position.partition()).add(position.offset());
  }

  /** Adds every position of {@code other}; its identities win over this one's. */
  public void addAll(Positions other) {
    other.sources.forEach((name, source) -> {
      if (source.identity != null) {
        identify(name, source.identity);
      }
      Source mine = source(name, true);
      source.partitions.forEach((partition, ranges) -> mine.create(partition).addAll(ranges));
    });
  }

  /** The first position {@code other} shares with this one, or null. */
  public SourcePosition firstShared(Positions other) {
    for (Map.Entry<String, Source> source : other.sources.entrySet()) {
      Source known = sources.get(source.getKey());
      if (known == null) {
        continue;
      }
      for (Map.Entry<Integer, OffsetRanges> partition : source.getValue().partitions.entrySet()) {
        OffsetRanges mine = known.ranges(partition.getKey());
        long shared = mine == null ? -1 : mine.firstShared(partition.getValue());
        if (shared >= 0) {
          return new SourcePosition(source.getKey(), partition.getKey(), shared);
        }
      }
    }
    return null;
  }

  /** The identity recorded for {@code source}, or null. */
  public String identityOf(String source) {
    Source known = source(source, false);
    return known == null ? null : known.identity;
  }

  /** The sources named, in order. */
  public java.util.Set<String> sources() {
    return java.util.Collections.unmodifiableSet(sources.keySet());
  }

  /** Whether any position of {@code source} is held. */
  public boolean holds(String source) {
    Source known = sources.get(source);
    return known != null && !known.partitions.isEmpty();
  }

  public void identify(String source, String identity) {
    source(source, true).identity = identity;
  }

  /** Drops every position of {@code source}: it was recreated, and its offsets start over. */
  public void forget(String source) {
    sources.remove(source);
    lastSource = null;
  }

  /**
   * The positions of one source partition alone, a copy; empty when none is held there.
   */
  public Positions of(String source, int partition) {
    Positions lane = new Positions();
    Source known = sources.get(source);
    OffsetRanges ranges = known == null ? null : known.ranges(partition);
    if (ranges != null && !ranges.isEmpty()) {
      lane.source(source, true).create(partition).addAll(ranges);
    }
    return lane;
  }

  /** A copy holding only the offsets up to {@code max}, of every source partition. */
  public Positions upTo(long max) {
    Positions clipped = new Positions();
    sources.forEach((name, source) -> {
      Source copy = clipped.source(name, true);
      copy.identity = source.identity;
      source.partitions.forEach((partition, ranges) -> copy.create(partition).addAll(ranges.upTo(max)));
    });
    return clipped;
  }

  /** The largest offset held of one source partition, or -1 for none. */
  public long largest(String source, int partition) {
    Source known = sources.get(source);
    OffsetRanges ranges = known == null ? null : known.ranges(partition);
    return ranges == null || ranges.isEmpty() ? -1 : ranges.largest();
  }

  /** Each source partition held, with its smallest and largest offset. */
  public java.util.List<Span> spans() {
    java.util.List<Span> spans = new java.util.ArrayList<>();
    sources.forEach((name, source) -> source.partitions.forEach((partition, ranges) -> {
      if (!ranges.isEmpty()) {
        spans.add(new Span(name, partition, ranges.smallest(), ranges.largest()));
      }
    }));
    return spans;
  }

  /** One source partition's offsets, from the smallest to the largest held. */
  public record Span(String source, int partition, long smallest, long largest) {}

  /** Whether every offset from {@code from} to {@code to} of one source partition is held here; true when {@code to < from}. */
  public boolean holdsAll(String source, int partition, long from, long to) {
    if (to < from) {
      return true;
    }
    Source known = sources.get(source);
    OffsetRanges ranges = known == null ? null : known.ranges(partition);
    return ranges != null && ranges.covers(from, to);
  }

  /**
   * Adds the offsets from {@code from} to {@code to} of one source partition that {@code except}
   * does not hold.
   */
  void addMissing(String source, int partition, long from, long to, Positions except) {
    Source known = except.sources.get(source);
    OffsetRanges held = known == null ? null : known.ranges(partition);
    source(source, true).create(partition).addMissing(from, to, held == null ? new OffsetRanges() : held);
  }

  /**
   * Adds every position of {@code other} that {@code except} does not hold; {@code other}'s
   * identities win over this one's, as in {@link #addAll}.
   */
  public void addAllExcept(Positions other, Positions except) {
    other.sources.forEach((name, source) -> {
      if (source.identity != null) {
        identify(name, source.identity);
      }
      Source mine = source(name, true);
      Source held = except.sources.get(name);
      source.partitions.forEach((partition, ranges) -> {
        OffsetRanges skip = held == null ? null : held.ranges(partition);
        OffsetRanges missing = new OffsetRanges();
        missing.addMissing(ranges, skip == null ? new OffsetRanges() : skip);
        if (!missing.isEmpty()) {
          // An empty partition would make this hold "something" and encode as an empty range.
          mine.create(partition).addAll(missing);
        }
      });
    });
  }

  /** Whether every position of {@code other} is held here. */
  public boolean covers(Positions other) {
    for (Map.Entry<String, Source> source : other.sources.entrySet()) {
      for (Map.Entry<Integer, OffsetRanges> partition : source.getValue().partitions.entrySet()) {
        if (partition.getValue().isEmpty()) {
          continue;
        }
        Source known = sources.get(source.getKey());
        OffsetRanges mine = known == null ? null : known.ranges(partition.getKey());
        if (mine == null || !mine.covers(partition.getValue())) {
          return false;
        }
      }
    }
    return true;
  }

  public boolean isEmpty() {
    return sources.values().stream().allMatch(source -> source.partitions.isEmpty());
  }

  public Positions copy() {
    Positions copy = new Positions();
    copy.addAll(this);
    return copy;
  }

  private Source source(String name, boolean create) {
    Source last = lastSource;
    if (last != null && (last.name == name || last.name.equals(name))) {
      return last;
    }
    Source known = create ? sources.computeIfAbsent(name, Source::new) : sources.get(name);
    if (known != null) {
      lastSource = known;
    }
    return known;
  }

  /**
   * {@code events@<identity>|0=0-99,105|1=0-50;logs@|3=7}: sources in order, each with its
   * identity (empty when unknown) and its partitions' ranges.
   */
  public String encode() {
    StringBuilder text = new StringBuilder();
    sources.forEach((name, source) -> {
      requireName(name);
      if (text.length() > 0) {
        text.append(';');
      }
      if (source.identity != null) {
        requireName(source.identity);
      }
      text.append(name).append('@').append(source.identity == null ? "" : source.identity);
      source.partitions.forEach((partition, ranges) -> text.append('|').append(partition).append('=').append(ranges.encode()));
    });
    return text.toString();
  }

  public static Positions decode(String text) {
    Positions decoded = new Positions();
    if (text.isEmpty()) {
      return decoded;
    }
    try {
      for (String sourceText : text.split(";")) {
        String[] parts = sourceText.split("\\|");
        int at = parts[0].indexOf('@');
        String name = parts[0].substring(0, at);
        String identity = parts[0].substring(at + 1);
        Source source = decoded.source(name, true);
        source.identity = identity.isEmpty() ? null : identity;
        for (int i = 1; i < parts.length; i++) {
          int equals = parts[i].indexOf('=');
          source.put(Integer.parseInt(parts[i].substring(0, equals)), OffsetRanges.decode(parts[i].substring(equals + 1)));
        }
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Cannot read the source positions '" + text + "': " + e.getMessage(), e);
    }
    return decoded;
  }

  private static void requireName(String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(Character.isLetterOrDigit(c) && c < 128) && c != '.' && c != '_' && c != '-') {
        throw new IllegalArgumentException(
            "source '" + name + "' cannot be recorded: a source name is made of letters, digits, '.', '_' and '-',"
                + " as a Kafka topic's is");
      }
    }
  }

  @Override
  public String toString() {
    return encode();
  }
}
