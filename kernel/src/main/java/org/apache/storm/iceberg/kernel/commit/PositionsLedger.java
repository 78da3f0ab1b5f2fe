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

package org.apache.storm.iceberg.kernel.commit;

import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.iceberg.spi.SinkSnapshotKeys;
import org.apache.storm.iceberg.spi.SourcePosition;

/**
 * The source positions a sink has committed, kept in the table: every commit of the sink records,
 * in its snapshot summary, the positions that it and every earlier commit of the sink hold
 * ({@link #POSITIONS_KEY}). The newest such snapshot is the whole truth, so a restart or a
 * rebalance reads it alone, walking back from the newest snapshot of the sink's branch only as far as the sink's newest
 * commit (past the commits of other writers since).
 *
 * <p>A sink is named by its WAL namespace alone, not by its topology's name: a topology redeployed
 * under a new name (Storm never updates one in place, so operators version the name), or a second
 * topology run beside the first during a blue/green switch, is the same sink of the same sources and
 * continues from the same positions. Each source is named inside the positions by its identity
 * (topic id), so one sink may read many sources. Earlier builds named the sink {@code
 * <namespace>/<topology>}; such a snapshot counts as the sink's ({@link #ownedBy}), so the first
 * commit after an upgrade carries its positions forward and later walks stop at that commit.
 *
 * <p>Its tasks commit concurrently,
 * each recording what the newest commit recorded plus its own batch; a commit made against a newest
 * commit that is no longer the newest is refused by {@link PositionsUnchanged} and recomputed, so
 * no task's positions are lost. A batch holding a position already committed is refused outright.
 */
public final class PositionsLedger {
  /** The summary key of the positions a sink's commits hold. */
  public static final String POSITIONS_KEY = SinkSnapshotKeys.SOURCE_POSITIONS;
  /** The summary key naming the sink whose positions {@link #POSITIONS_KEY} holds. */
  public static final String SCOPE_KEY = SinkSnapshotKeys.POSITIONS_SCOPE;

  private final String scope;
  private final CommitBranch branch;
  /** The last walk's answer, reused by the next walk that reaches the snapshot it started from. */
  private volatile Walked lastWalk;

  /**
   * @param walNamespace the sink's WAL namespace, which holds no '/' (the options refuse one)
   * @param branch the branch the sink commits to, whose ancestry alone holds its positions
   */
  public PositionsLedger(String walNamespace, String branch) {
    this.scope = walNamespace;
    this.branch = new CommitBranch(branch);
  }

  /**
   * Whether a snapshot whose summary names {@code snapshotScope} holds this sink's positions: its
   * own scope, or one written before the topology name left it ({@code <namespace>/<topology>}, of
   * any topology of the namespace, since a renamed topology is the same sink).
   */
  private boolean ownedBy(String snapshotScope) {
    return snapshotScope != null && (snapshotScope.equals(scope) || snapshotScope.startsWith(scope + "/"));
  }

  /**
   * What the sink's newest commit recorded.
   *
   * @param snapshotId that commit's snapshot, or null when the sink has committed none
   * @param positions its positions (empty for none); the caller's to change
   * @param historyCutAt when no commit of the sink was found and the branch's history ends at a
   *     snapshot whose parent was expired: that snapshot's id, since the sink's token may have been
   *     expired with it; otherwise null
   */
  public record Committed(Long snapshotId, Positions positions, Long historyCutAt) {}

  /** What the sink's commits hold on its branch in the table's current metadata; the caller refreshed it. */
  public Committed committed(Table table) {
    return in(branch.ancestry(table));
  }

  /**
   * The sink's newest commit in {@code ancestry} (newest first). A snapshot's ancestry never
   * changes, so the answer for the snapshot a walk started from holds for good: the next walk stops
   * there, and costs only the snapshots committed since, however far back the sink's commit is.
   */
  private Committed in(Iterable<Snapshot> ancestry) {
    Walked known = lastWalk;
    Long start = null;
    Walked found = null;
    Snapshot oldest = null;
    for (Snapshot snapshot : ancestry) {
      if (start == null) {
        start = snapshot.snapshotId();
      }
      if (known != null && known.fromSnapshotId() == snapshot.snapshotId()) {
        found = known;
        break;
      }
      Map<String, String> summary = snapshot.summary();
      if (summary != null && ownedBy(summary.get(SCOPE_KEY)) && summary.containsKey(POSITIONS_KEY)) {
        found = new Walked(snapshot.snapshotId(), snapshot.snapshotId(), summary.get(POSITIONS_KEY), null);
        break;
      }
      oldest = snapshot;
    }
    if (found == null) {
      // The whole ancestry walked: it ends at the first snapshot, or at one whose parent was expired.
      Long cutAt = oldest != null && oldest.parentId() != null ? oldest.snapshotId() : null;
      found = new Walked(start == null ? Long.MIN_VALUE : start, null, null, cutAt);
    }
    if (start != null) {
      lastWalk = new Walked(start, found.snapshotId(), found.positions(), found.historyCutAt());
    }
    return new Committed(found.snapshotId(), found.positions() == null ? new Positions() : Positions.decode(found.positions()),
        found.historyCutAt());
  }

  /**
   * What a walk from {@code fromSnapshotId} found: the sink's newest commit and its encoded
   * positions, or nulls and where the history was cut, if it was.
   */
  private record Walked(long fromSnapshotId, Long snapshotId, String positions, Long historyCutAt) {}

  /**
   * The summary entries recording {@code batch} on top of what the table holds now, and the
   * validator that refuses them once another commit of the sink landed first. A source whose
   * identity in {@code batch} differs from the recorded one starts over: it was recreated.
   *
   * @throws PositionsOverlapException when the sink already committed a position of {@code batch}
   */
  Recording record(Table table, Positions batch) {
    Committed base = committed(table);
    Positions all = base.positions();
    for (String source : batch.sources()) {
      String recorded = all.identityOf(source);
      String current = batch.identityOf(source);
      if (recorded != null && current != null && !recorded.equals(current)) {
        all.forget(source);
      }
    }
    SourcePosition shared = all.firstShared(batch);
    if (shared != null) {
      throw new PositionsOverlapException(table.name(), shared);
    }
    all.addAll(batch);
    return new Recording(Map.of(POSITIONS_KEY, all.encode(), SCOPE_KEY, scope), new PositionsUnchanged(base.snapshotId()));
  }

  /** A commit's summary entries and its validator. */
  record Recording(Map<String, String> summary, PositionsUnchanged validator) {}

  /** Refuses a base whose newest commit of the sink is not the one the positions were computed on. */
  final class PositionsUnchanged implements SnapshotAncestryValidator {
    private final Long expectedSnapshotId;
    private volatile boolean refused;

    PositionsUnchanged(Long expectedSnapshotId) {
      this.expectedSnapshotId = expectedSnapshotId;
    }

    @Override
    public boolean validate(Iterable<Snapshot> baseSnapshots) {
      refused = !Objects.equals(expectedSnapshotId, in(baseSnapshots).snapshotId());
      return !refused;
    }

    /** Whether another commit of the sink landed since the positions were computed. */
    boolean refused() {
      return refused;
    }

    @Override
    public String errorMessage() {
      return "another commit of sink " + scope + " recorded source positions since this one computed its own";
    }
  }

  /** A batch holding a source position the sink already committed: two tasks owned one partition. */
  public static final class PositionsOverlapException extends IllegalStateException {
    PositionsOverlapException(String table, SourcePosition shared) {
      super("Refusing to commit a batch to " + table + ": it holds " + shared.source() + " partition " + shared.partition()
          + " offset " + shared.offset() + ", which the sink already committed (two tasks wrote that partition, as"
          + " during a rebalance); its tuples replay and the committed ones are skipped");
    }
  }
}
