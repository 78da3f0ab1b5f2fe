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

package org.apache.storm.iceberg.kernel.task;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.iceberg.spi.SourcePosition;

/**
 * Keeps a task's row-level changes in source order when a batch does not land. Its tuples replay,
 * but later changes of the same source partitions are already in flight, in the open batch or in a
 * sealed one waiting to commit; committed first, they would be overwritten by the older replayed
 * ones. So each source partition of a failed batch is fenced from the batch's smallest offset until
 * every failed offset has landed again: a later change arriving meanwhile is failed at once, unless
 * every failed change before it is back in a batch of this task or landed; a change failed so is
 * fenced as the batch's were, since it replays too, and a spout's retries may bring changes after it
 * first. A failed change that comes back before those ahead of it waits as well, rather than make the
 * batch it would join fail. A batch may commit only if, with what landed since, it brings every fenced offset up to its
 * own largest one (a batch's changes collapse in sequence order, so what it brings lands in order);
 * otherwise it is failed unattempted, and its offsets join the fenced ones.
 *
 * <p>A task that starts (after a crash, say) cannot know what its predecessor held in flight: those
 * changes replay only once Storm times them out, while later ones already reach the new task, in
 * any pattern a spout's retries make. So for {@code waitMillis} after the task first saw the
 * partition, a change must follow every offset since the sink's newest committed one: after a gap,
 * it is held back (and fenced) until the gap's offsets have arrived or that time has passed, since a
 * gap may hold no records (a compacted topic, a transaction's commit marker). When the sink never
 * committed a change of the partition, the offsets count from 0: a predecessor's first batch may
 * have failed before anything landed, and its replays must land first. On a partition that does not
 * start at offset 0 (its oldest records deleted) or one written in transactions, a task's start
 * therefore holds changes back that long once.
 *
 * <p>No wait is forever: a fence none of whose changes came back for {@code waitMillis} is lifted,
 * with a warning, since a record may never come back (compacted away, deleted by retention). By
 * default that is twice the message timeout (Storm times a tuple out between one and two timeouts
 * after it was emitted) plus 30 s for the spout's retry backoff. Two losses are beyond the fence: a
 * tuple Storm drops in transit without failing it, which replays a message timeout later while the
 * changes after it go on, and a change the record mapper refuses, which is failed without a fence
 * (it would hold its partition back on every replay) and may map on a later replay, after the table
 * changed. Either may then overwrite a newer change of its key; the sequence-inversion tripwire
 * counts it.
 *
 * <p>Called from the executor thread (intake) and the commit thread (commits). The split sink's
 * committer applies the commit-side rule across its writers ({@link #blocksArrived}, {@link #failed},
 * {@link #landed}): its writers do not learn their batches' outcomes.
 */
final class ChangeFence {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ChangeFence.class);

  private final Map<String, FencedLane> lanes = new HashMap<>();
  private final Map<String, CatchUp> catchUps = new HashMap<>();
  private final java.util.Set<String> seen = new java.util.HashSet<>();
  private String lastSource;
  private int lastPartition = -1;
  private String lastKey;
  private String lastSeen;
  private final String table;
  private final java.util.function.LongSupplier clock;
  private final long waitMillis;
  /** What the routing task routed elsewhere, with this table's name; null for a task that does not route. */
  private org.apache.storm.iceberg.kernel.position.OffsetClaims routed;
  private String routedTable;

  /**
   * @param table the table, for the log
   * @param clock the task's clock
   * @param waitMillis how long changes wait behind a gap or a fenced change at most, without a sign of it
   */
  ChangeFence(String table, java.util.function.LongSupplier clock, long waitMillis) {
    this.table = table;
    this.clock = clock;
    this.waitMillis = waitMillis;
  }

  /**
   * Makes a new task's first stretch of each partition wait only for offsets that may be this
   * table's: those {@code claims} saw routed to other tables never come here, and count as arrived.
   */
  synchronized void routedWith(org.apache.storm.iceberg.kernel.position.OffsetClaims claims, String table) {
    this.routed = claims;
    this.routedTable = table;
  }

  /**
   * Notes the first change this task sees of {@code position}'s partition: until the replays are
   * due, the offsets after {@code largestCommitted} (-1 for none: from offset 0) must arrive in
   * order, or the changes after a gap wait.
   */
  synchronized void seen(SourcePosition position, long largestCommitted) {
    String key = key(position.source(), position.partition());
    if (key == lastSeen) {
      return; // the partition of the tuple before: seen already
    }
    lastSeen = key;
    seen(key, largestCommitted);
  }

  private void seen(String key, long largestCommitted) {
    if (seen.add(key)) {
      catchUps.put(key, new CatchUp(largestCommitted + 1, clock.getAsLong() + waitMillis));
    }
  }

  /**
   * The split sink's committer, which sees whole batches from its writers rather than tuples, and
   * learns what landed from the sink's positions ledger ({@code committed}) rather than from the
   * writers' deduplication: notes a batch's arrival for its first stretch of each partition (as
   * {@link #seen}, from the ledger's largest offset), counts what the ledger holds of a fenced
   * partition as landed (a commit applied late, whose replays the writers skip), and says why the
   * batch may not commit yet, or null: in its first stretch, when some offset since the ledger's
   * newest up to the batch's largest has not arrived in any batch (a gap inside the batch counts: a
   * writer's batch may join a replayed change to later ones, past the lost ones between them);
   * otherwise as {@link #blocks}. A change a writer's mapper refused never arrives, so in that stretch
   * it holds its partition back until the wait ends. Offsets a routing writer sent to other tables
   * ({@code elsewhere}, or null) never come to this table: they count as arrived.
   * The caller fences a batch held back ({@link #failed}).
   */
  synchronized String blocksArrived(Positions batch, Positions committed, Positions elsewhere) {
    String gap = null;
    for (Positions.Span span : batch.spans()) {
      String key = key(span.source(), span.partition());
      Positions ledger = committed.of(span.source(), span.partition());
      seen(key, ledger.largest(span.source(), span.partition()));
      CatchUp catchUp = catchUps.get(key);
      if (catchUp != null && clock.getAsLong() >= catchUp.expiresAtMillis) {
        catchUps.remove(key);
      } else if (catchUp != null) {
        catchUp.arrived.addAll(batch.of(span.source(), span.partition()));
        if (elsewhere != null) {
          catchUp.arrived.addAll(elsewhere.of(span.source(), span.partition()));
        }
        if (gap == null && !catchUp.arrived.holdsAll(span.source(), span.partition(), catchUp.from, span.largest())) {
          gap = "it holds changes of " + span.source() + " partition " + span.partition() + " up to offset " + span.largest()
              + ", and the committer, new to the partition, has not seen every offset since " + catchUp.from
              + ": they wait for the changes in between, which a predecessor may have held";
        }
      }
      FencedLane lane = lane(key);
      if (lane != null && !lane.landed.covers(ledger.upTo(span.largest()))) {
        landed(ledger.upTo(span.largest()));
      }
    }
    return gap != null ? gap : blocks(batch);
  }

  /** The lane name of a partition; consecutive tuples mostly come from one, whose name is built once. */
  private String key(String source, int partition) {
    if (partition != lastPartition || !source.equals(lastSource)) {
      lastSource = source;
      lastPartition = partition;
      lastKey = source + "/" + partition;
    }
    return lastKey;
  }

  /** A batch holding {@code batch} did not land: its partitions are fenced from their smallest offset. */
  synchronized void failed(Positions batch) {
    for (Positions.Span span : batch.spans()) {
      FencedLane lane = lanes.computeIfAbsent(key(span.source(), span.partition()), k -> new FencedLane());
      lane.fail(batch.of(span.source(), span.partition()), span.smallest());
      lane.waitsUntilMillis = clock.getAsLong() + waitMillis;
    }
  }

  /**
   * The partition's fence, or null when it has none, or none any more: a fence that saw none of its
   * changes come back for {@code waitMillis} is lifted, since they may never come (a record compacted
   * away, which KafkaSpout then acks itself; one deleted by retention; a partition taken over by
   * another task). Should one come back later all the same, it may overwrite a newer change of its
   * key; the sequence-inversion tripwire counts that.
   */
  private FencedLane lane(String key) {
    FencedLane lane = lanes.isEmpty() ? null : lanes.get(key);
    if (lane != null && clock.getAsLong() >= lane.waitsUntilMillis) {
      lanes.remove(key);
      LOG.warn("No longer holding back changes of {} {} after offset {}: of the changes that failed ({}), {} came back"
          + " within {} ms; the rest may never come (compacted away, deleted by retention, or taken by another task)."
          + " One that comes back later all the same may overwrite a newer change of its key (counted by"
          + " iceberg-sequence-inversions); raise withChangeOrderWaitMillis if the spout retries later than that",
          table, key, lane.smallest, lane.failed, lane.landed.isEmpty() ? "none" : lane.landed + "", waitMillis);
      return null;
    }
    return lane;
  }

  /** A sign that a fenced partition's changes are coming back: the fence waits on. */
  private void progress(FencedLane lane) {
    lane.waitsUntilMillis = clock.getAsLong() + waitMillis;
  }

  /**
   * Whether a tuple at {@code position} must wait, as a new task's change after a gap, or a later change of a
   * fenced partition that is not a replay and arrived before every failed change before it was back.
   * The caller fails a tuple held back: it is fenced from here on, as a failed batch's are.
   */
  synchronized boolean holdsBack(SourcePosition position) {
    String key = key(position.source(), position.partition());
    CatchUp catchUp = catchUps.isEmpty() ? null : catchUps.get(key);
    if (catchUp != null) {
      if (clock.getAsLong() >= catchUp.expiresAtMillis) {
        catchUps.remove(key);
      } else if (!catchUp.follows(position) && !arrivedOrRoutedElsewhere(catchUp, position)) {
        return fence(key, position);
      }
    }
    FencedLane lane = lane(key);
    if (lane == null || position.offset() <= lane.smallest || lane.backBefore(position.offset())) {
      return false;
    }
    // A failed change that came back before those ahead of it waits too: taken, it would make its
    // whole batch fail unattempted, and every change back in it replay again.
    return lane.failed.contains(position) || fence(key, position);
  }

  /** Whether every offset of the stretch before {@code position} arrived here or went to another table. */
  private boolean arrivedOrRoutedElsewhere(CatchUp catchUp, SourcePosition position) {
    return routed != null && routed.arrivedOrRoutedElsewhere(
        routedTable, position.source(), position.partition(), catchUp.from, position.offset() - 1, catchUp.arrived);
  }

  /** Fences a change held back: it replays, and the changes after it must wait for it as for a failed batch's. */
  private boolean fence(String key, SourcePosition position) {
    FencedLane lane = lanes.get(key);
    if (lane == null) {
      lane = new FencedLane();
      lane.waitsUntilMillis = clock.getAsLong() + waitMillis;
      lanes.put(key, lane);
    }
    lane.failed.add(position);
    lane.smallest = Math.min(lane.smallest, position.offset());
    return true;
  }

  /** A change was written into the open batch: a failed one is back. */
  synchronized void taken(SourcePosition position) {
    if (lanes.isEmpty()) {
      return;
    }
    FencedLane lane = lane(key(position.source(), position.partition()));
    if (lane != null && lane.failed.contains(position)) {
      lane.back.add(position);
      progress(lane);
    }
  }

  /**
   * Why a batch holding {@code batch} may not commit yet, or null when it may: it holds a change
   * later than a fenced partition's failed ones without bringing, with what landed since, every
   * failed one up to its own largest offset.
   */
  synchronized String blocks(Positions batch) {
    for (Positions.Span span : batch.spans()) {
      FencedLane lane = lane(key(span.source(), span.partition()));
      if (lane == null || span.largest() <= lane.smallest) {
        continue;
      }
      Positions together = lane.landed.copy();
      together.addAll(batch.of(span.source(), span.partition()));
      if (!together.covers(lane.failed.upTo(span.largest()))) {
        return "it holds changes of " + span.source() + " partition " + span.partition() + " after offset " + lane.smallest
            + ", whose batch did not land: they wait until the changes from that offset on land again, in order";
      }
    }
    return null;
  }

  /**
   * A change the sink has committed (by an earlier incarnation, another topology, or a commit whose
   * answer was lost) came again and was skipped: it counts as landed, or its partition would stay
   * fenced for good, and as arrived for a new task's first stretch.
   */
  synchronized void committed(SourcePosition position) {
    String key = key(position.source(), position.partition());
    CatchUp catchUp = catchUps.isEmpty() ? null : catchUps.get(key);
    if (catchUp != null) {
      catchUp.follows(position);
    }
    FencedLane lane = lane(key);
    if (lane != null && lane.failed.contains(position)) {
      lane.landed.add(position);
      lane.back.add(position);
      progress(lane);
      if (lane.landed.covers(lane.failed)) {
        lanes.remove(key);
      }
    }
  }

  /** A batch holding {@code batch} landed: a partition whose failed changes all landed again is no longer fenced. */
  synchronized void landed(Positions batch) {
    for (Positions.Span span : batch.spans()) {
      String key = key(span.source(), span.partition());
      FencedLane lane = lane(key);
      if (lane != null) {
        Positions landed = batch.of(span.source(), span.partition());
        if (lane.failed.firstShared(landed) != null) {
          progress(lane);
        }
        lane.landed.addAll(landed);
        lane.back.addAll(landed);
        if (lane.landed.covers(lane.failed)) {
          lanes.remove(key);
        }
      }
    }
  }
}
