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
 * every failed offset has landed again: a later change arriving meanwhile is failed at once (it
 * replays after), and a batch may commit only if, with what landed since, it brings every failed
 * offset up to its own largest one (a batch's changes collapse in sequence order, so what it brings
 * lands in order); otherwise it is failed unattempted, and its offsets join the fenced ones.
 *
 * <p>A task that starts (after a crash, say) cannot know what its predecessor held in flight: those
 * changes replay only once Storm times them out, while later ones already reach the new task. So
 * when the first change a task sees of a partition lies beyond the offset after the sink's newest
 * committed one, the offsets in between are a gap: later changes are held back until the gap's
 * offsets have arrived or, since a gap may hold no records (a compacted topic, transaction markers),
 * until the replays are due ({@code gapWaitMillis} after the task saw the gap, twice the message
 * timeout by default). When the sink never committed a change of the partition, the gap reaches
 * back to offset 0: a predecessor's first batch may have failed before anything landed, and its
 * replays must land first. On a partition that does not start at offset 0 (its oldest records
 * deleted), a stream's first start therefore waits that long once. Called from the executor thread
 * (intake) and the commit thread (commits).
 */
final class ChangeFence {
  /** A fenced source partition: what failed, and what of it landed since. */
  private static final class Lane {
    final Positions failed = new Positions();
    final Positions landed = new Positions();
    long smallest = Long.MAX_VALUE;
  }

  /** A new task's gap before the first change it saw of a partition. */
  private static final class Gap {
    final long to;
    final long expiresAtMillis;
    long next;

    Gap(long from, long to, long expiresAtMillis) {
      this.next = from;
      this.to = to;
      this.expiresAtMillis = expiresAtMillis;
    }
  }

  private final Map<String, Lane> lanes = new HashMap<>();
  private final Map<String, Gap> gaps = new HashMap<>();
  private final java.util.Set<String> seen = new java.util.HashSet<>();
  private String lastSource;
  private int lastPartition = -1;
  private String lastKey;
  private String lastSeen;
  private final java.util.function.LongSupplier clock;
  private final long gapWaitMillis;

  /**
   * @param clock the task's clock
   * @param gapWaitMillis how long a new task holds later changes back behind a gap at most
   */
  ChangeFence(java.util.function.LongSupplier clock, long gapWaitMillis) {
    this.clock = clock;
    this.gapWaitMillis = gapWaitMillis;
  }

  /**
   * Notes the first change this task sees of {@code position}'s partition: beyond the offset after
   * {@code largestCommitted} (-1 for none: offset 0), the offsets in between are a gap.
   */
  synchronized void seen(SourcePosition position, long largestCommitted) {
    String key = key(position.source(), position.partition());
    if (key == lastSeen) {
      return; // the partition of the tuple before: seen already
    }
    lastSeen = key;
    if (seen.add(key) && position.offset() > largestCommitted + 1) {
      gaps.put(key, new Gap(largestCommitted + 1, position.offset() - 1, clock.getAsLong() + gapWaitMillis));
    }
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
      Lane lane = lanes.computeIfAbsent(key(span.source(), span.partition()), k -> new Lane());
      lane.failed.addAll(batch.of(span.source(), span.partition()));
      lane.smallest = Math.min(lane.smallest, span.smallest());
    }
  }

  /** Whether a tuple at {@code position} must wait: a later change of a fenced partition that is not a replay, or one beyond a gap. */
  synchronized boolean holdsBack(SourcePosition position) {
    String key = key(position.source(), position.partition());
    Gap gap = gaps.get(key);
    if (gap != null) {
      if (position.offset() <= gap.to) {
        gap.next = Math.max(gap.next, position.offset() + 1);
      }
      if (gap.next > gap.to || clock.getAsLong() >= gap.expiresAtMillis) {
        gaps.remove(key);
      } else if (position.offset() > gap.to) {
        return true;
      }
    }
    Lane lane = lanes.get(key);
    return lane != null && position.offset() > lane.smallest && !lane.failed.contains(position);
  }

  /**
   * Why a batch holding {@code batch} may not commit yet, or null when it may: it holds a change
   * later than a fenced partition's failed ones without bringing, with what landed since, every
   * failed one up to its own largest offset.
   */
  synchronized String blocks(Positions batch) {
    for (Positions.Span span : batch.spans()) {
      Lane lane = lanes.get(key(span.source(), span.partition()));
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
   * fenced for good.
   */
  synchronized void committed(SourcePosition position) {
    String key = key(position.source(), position.partition());
    Lane lane = lanes.get(key);
    if (lane != null && lane.failed.contains(position)) {
      lane.landed.add(position);
      if (lane.landed.covers(lane.failed)) {
        lanes.remove(key);
      }
    }
  }

  /** A batch holding {@code batch} landed: a partition whose failed changes all landed again is no longer fenced. */
  synchronized void landed(Positions batch) {
    for (Positions.Span span : batch.spans()) {
      String key = key(span.source(), span.partition());
      Lane lane = lanes.get(key);
      if (lane != null) {
        lane.landed.addAll(batch.of(span.source(), span.partition()));
        if (lane.landed.covers(lane.failed)) {
          lanes.remove(key);
        }
      }
    }
  }
}
