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

package org.apache.storm.iceberg.kernel.change;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.StructLikeWrapper;
import org.apache.iceberg.util.StructProjection;

/**
 * One batch's changes, collapsed to a final state per key as they arrive: the change with the
 * highest sequence number wins (at an equal one, a removing change, update-before or delete, comes
 * before a setting one, so the after-image wins; then the later source offset, or arrival without
 * source positions). Each key then costs one
 * key-only equality delete, which removes whatever row earlier commits hold for it, and, unless its
 * final change removes it, one row; a superseded row is never written. The batch holds one row per
 * key until it seals.
 *
 * <p>A batch with too many keys to hold their rows {@linkplain #stream streams} instead: from then on
 * each change that supersedes its key's winner so far is written at once, and only each key's
 * winning change's order is kept (its sequence number, operation and arrival, no row), so a stale
 * change still never wins. The table ends up as the collapse would leave it; what it costs is a
 * position delete (or deletion vector) for each row of the batch a later change of its key
 * replaced or removed.
 *
 * <p>Not thread-safe: one task's executor thread owns it.
 *
 * @param <R> the row type ({@link RowModel})
 */
public final class KeyedChanges<R extends StructLike> {
  private final Schema keySchema;
  private final java.util.function.Supplier<R> emptyKeys;
  private final StructProjection keyOf;
  /**
   * The key in Iceberg's internal representation, which the map compares: generic values compare
   * by their Java form, and two OffsetDateTimes of one instant at different offsets are not equal.
   */
  private final java.util.function.UnaryOperator<StructLike> internal;
  private final StructProjection internalKeyOf;
  private final boolean upsert;
  /**
   * Each key's final state, by the key in its internal representation: the value itself for a key of
   * one column whose internal values compare as Java values ({@link #SCALAR}), otherwise a {@link
   * StructLikeWrapper} (StructLikeMap's, without its thread-local lookups).
   */
  private final java.util.Map<Object, KeyFinal<R>> byKey = new java.util.LinkedHashMap<>();
  /**
   * The single key column types whose internal value's {@code equals} and {@code hashCode} are Iceberg's
   * comparison of it (Integer, Long, or a CharSequence, compared as its String), so the value keys the
   * map without a wrapper hashing it through the key's type.
   */
  private static final java.util.Set<Type.TypeID> SCALAR = java.util.EnumSet.of(Type.TypeID.INTEGER, Type.TypeID.LONG,
      Type.TypeID.STRING, Type.TypeID.DATE, Type.TypeID.TIME, Type.TypeID.TIMESTAMP, Type.TypeID.TIMESTAMP_NANO);
  private final boolean scalarKey;
  /** Keys whose changes so far only removed them: what {@link #summary} looks for, skipped when none. */
  private long unwritten;
  /** Wraps the key looked up next. */
  private StructLikeWrapper probe;
  /** Whether every key column's internal value is its Java value, so one copy of a key serves as both. */
  private final boolean internalIsJava;
  /** Whether the rows hold internal values ({@link RowModel#internalValues}). */
  private final boolean internalValues;
  /** The types whose generic (Java) values differ from their internal ones. */
  private static final java.util.Set<Type.TypeID> CONVERTED = java.util.EnumSet.of(Type.TypeID.DATE, Type.TypeID.TIME,
      Type.TypeID.TIMESTAMP, Type.TypeID.TIMESTAMP_NANO, Type.TypeID.FIXED, Type.TypeID.STRUCT);
  private long arrivals;
  /** Per source lane (a Kafka partition; "" without source positions), the batch's sequence numbers. */
  private final java.util.Map<String, ChangeSummary.Lane> lanes = new java.util.HashMap<>();
  private String lane = "";
  /** The source offset of the change taken next, or -1 without source positions. */
  private long offset = -1;
  private long dropped;
  /** Where each change is written as it arrives, once the batch streams; null while it collapses. */
  private ChangeWriter<R> streamed;

  /**
   * @param upsert whether update-before images are ignored (upsert mode: the after-image replaces
   *     the row) rather than applied as deletes (changelog)
   * @param model how the batch's rows hold their values
   */
  public KeyedChanges(Schema schema, ChangeKey key, boolean upsert, RowModel<R> model) {
    this.keySchema = key.schemaIn(schema);
    this.emptyKeys = model.emptyRows(keySchema);
    this.keyOf = StructProjection.create(schema, keySchema);
    this.internal = model.internalView(schema);
    this.internalKeyOf = StructProjection.create(schema, keySchema);
    this.upsert = upsert;
    this.probe = StructLikeWrapper.forType(keySchema.asStruct());
    this.internalValues = model.internalValues();
    this.internalIsJava =
        internalValues || keySchema.columns().stream().noneMatch(field -> CONVERTED.contains(field.type().typeId()));
    this.scalarKey = keySchema.columns().size() == 1 && SCALAR.contains(keySchema.columns().get(0).type().typeId());
  }

  /**
   * Takes one change, whose row lies in {@code partition} (the caller's to reuse: copied when kept).
   *
   * @return false for an update-before image in upsert mode, which changes nothing and is dropped
   */
  public boolean put(ChangeRow<R> change, StructLike partition) {
    if (upsert && change.op() == ChangeOp.UPDATE_BEFORE) {
      dropped++;
      return false;
    }
    long arrival = offset >= 0 ? offset : arrivals++;
    StructLike key = keyOf.wrap(change.row());
    if (change.sequence() != null) {
      ChangeSummary.Lane known = lanes.get(lane);
      if (known == null || change.sequence() < known.smallest()) {
        lanes.put(lane, new ChangeSummary.Lane(change.sequence(), describe(key),
            known == null ? change.sequence() : Math.max(known.largest(), change.sequence())));
      } else if (change.sequence() > known.largest()) {
        lanes.put(lane, new ChangeSummary.Lane(known.smallest(), known.smallestKey(), change.sequence()));
      }
    }
    StructLike comparable = internalIsJava ? key : internalKeyOf.wrap(internal.apply(change.row()));
    Object lookup = scalarKey ? scalar(comparable) : probe.set(comparable);
    KeyFinal<R> known = byKey.get(lookup);
    if (known == null) {
      R internalKey = copy(comparable);
      known = new KeyFinal<>(internalIsJava ? internalKey : copy(key), internalKey, copyOf(partition));
      if (scalarKey) {
        byKey.put(lookup, known);
      } else {
        // The probe becomes the map's key, wrapping the copy; the next lookup gets a wrapper of its own.
        byKey.put(probe.set(internalKey), known);
        probe = probe.copyFor(null);
      }
      win(known, change, arrival, true);
    } else if (comesAfter(change, arrival, known.winner, known.winnerArrival)) {
      win(known, change, arrival, false);
    }
    if (!known.written) {
      if (!change.op().removes()) {
        known.written = true;
        unwritten -= known.counted ? 1 : 0;
      } else if (!known.counted) {
        known.counted = true;
        unwritten++;
      }
    }
    return true;
  }

  /** Makes {@code change} its key's winner; once the batch streams, writes it and keeps no row. */
  private void win(KeyFinal<R> known, ChangeRow<R> change, long arrival, boolean first) {
    known.winnerArrival = arrival;
    if (streamed == null) {
      known.winner = change;
      return;
    }
    if (first) {
      streamed.deleteKey(known.key, known.partition); // what earlier commits hold for the key: once per key
    }
    if (change.op().removes()) {
      if (known.live) {
        streamed.deleteKey(known.key, known.partition); // the batch's own row of the key, by position
      }
    } else {
      streamed.write(change.row(), known.partition);
    }
    known.live = !change.op().removes();
    known.winner = new ChangeRow<>(change.op(), change.sequence(), null);
  }

  /**
   * Switches the batch to streaming, for the rest of it: writes each key's final state so far to
   * {@code writer} (the key's equality delete, then its row unless its final change removes it),
   * drops the rows it held, and from then on writes each change that supersedes its key's winner.
   */
  public void stream(ChangeWriter<R> writer) {
    if (streamed != null) {
      throw new IllegalStateException("the batch streams already");
    }
    streamed = writer;
    for (KeyFinal<R> state : byKey.values()) {
      ChangeRow<R> winner = state.winner;
      state.winner = null;
      win(state, winner, state.winnerArrival, true);
    }
  }

  /** Whether the batch {@linkplain #stream streams}. */
  public boolean streams() {
    return streamed != null;
  }

  /** The keys the batch changes so far. */
  public int keys() {
    return byKey.size();
  }

  /** Whether {@code change} (arrived at {@code arrival}) supersedes {@code current}. */
  private static boolean comesAfter(ChangeRow<?> change, long arrival, ChangeRow<?> current, long currentArrival) {
    long sequence = change.sequence() == null ? arrival : change.sequence();
    long currentSequence = current.sequence() == null ? currentArrival : current.sequence();
    if (sequence != currentSequence) {
      return sequence > currentSequence;
    }
    int rank = change.op().removes() ? 0 : 1;
    int currentRank = current.op().removes() ? 0 : 1;
    return rank != currentRank ? rank > currentRank : arrival > currentArrival;
  }

  /** What the batch holds, for the commit's tripwires; its rows' partitions are of spec {@code specId}. */
  public ChangeSummary summary(int specId) {
    return new ChangeSummary(byKey.size(), java.util.Map.copyOf(lanes), dropped, unwrittenDeletes(specId));
  }

  /**
   * The keys the batch only removes (no change of the batch wrote their row), up to {@link
   * ChangeSummary.RemovedKeys#LIMIT}: whether the table held them before is the unseen-keys tripwire's question.
   */
  private ChangeSummary.RemovedKeys unwrittenDeletes(int specId) {
    List<ChangeSummary.RemovedKey> removed = new ArrayList<>();
    long total = 0;
    for (KeyFinal<R> state : unwritten == 0 ? List.<KeyFinal<R>>of() : byKey.values()) {
      if (!state.written) {
        total++;
        if (removed.size() < ChangeSummary.RemovedKeys.LIMIT) {
          removed.add(new ChangeSummary.RemovedKey(state.internalKey, state.partition, describe(state.key)));
        }
      }
    }
    return new ChangeSummary.RemovedKeys(keySchema, specId, List.copyOf(removed), total);
  }

  private String describe(StructLike key) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < keySchema.columns().size(); i++) {
      Types.NestedField column = keySchema.columns().get(i);
      Object value = key.get(i, Object.class);
      // An internal timestamp is a count of microseconds: the message shows it as the instant it is.
      text.append(i == 0 ? "" : ", ").append(column.name()).append('=')
          .append(internalValues ? Transforms.identity().toHumanString(column.type(), value) : value);
    }
    return text.toString();
  }

  /**
   * Every key's final state, in the order each key's first change arrived: rows written in that
   * order keep the source's order in the files (a growing key stays sorted, its bounds tight), which
   * also made them cheaper to write than in hash order.
   */
  public Collection<KeyFinal<R>> finals() {
    return byKey.values();
  }

  public boolean isEmpty() {
    return byKey.isEmpty();
  }

  /**
   * Where the change taken next comes from: its source lane, whose sequence numbers are compared with
   * earlier ones of the same lane only (a Kafka partition's LSNs grow; two partitions' interleave),
   * and its offset, which orders a key's changes when no sequence number is read (all changes of a
   * key come from one partition) and breaks ties: a replay arriving after a later change still
   * ranks before it.
   */
  public void from(String source, long sourceOffset) {
    this.lane = source;
    this.offset = sourceOffset;
  }

  /** A one-column key's internal value as the map compares it: a CharSequence as its String. */
  private static Object scalar(StructLike key) {
    Object value = key.get(0, Object.class);
    return value instanceof CharSequence text && !(value instanceof String) ? text.toString() : value;
  }

  private R copy(StructLike key) {
    return RowModel.fill(emptyKeys.get(), key);
  }

  private static StructLike copyOf(StructLike partition) {
    if (partition == null || partition.size() == 0) {
      return partition; // unpartitioned: nothing to copy, and nothing in it changes
    }
    if (partition instanceof org.apache.iceberg.PartitionKey key) {
      return key.copy();
    }
    return partition;
  }
}
