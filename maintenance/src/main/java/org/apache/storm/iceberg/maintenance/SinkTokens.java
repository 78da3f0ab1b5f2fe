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

package org.apache.storm.iceberg.maintenance;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.storm.iceberg.spi.SinkSnapshotKeys;

/**
 * The snapshots a sink still needs, found in the table alone. A sink resumes by walking its branch
 * back from the head to its token: the newest snapshot holding its source positions, the newest of
 * each Trident state partition, and the snapshot of any commit a pending write-ahead-log entry may
 * still have to settle against (found by its commit id). Every snapshot on that walk must stay, not
 * only the token: Iceberg's ancestry ends at the first expired parent, so an expired snapshot in
 * between hides the token as surely as expiring it.
 *
 * <p>So the guard of a branch is the chain from its head down to its deepest token, and what it
 * asks of an expiry is a cutoff no later than the chain's earliest timestamp (timestamps along an
 * ancestry need not fall monotonically; writers' clocks differ).
 *
 * <p>A sink is named by the first segment of its scope, its WAL namespace: a topology renamed under
 * the same namespace is the same sink, and its older scopes ({@code <namespace>/<topology>}) are
 * carried forward by its newer tokens. A sink named in {@code retired} is no longer guarded.
 */
public final class SinkTokens {
  private SinkTokens() {}

  /**
   * A snapshot some sink needs.
   *
   * @param kind what it holds: "source positions", "Trident transaction" or "pending WAL entry"
   * @param owner whose it is: the sink's WAL namespace, the Trident state and partition, or the commit id
   */
  public record Token(String kind, String owner, long snapshotId, long timestampMillis) {
    @Override
    public String toString() {
      return kind + " of " + owner + " in snapshot " + snapshotId;
    }
  }

  /**
   * What a branch asks of an expiry.
   *
   * @param deepest the oldest token on the branch, whose chain to the head must stay
   * @param earliestTimestampMillis the earliest timestamp of that chain: an expiry's cutoff must not be later
   */
  public record Guard(String branch, Token deepest, long earliestTimestampMillis) {}

  /**
   * The guard of every branch holding a token, in the table as loaded; the caller refreshes it.
   *
   * @param pendingCommitIds the commit ids of every WAL entry not yet settled, of any sink of the table
   * @param retired the WAL namespaces (or Trident state names) no longer to guard
   */
  public static List<Guard> guards(Table table, Set<String> pendingCommitIds, Set<String> retired) {
    List<Guard> guards = new ArrayList<>();
    for (Map.Entry<String, SnapshotRef> ref : table.refs().entrySet()) {
      if (ref.getValue().isBranch()) {
        Guard guard = guard(table, ref.getKey(), ref.getValue().snapshotId(), pendingCommitIds, retired);
        if (guard != null) {
          guards.add(guard);
        }
      }
    }
    return guards;
  }

  private static Guard guard(Table table, String branch, long head, Set<String> pendingCommitIds, Set<String> retired) {
    Set<String> seen = new HashSet<>();
    long chainEarliest = Long.MAX_VALUE;
    Guard guard = null;
    for (Snapshot snapshot : SnapshotUtil.ancestorsOf(head, table::snapshot)) {
      chainEarliest = Math.min(chainEarliest, snapshot.timestampMillis());
      Token token = tokenIn(snapshot, seen, pendingCommitIds, retired);
      if (token != null) {
        guard = new Guard(branch, token, chainEarliest);
      }
    }
    return guard;
  }

  /** The token {@code snapshot} is, if it is the newest of its kind and owner seen so far on the walk. */
  private static Token tokenIn(Snapshot snapshot, Set<String> seen, Set<String> pendingCommitIds, Set<String> retired) {
    Map<String, String> summary = snapshot.summary();
    if (summary == null) {
      return null;
    }
    Token found = null;
    String commitId = summary.get(SinkSnapshotKeys.COMMIT_ID);
    if (commitId != null && pendingCommitIds.contains(commitId)) {
      found = token(snapshot, "pending WAL entry", commitId);
    }
    String scope = summary.get(SinkSnapshotKeys.POSITIONS_SCOPE);
    if (scope != null && summary.containsKey(SinkSnapshotKeys.SOURCE_POSITIONS)) {
      String sink = namespaceOf(scope);
      if (!retired.contains(sink) && seen.add("positions " + sink)) {
        found = token(snapshot, "source positions", sink);
      }
    }
    String state = summary.get(SinkSnapshotKeys.TRIDENT_STATE);
    String partition = summary.get(SinkSnapshotKeys.TRIDENT_PARTITION);
    if (state != null && partition != null) {
      String owner = state + " partition " + partition;
      if (!retired.contains(state) && !retired.contains(namespaceOf(state)) && seen.add("trident " + owner)) {
        found = token(snapshot, "Trident transaction", owner);
      }
    }
    return found;
  }

  private static Token token(Snapshot snapshot, String kind, String owner) {
    return new Token(kind, owner, snapshot.snapshotId(), snapshot.timestampMillis());
  }

  private static String namespaceOf(String scope) {
    int slash = scope.indexOf('/');
    return slash < 0 ? scope : scope.substring(0, slash);
  }
}
