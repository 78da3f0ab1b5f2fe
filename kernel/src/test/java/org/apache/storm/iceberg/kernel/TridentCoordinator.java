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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongUnaryOperator;
import org.apache.storm.trident.state.StateType;

/**
 * A model of Trident's master batch coordinator and of a spout of the given type, as the Trident
 * fault schedules drive them.
 *
 * <p>The coordinator keeps up to {@code window} batches in flight, each a txid and an attempt;
 * txids follow the last one whose commit it recorded. Commit phases run strictly in txid order: only
 * the oldest batch in flight may commit. A batch that fails, in its processing or its commit phase,
 * fails with every later batch in flight, and each is emitted again under the same txid, as a new
 * attempt ({@code MasterBatchCoordinator.fail}). A task that dies makes every batch in flight time
 * out: the coordinator replays from the first txid it had not recorded, whatever the state committed.
 *
 * <p>The spout: a transactional one emits the same tuples (ids and payloads) for a txid on every
 * attempt. An opaque one emits each id in exactly one batch whose commit is recorded, but a new
 * attempt of a txid may carry other ids, or other payloads for the same ids: the table must hold the
 * final attempt of every txid, and nothing of the attempts before it. Payloads name their attempt
 * ({@code p<id>#<txid>.<attempt>}), so the check can tell one attempt's row from another's.
 *
 * <p>One assumption narrows the opaque spout, for the per-partition state only ({@code
 * partitionOf} given): a new attempt of a txid brings at least one tuple to every state partition
 * that an earlier attempt's commit phase brought tuples. Trident calls no state partition a batch brings nothing
 * (see {@code PartitionPersistProcessor.finishBatch}), so such a partition could not replace what an
 * earlier attempt of the txid committed there: that earlier attempt would stay in the table.
 */
final class TridentCoordinator {
  /** One tuple: an id and the payload of the attempt that carries it. */
  record Event(long id, String payload) {}

  /** One attempt of a txid. */
  record Batch(long txid, int attempt, List<Event> events) {}

  private final StateType type;
  private final Random random;
  private final int idCount;
  private final int window;
  private final Deque<Batch> inFlight = new ArrayDeque<>();
  private final Map<Long, Integer> attempts = new HashMap<>();
  /** Transactional: each txid's tuples, fixed at its first attempt. */
  private final Map<Long, List<Event>> fixed = new HashMap<>();
  /** Opaque: ids in no batch in flight and in no recorded one, in order. */
  private final TreeSet<Long> pool = new TreeSet<>();
  /** Opaque: the ids of each txid's latest attempt, so a replay often carries them again. */
  private final Map<Long, List<Long>> lastIds = new HashMap<>();
  /** Opaque, per-partition: every state partition the commit phase of an attempt of each txid brought tuples. */
  private final Map<Long, Set<Long>> covered = new HashMap<>();
  private final LongUnaryOperator partitionOf;
  private final TreeMap<Long, Batch> recorded = new TreeMap<>();
  private long nextId;
  private long lastRecorded;
  private int committedIds;
  int replays;

  /** @param partitionOf the state partition of an id, for the per-partition state; null for the whole stream */
  TridentCoordinator(StateType type, Random random, int idCount, int window, LongUnaryOperator partitionOf) {
    this.type = type;
    this.partitionOf = partitionOf;
    this.random = random;
    this.idCount = idCount;
    this.window = window;
    for (long id = 0; id < idCount; id++) {
      pool.add(id);
    }
  }

  /** Whether every id is in a batch whose commit the coordinator recorded. */
  boolean done() {
    return committedIds == idCount;
  }

  boolean canEmit() {
    return inFlight.size() < window;
  }

  /** Emits the next batch: the next txid in flight, as its next attempt. */
  Batch emit() {
    long txid = lastRecorded + inFlight.size() + 1;
    int attempt = attempts.merge(txid, 1, Integer::sum);
    if (attempt > 1) {
      replays++;
    }
    Batch batch = new Batch(txid, attempt, type == StateType.TRANSACTIONAL ? fixedBatch(txid) : opaqueBatch(txid, attempt));
    inFlight.add(batch);
    return batch;
  }

  private List<Event> fixedBatch(long txid) {
    return fixed.computeIfAbsent(txid, t -> {
      List<Event> events = new ArrayList<>();
      for (int n = size(); n > 0 && nextId < idCount; n--, nextId++) {
        events.add(new Event(nextId, "p" + nextId + "#" + t));
      }
      return List.copyOf(events);
    });
  }

  /** Half the replays carry the ids of the attempt before (with new payloads); the rest draw anew. */
  private List<Event> opaqueBatch(long txid, int attempt) {
    List<Long> ids = new ArrayList<>();
    List<Long> before = lastIds.get(txid);
    if (before != null && random.nextBoolean()) {
      before.stream().filter(pool::contains).forEach(ids::add);
    } else {
      List<Long> free = new ArrayList<>(pool);
      for (int n = Math.min(size(), free.size()); n > 0; n--) {
        ids.add(free.remove(random.nextInt(free.size())));
      }
    }
    if (partitionOf != null) {
      for (long partition : covered.getOrDefault(txid, Set.of())) {
        if (ids.stream().noneMatch(id -> partitionOf.applyAsLong(id) == partition)) {
          // That commit phase ran with txid the oldest in flight, so its ids went back to the pool.
          ids.add(pool.stream().filter(id -> partitionOf.applyAsLong(id) == partition).findFirst().orElseThrow());
        }
      }
    }
    ids.forEach(pool::remove);
    lastIds.put(txid, List.copyOf(ids));
    return ids.stream().map(id -> new Event(id, "p" + id + "#" + txid + "." + attempt)).toList();
  }

  /** A batch's size: one in six is empty. */
  private int size() {
    return random.nextInt(6) == 0 ? 0 : 1 + random.nextInt(5);
  }

  /** The oldest batch in flight: the only one whose commit phase may run. */
  Batch committable() {
    return inFlight.peek();
  }

  /** The commit phase of the oldest batch starts: its state partitions may now hold some of it. */
  void commitPhase() {
    if (partitionOf != null) {
      Batch batch = inFlight.peek();
      Set<Long> partitions = covered.computeIfAbsent(batch.txid(), t -> new TreeSet<>());
      batch.events().forEach(event -> partitions.add(partitionOf.applyAsLong(event.id())));
    }
  }

  /** The batches in flight, oldest first. */
  List<Batch> inFlight() {
    return List.copyOf(inFlight);
  }

  /** Batch {@code txid} failed: it and every later batch in flight are dropped, to be emitted again. */
  void fail(long txid) {
    for (Iterator<Batch> it = inFlight.iterator(); it.hasNext(); ) {
      Batch batch = it.next();
      if (batch.txid() >= txid) {
        it.remove();
        batch.events().forEach(event -> release(event.id()));
      }
    }
  }

  /** A task died: every batch in flight times out. */
  void timeOutAll() {
    fail(lastRecorded + 1);
  }

  private void release(long id) {
    if (type != StateType.TRANSACTIONAL) {
      pool.add(id);
    }
  }

  /** The oldest batch's commit phase completed everywhere: the coordinator records it. */
  void record() {
    Batch batch = inFlight.poll();
    recorded.put(batch.txid(), batch);
    lastRecorded = batch.txid();
    committedIds += batch.events().size();
  }

  long lastRecorded() {
    return lastRecorded;
  }

  /** The final attempt of every txid the coordinator recorded. */
  Map<Long, Batch> recorded() {
    return recorded;
  }
}
