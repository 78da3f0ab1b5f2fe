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

package org.apache.storm.iceberg.testing;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The faults a {@link FaultInjectingCatalog} injects, looked up by the key in its catalog properties
 * so a test (or a LocalCluster topology in the same JVM) and the catalogs its bolts build share them.
 */
public final class Faults {
  private static final Map<String, Faults> REGISTRY = new ConcurrentHashMap<>();

  /** What the next commits do. */
  public enum CommitFault {
    NONE,
    /** Throw CommitFailedException without committing. */
    FAIL_BEFORE,
    /** Commit for real, then throw CommitStateUnknownException. */
    UNKNOWN_AFTER,
    /** Throw CommitStateUnknownException without committing: the answer was lost, nothing applied. */
    UNKNOWN_NOT_APPLIED,
    /**
     * Throw CommitStateUnknownException without committing, then apply the commit at the second
     * refresh after it: after the sink's first look, before its retry (a gateway's late apply).
     */
    UNKNOWN_LANDS_LATE,
    /**
     * Throw CommitStateUnknownException without committing, then try to apply that first attempt
     * right after the next commit that lands (the sink's retry): a stale request arriving late.
     */
    UNKNOWN_STALE_AFTER_RETRY,
    /**
     * Throw a generic error without committing (a read timeout or a gateway's 524, see {@link
     * LateCommits.Answer}), then apply the very same commit later (see {@link LateCommits}): a
     * server that got the request and answers late.
     */
    ERROR_APPLIED_LATE,
    /** The commit finds the catalog down: it, and every refresh and load after it, throw until {@link #clear()}. */
    UNREACHABLE
  }

  public final String key = UUID.randomUUID().toString();
  /** The armed commit fault and how many commits it still hits, swapped as one: commits may race. */
  private final AtomicReference<ArmedFault> armed = new AtomicReference<>(ArmedFault.NONE);
  private volatile boolean down;
  /** When set, injected commit faults hit only the table of this name ({@code db.events}); other tables commit. */
  public volatile String onlyTable;
  /** When set, tables' FileIO hides its prefix listing, like a custom FileIO that cannot list. */
  public volatile boolean hidePrefixListing;
  /** Runs inside every commit, before it reaches the catalog: to look at the sink mid-commit. */
  public volatile Runnable duringCommit = () -> {};
  /** Runs inside every commit after {@link #duringCommit}, told the table's name ({@code db.events}): to slow one table. */
  public volatile java.util.function.Consumer<String> duringTableCommit = table -> {};
  /** Runs after a commit {@link CommitFault#UNKNOWN_AFTER} applied, before its lost answer is thrown. */
  public volatile Runnable afterAppliedCommit = () -> {};
  /**
   * Runs right after a commit landed in the catalog, on the committing thread, with the metadata it
   * made current and outside the table's lock: to act between a commit and what the sink does next.
   */
  public volatile java.util.function.Consumer<org.apache.iceberg.TableMetadata> afterCommitLanded = metadata -> {};
  /** The properties the catalog received at initialize, as the task built it (references resolved). */
  public volatile Map<String, String> catalogProperties = Map.of();
  /** How many catalogs built with these faults were closed (a task's cleanup closes its catalog). */
  public final AtomicInteger catalogsClosed = new AtomicInteger();
  /** How many catalogs built with these faults were initialized (a task opening a table builds one). */
  public final AtomicInteger catalogsOpened = new AtomicInteger();
  /** When set, closing a catalog built with these faults throws it (after counting the close). */
  public volatile RuntimeException closeFailure;
  /** When set, loading a table through a catalog built with these faults throws it. */
  public volatile RuntimeException loadFailure;
  public final AtomicInteger realCommits = new AtomicInteger();
  public final AtomicInteger injected = new AtomicInteger();
  /** The commits {@link CommitFault#ERROR_APPLIED_LATE} applies late, and when. */
  public final LateCommits late = new LateCommits(realCommits);
  /** Late first attempts a catalog refused because their base no longer matched. */
  public final AtomicInteger staleRejected = new AtomicInteger();
  /** Late first attempts that were applied after all: each one a duplicate. */
  public final AtomicInteger staleApplied = new AtomicInteger();
  /**
   * When false, the real FileIO's data files reach the writers unwrapped, and {@link
   * #dataFileWriteFailures} and {@link #dataFileCloseFailures} are never taken. For a test that
   * fails no data file: Parquet and ORC then get the Hadoop file a user's HadoopFileIO gives them and
   * copy its loaded Configuration, instead of parsing Hadoop's default XML for every file (a sixth
   * of a row-level model run's CPU).
   */
  public volatile boolean dataFileFaults = true;
  /** One-shot faults outside the commit: each count is how many times the point fails next. */
  public final AtomicInteger dataFileWriteFailures = new AtomicInteger();
  public final AtomicInteger dataFileCloseFailures = new AtomicInteger();
  public final AtomicInteger walWriteFailuresBefore = new AtomicInteger();
  public final AtomicInteger walWriteFailuresAfter = new AtomicInteger();
  public final AtomicInteger walDeleteFailures = new AtomicInteger();
  volatile Object[] pendingLate;
  volatile int refreshesUntilLanding;
  volatile Object[] pendingStale;

  public static Faults create() {
    Faults faults = new Faults();
    REGISTRY.put(faults.key, faults);
    return faults;
  }

  static Faults lookup(String key) {
    Faults faults = REGISTRY.get(key);
    if (faults == null) {
      throw new IllegalStateException("no faults registered under " + key);
    }
    return faults;
  }

  /** Injects {@code fault} into the next {@code times} commits (refreshes too, for UNREACHABLE). */
  public void inject(CommitFault fault, int times) {
    armed.set(times > 0 ? new ArmedFault(fault, times) : ArmedFault.NONE);
  }

  /** Whether the point armed by {@code count} fails now (counting it down). */
  public static boolean take(AtomicInteger count) {
    return count.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
  }

  /** Looks up the faults a catalog or store was configured with, by key. */
  public static Faults of(String key) {
    return lookup(key);
  }

  /** Takes the catalog down now: commits, refreshes and loads throw until {@link #clear()}. */
  public void takeDown() {
    down = true;
  }

  /** Brings the catalog back up, leaving every other armed fault in place. */
  public void bringUp() {
    down = false;
  }

  /** Removes every fault: the catalog is reachable and commits go through. */
  public void clear() {
    armed.set(ArmedFault.NONE);
    down = false;
    dataFileWriteFailures.set(0);
    dataFileCloseFailures.set(0);
    walWriteFailuresBefore.set(0);
    walWriteFailuresAfter.set(0);
    walDeleteFailures.set(0);
  }

  boolean unreachable() {
    return down;
  }

  /** The fault for this commit, counting it down; of two racing commits, only as many as armed get one. */
  CommitFault nextCommitFault() {
    ArmedFault taken = armed.getAndUpdate(ArmedFault::next);
    if (taken.fault == CommitFault.NONE) {
      return CommitFault.NONE;
    }
    injected.incrementAndGet();
    if (taken.fault == CommitFault.UNREACHABLE) {
      down = true;
    }
    return taken.fault;
  }

  private record ArmedFault(CommitFault fault, int left) {
    static final ArmedFault NONE = new ArmedFault(CommitFault.NONE, 0);

    ArmedFault next() {
      return left <= 1 ? NONE : new ArmedFault(fault, left - 1);
    }
  }
}
