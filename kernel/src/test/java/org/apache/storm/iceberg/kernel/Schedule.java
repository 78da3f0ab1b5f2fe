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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.MemoryWalStoreFactory;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;

/**
 * What one random fault schedule shares, whichever sink it drives: its seed's random choices, a real
 * (in-memory) catalog wrapped with {@link FaultInjectingCatalog}, the table, a clock, and the model
 * of a spout that replays whatever is failed or times out.
 *
 * <p>The spout model keeps what the checks need: which ids were acked, in which batches, and which
 * attempts must never be in the table. It knows nothing of which errors the sink deems ambiguous:
 * it sees only what a spout and an operator see. An attempt whose tuple timed out (its task died)
 * may have landed. An attempt the sink failed may have landed only if the sink declared its commit
 * unsettled, which it does by leaving that commit's WAL entry in place, never asking to delete it
 * (see {@link #unsettledSince}); every other attempt the sink failed it declared not applied, and
 * must not be in the table.
 */
final class Schedule {
  static final Faults.CommitFault[] COMMIT_FAULTS = {
    Faults.CommitFault.FAIL_BEFORE, Faults.CommitFault.UNKNOWN_AFTER, Faults.CommitFault.UNKNOWN_NOT_APPLIED,
    Faults.CommitFault.UNKNOWN_LANDS_LATE, Faults.CommitFault.UNKNOWN_STALE_AFTER_RETRY, Faults.CommitFault.UNREACHABLE,
    Faults.CommitFault.ERROR_APPLIED_LATE
  };
  private static final String[] REGIONS = {"eu", "us", "apac"};

  final long seed;
  final Random random;
  final String key;
  final Faults faults;
  final Map<String, String> catalogProperties;
  final Table table;
  final AtomicLong clock = new AtomicLong(1_000_000);
  final int idCount;
  final Set<Long> acked = new HashSet<>();
  final Set<Long> replayed = new HashSet<>();
  /** Attempts (payloads) the sink failed without declaring their commit unsettled: none may be in the table. */
  final Set<String> mustNotLand = new HashSet<>();
  private final Map<Long, Integer> sends = new HashMap<>();
  final List<Set<Long>> ackedBatches = new ArrayList<>();
  private final Deque<Long> toSend = new ArrayDeque<>();
  /** Whether the sink has a dead-letter stream; then some ids are poison (see {@link #nextEvent}). */
  final boolean deadLetters;
  /** Ids whose every tuple the mapper refuses: dead-lettered, never in the table. */
  final Set<Long> poison = new HashSet<>();
  /** How many of each poison id's dead letters the stream's consumer accepted. */
  final Map<Long, Integer> deadLettersAccepted = new HashMap<>();
  /** Poison ids a tuple of which timed out (its task died): only they may have more than one dead letter accepted. */
  final Set<Long> poisonTimedOut = new HashSet<>();
  private final Tuples events = new Tuples(TestTables.FIELDS);
  private int downFor;
  int faultsArmed;
  /** Steps in which the sink acked more than one batch: commits that ran between two of its calls. */
  int batchesSettledTogether;
  int crashes;
  int steps;

  Schedule(long seed, String key, Faults faults, Map<String, String> catalogProperties) {
    this(seed, key, faults, catalogProperties, false);
  }

  /** A schedule whose sink has a dead-letter stream when {@code deadLetters}: about a fifth of its ids are poison. */
  Schedule(long seed, String key, Faults faults, Map<String, String> catalogProperties, boolean deadLetters) {
    this.seed = seed;
    this.random = new Random(seed);
    this.key = key;
    this.faults = faults;
    this.catalogProperties = catalogProperties;
    Catalog catalog = CatalogUtil.buildIcebergCatalog("test", catalogProperties, new org.apache.hadoop.conf.Configuration());
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    PartitionSpec spec = random.nextBoolean() ? PartitionSpec.unpartitioned() : TestTables.REGION_DAY;
    this.table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, spec,
        Map.of(TableProperties.COMMIT_NUM_RETRIES, "1", TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "1",
            TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "2", TableProperties.MANIFEST_MERGE_ENABLED, "false",
            TableProperties.METADATA_COMPRESSION, "none"));
    this.idCount = 10 + random.nextInt(25);
    for (long id = 0; id < idCount; id++) {
      toSend.add(id);
    }
    this.deadLetters = deadLetters;
    if (deadLetters) {
      for (long id = 0; id < idCount; id++) {
        if (random.nextInt(5) == 0) {
          poison.add(id);
        }
      }
    }
  }

  static final String DEAD_LETTER_STREAM = "dead-letters";

  /**
   * Options every task of the schedule shares: the faulty catalog, the table, the test WAL store, few
   * retries, and the dead-letter stream when the schedule has one.
   */
  IcebergOptions.Builder options() {
    IcebergOptions.Builder builder = new IcebergOptions.Builder()
        .withCatalogName("test").withCatalogProperties(catalogProperties).withTable("db.events")
        .withWalStore("test-memory", Map.of("space", key, "fault-key", faults.key))
        .withCommitRetries(2).withCommitRetryBackoffMillis(0);
    return deadLetters ? builder.withDeadLetterStream(DEAD_LETTER_STREAM) : builder;
  }

  boolean unfinished() {
    return acked.size() < idCount && steps < 20_000;
  }

  /** Starts a step: counts it and brings the catalog back once its down time is over. */
  void step() {
    steps++;
    if (downFor > 0 && --downFor == 0) {
      faults.clear();
    }
  }

  boolean catalogDown() {
    return downFor > 0;
  }

  boolean nothingToSend() {
    return toSend.isEmpty();
  }

  /**
   * The next event the spout sends (a replay first), as a new Tuple: a new attempt of its id, whose
   * payload names it ({@code p<id>#<attempt>}) so the checks can tell its row from a replay's. A
   * poison id's region is a number, which the mapper refuses for the string column.
   */
  Tuple nextEvent() {
    long id = toSend.poll();
    int attempt = sends.merge(id, 1, Integer::sum);
    return events.tuple(id, poison.contains(id) ? (Object) 42 : REGIONS[(int) (id % REGIONS.length)],
        Instant.ofEpochSecond(1_793_534_400L + 86_400L * (id % 3)), "p" + id + "#" + attempt);
  }

  static long id(Tuple event) {
    return event.getLongByField("id");
  }

  static String attempt(Tuple event) {
    return event.getStringByField("payload");
  }

  Tuple tick() {
    clock.addAndGet(random.nextInt(1_500));
    return events.tick();
  }

  /**
   * The spout sees {@code attempt} of {@code id} fail or time out and sends the id again. Unless
   * {@code mayHaveLanded} (its tuple timed out, or the sink failed it with its commit unsettled), the
   * failed attempt must never land: the sink said it was not applied.
   */
  void replay(long id, String attempt, boolean mayHaveLanded) {
    toSend.add(id);
    replayed.add(id);
    if (!mayHaveLanded) {
      mustNotLand.add(attempt);
    }
  }

  /** The WAL entries there are now: taken before a step, for {@link #unsettledSince}. */
  Set<String> walEntries() {
    return Set.copyOf(MemoryWalStoreFactory.entries(key).keySet());
  }

  /**
   * Whether a commit made since {@code before} was left unsettled: its WAL entry is there and no
   * task ever asked to delete it. That is how the sink declares "this commit may still land"; it
   * deletes the entry of every commit it settled, landed or not, whether or not the delete succeeds.
   */
  boolean unsettledSince(Set<String> before) {
    Set<String> deleteAsked = MemoryWalStoreFactory.deletesAsked(key);
    return MemoryWalStoreFactory.entries(key).keySet().stream()
        .anyMatch(entry -> !before.contains(entry) && !deleteAsked.contains(entry));
  }

  /** The consumer of the dead-letter stream accepted a dead letter of poison {@code id}. */
  void deadLetterAccepted(long id) {
    deadLettersAccepted.merge(id, 1, Integer::sum);
  }

  /** The spout sees poison {@code id} acked: its dead letter and its tuple both were. */
  void poisonAcked(long id) {
    acked.add(id);
  }

  /** The spout sees these ids acked together: one batch, which must be whole in one snapshot. */
  void acked(Collection<Long> ids) {
    if (!ids.isEmpty()) {
      acked.addAll(ids);
      ackedBatches.add(Set.copyOf(ids));
    }
  }

  /** Arms {@code fault} for the next one or two commits (and the catalog down for a while, if UNREACHABLE). */
  void armCommitFault(Faults.CommitFault fault) {
    faults.inject(fault, 1 + random.nextInt(2));
    downFor = fault == Faults.CommitFault.UNREACHABLE ? 1 + random.nextInt(6) : 0;
    // Applied late at a catalog call drawn from the seed, not on a timer: one seed, one schedule.
    faults.late.afterCalls = 1 + random.nextInt(8);
  }

  /**
   * Arms one fault at a named point: a data file that cannot be written or closed; a WAL entry that
   * cannot be written (before or after its bytes land) or deleted; a commit rejected, answered with
   * a lost answer after or without applying, applied late, or followed by its stale first attempt,
   * or answered with a generic error and applied late (at one of the next catalog calls);
   * the catalog down for a while; or one of {@code collectors}' workers dying before its next ack.
   */
  void armRandomFault(List<RecordingCollector> collectors) {
    faultsArmed++;
    int point = random.nextInt(COMMIT_FAULTS.length + 6);
    if (point < COMMIT_FAULTS.length) {
      armCommitFault(COMMIT_FAULTS[point]);
      return;
    }
    switch (point - COMMIT_FAULTS.length) {
      case 0 -> faults.dataFileWriteFailures.incrementAndGet();
      case 1 -> faults.dataFileCloseFailures.incrementAndGet();
      case 2 -> faults.walWriteFailuresBefore.incrementAndGet();
      case 3 -> faults.walWriteFailuresAfter.incrementAndGet();
      case 4 -> faults.walDeleteFailures.incrementAndGet();
      default -> collectors.get(random.nextInt(collectors.size())).dieOnNextAck.set(true);
    }
  }
}
