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

package org.apache.storm.iceberg.kernel;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;

/**
 * A model of storm-kafka-client's {@code KafkaSpout} with the at-least-once guarantee, for the random
 * fault schedules: a topic of a few partitions, each a run of records from a base offset; its
 * tuples carry {@code topic}, {@code partition} and {@code offset} as the default {@code
 * RecordTranslator} emits them, and an id and payload the table keeps.
 *
 * <p>What it does, as the real spout does: it emits each partition's records in offset order; a
 * tuple the sink fails, or that times out, is retried later, one at a time and in any order; it
 * commits to Kafka, now and then, the offset below which every record of a partition was acked, so
 * the committed offset lags. When it crashes, its pending tuples are orphaned (their acks and fails
 * reach an incarnation that never emitted them and are ignored) and the next incarnation polls each
 * partition again from the committed offset: everything un-acked comes again, and records acked
 * since the last commit too.
 *
 * <p>{@link #everAcked} is what the checks hold the sink to: every record the spout was ever told
 * was acked must be in the table.
 */
final class KafkaSpoutModel {
  static final String TOPIC = "orders";
  /** The tuple's fields: the table's columns, then KafkaSpout's position fields. */
  static final String[] FIELDS = {"id", "region", "event_time", "payload", "topic", "partition", "offset"};
  private static final String[] REGIONS = {"eu", "us", "apac"};

  /** A record of the topic: its partition and offset. */
  record Position(int partition, long offset) {
    @Override
    public String toString() {
      return "partition " + partition + " offset " + offset;
    }
  }

  private final Random random;
  private final Tuples tuples = new Tuples(FIELDS);
  private final long[] base;
  private final long[] end;
  /** Per partition, the offset the spout commits to Kafka: every record below it was acked. */
  private final long[] committed;
  /** Per partition, the next offset this incarnation polls. */
  private final long[] cursor;
  /** Per partition, the offsets this incarnation was told were acked. */
  private final List<TreeSet<Long>> acked = new ArrayList<>();
  /** Emitted by this incarnation and neither acked nor failed (insertion order: one seed, one schedule). */
  private final Map<Tuple, Position> pending = new LinkedHashMap<>();
  /** Failed or timed out, waiting for their retry. */
  private final List<Position> toRetry = new ArrayList<>();
  private final Map<Position, Integer> emits = new HashMap<>();
  final Set<Position> everAcked = new HashSet<>();
  int emitted;
  int retries;
  int timeouts;
  int crashes;
  int commits;

  KafkaSpoutModel(Random random) {
    this.random = random;
    int partitions = 1 + random.nextInt(4);
    base = new long[partitions];
    end = new long[partitions];
    committed = new long[partitions];
    cursor = new long[partitions];
    for (int p = 0; p < partitions; p++) {
      // Offsets from 0, or from far into a long-lived partition.
      base[p] = random.nextBoolean() ? 0 : 1_000_000_000L + random.nextInt(1_000_000);
      end[p] = base[p] + 4 + random.nextInt(12);
      committed[p] = base[p];
      cursor[p] = base[p];
      acked.add(new TreeSet<>());
    }
  }

  int partitions() {
    return base.length;
  }

  /** Every record of the topic. */
  List<Position> records() {
    List<Position> all = new ArrayList<>();
    for (int p = 0; p < base.length; p++) {
      for (long offset = base[p]; offset < end[p]; offset++) {
        all.add(new Position(p, offset));
      }
    }
    return all;
  }

  /** Whether every record was acked: the spout would commit each partition's end. */
  boolean done() {
    for (int p = 0; p < base.length; p++) {
      if (firstUnacked(p) < end[p]) {
        return false;
      }
    }
    return true;
  }

  /** The records this incarnation was not told are acked, from each partition's committed offset. */
  List<Position> unacked() {
    List<Position> unacked = new ArrayList<>();
    for (int p = 0; p < base.length; p++) {
      for (long offset = committed[p]; offset < end[p]; offset++) {
        if (!acked.get(p).contains(offset)) {
          unacked.add(new Position(p, offset));
        }
      }
    }
    return unacked;
  }

  boolean hasNext() {
    if (!toRetry.isEmpty()) {
      return true;
    }
    for (int p = 0; p < base.length; p++) {
      if (cursor[p] < end[p]) {
        return true;
      }
    }
    return false;
  }

  /**
   * The next tuple: a retry of one failed record, any of them, or the next record of a partition,
   * in offset order; null when there is nothing to emit.
   */
  Tuple next() {
    List<Integer> fresh = new ArrayList<>();
    for (int p = 0; p < base.length; p++) {
      if (cursor[p] < end[p]) {
        fresh.add(p);
      }
    }
    if (!toRetry.isEmpty() && (fresh.isEmpty() || random.nextBoolean())) {
      retries++;
      return emit(toRetry.remove(random.nextInt(toRetry.size())));
    }
    if (fresh.isEmpty()) {
      return null;
    }
    int p = fresh.get(random.nextInt(fresh.size()));
    return emit(new Position(p, cursor[p]++));
  }

  private Tuple emit(Position position) {
    emitted++;
    int n = emits.merge(position, 1, Integer::sum);
    long id = id(position);
    Tuple tuple = tuples.tuple(id, REGIONS[(int) (id % REGIONS.length)],
        Instant.ofEpochSecond(1_793_534_400L + 86_400L * (position.offset() % 3)),
        "p" + position.partition() + "@" + position.offset() + "#" + n, TOPIC, position.partition(), position.offset());
    pending.put(tuple, position);
    return tuple;
  }

  /** The id a record's row carries: its partition and its offset above the partition's base. */
  long id(Position position) {
    return position.partition() * 1_000L + (position.offset() - base[position.partition()]);
  }

  Position positionOfId(long id) {
    int p = (int) (id / 1_000L);
    return new Position(p, base[p] + id % 1_000L);
  }

  static Position position(Tuple tuple) {
    return new Position(tuple.getIntegerByField("partition"), tuple.getLongByField("offset"));
  }

  /** The sink acked {@code tuple}'s tree; ignored unless this incarnation is still waiting on it. */
  void ack(Tuple tuple) {
    Position position = pending.remove(tuple);
    if (position != null) {
      acked.get(position.partition()).add(position.offset());
      everAcked.add(position);
    }
  }

  /** The sink failed {@code tuple}'s tree; ignored unless this incarnation is still waiting on it. */
  void fail(Tuple tuple) {
    Position position = pending.remove(tuple);
    if (position != null) {
      toRetry.add(position);
    }
  }

  /** A pending tuple, any of them, times out: it will be retried, whatever the sink still does with it. */
  void timeOutOne() {
    if (pending.isEmpty()) {
      return;
    }
    Tuple tuple = new ArrayList<>(pending.keySet()).get(random.nextInt(pending.size()));
    timeouts++;
    fail(tuple);
  }

  /** Commits to Kafka, per partition, the offset below which every record was acked. */
  void commitOffsets() {
    commits++;
    for (int p = 0; p < base.length; p++) {
      committed[p] = firstUnacked(p);
    }
  }

  /** The spout's worker dies; the next incarnation polls from the committed offsets. */
  void crash() {
    crashes++;
    pending.clear();
    toRetry.clear();
    for (int p = 0; p < base.length; p++) {
      acked.get(p).clear();
      cursor[p] = committed[p];
    }
  }

  private long firstUnacked(int p) {
    long offset = committed[p];
    while (offset < end[p] && acked.get(p).contains(offset)) {
      offset++;
    }
    return offset;
  }
}
