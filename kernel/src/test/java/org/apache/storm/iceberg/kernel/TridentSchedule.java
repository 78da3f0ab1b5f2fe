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
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.kernel.commit.TransactionRegressionException;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.trident.TridentStages;
import org.apache.storm.topology.FailedException;
import org.apache.storm.trident.operation.Aggregator;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.state.State;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.trident.tuple.TridentTupleView;
import org.apache.storm.tuple.Fields;

/**
 * One random fault schedule against a Trident state, driven as Trident drives it ({@link
 * TridentCoordinator}): either the per-partition state ({@code IcebergStateFactory}, one to three
 * partitions fed by {@code partitionBy(id)}), or {@code IcebergTrident.persist} (one to three
 * writing partitions fed by a shuffle, and the one committing state). At every step it emits a
 * batch (the writing partitions write its files), runs the commit phase of the oldest batch in
 * flight, crashes a task, or arms a fault.
 *
 * <p>A commit phase calls, for every state partition the batch brings tuples, {@code
 * beginCommit(txid)}, the updater and {@code commit(txid)}; when one fails (a {@code
 * FailedException}), the batch replays, and the other partitions may or may not have run theirs.
 * A task may die before any of those calls, or after every partition committed but before the
 * coordinator recorded the commit: every batch in flight times out and replays, and the task
 * restarts (once the catalog lets it open). A state must answer every failure with a {@code
 * FailedException} (anything else kills the worker) and must never see a txid regression here.
 */
final class TridentSchedule {
  /** Which Trident sink a schedule drives. */
  enum Variant { PARTITIONS, WHOLE_STREAM }

  private static final String[] REGIONS = {"eu", "us", "apac"};
  private static final Fields EVENT_FIELDS = new Fields(TestTables.FIELDS);
  private static final int MAX_STEPS = 20_000;

  final Schedule schedule;
  final Variant variant;
  final StateType type;
  final TridentCoordinator coordinator;
  /** State partitions ({@link Variant#PARTITIONS}) or writing partitions ({@link Variant#WHOLE_STREAM}). */
  final int partitions;
  final TridentTopology topology;
  /** The writing partitions' descriptors of each processed batch in flight, by txid. */
  private final Map<Long, List<TridentTuple>> descriptors = new HashMap<>();
  private final Emitted emitted = new Emitted();
  /** The latest steps, for a violation's message: what led to it. */
  private final ArrayDeque<String> trace = new ArrayDeque<>();
  int failedBatches;
  /**
   * The txids and partitions whose commit phase a state began unsettled (since it opened, or since
   * a call of it failed): an opaque state may commit an empty batch there, to fence off an earlier
   * attempt that may still land.
   */
  final Set<TridentScheduleCheck.Part> fenceable = new HashSet<>();

  TridentSchedule(Schedule schedule, Variant variant, StateType type) {
    this.schedule = schedule;
    this.variant = variant;
    this.type = type;
    this.partitions = 1 + schedule.random.nextInt(3);
    int window = 1 + schedule.random.nextInt(3);
    this.coordinator = new TridentCoordinator(type, schedule.random, schedule.idCount, window,
        variant == Variant.PARTITIONS ? id -> id % partitions : null);
    this.topology = new TridentTopology(schedule, variant, type, partitions);
  }

  void run() {
    while (!coordinator.done()) {
      if (schedule.steps >= MAX_STEPS) {
        throw violation("did not finish in " + MAX_STEPS + " steps: " + coordinator.lastRecorded() + " txids recorded");
      }
      schedule.step();
      topology.step();
      boolean alive = openDeadTasks();
      int roll = schedule.random.nextInt(100);
      if (roll < 8 && !topology.catalogDown()) {
        trace("arm " + topology.armFault());
      } else if (roll < 11 && !topology.catalogDown()) {
        crash(schedule.random.nextInt(topology.tasks()));
      } else if (!alive) {
        // A task that cannot start holds up every batch in flight: they time out.
        trace("a task cannot start: batches time out");
        timeOutAll();
      } else if (coordinator.committable() == null || (roll < 45 && coordinator.canEmit())) {
        process(coordinator.emit());
      } else {
        commit(coordinator.committable());
      }
    }
    // Every late commit reaches the catalog now; one the coordinator moved past must not land.
    topology.healAll();
  }

  /** The processing phase: the writing partitions (if any) write the batch's tuples and describe their files. */
  private void process(TridentCoordinator.Batch batch) {
    trace("emit " + batch);
    if (variant == Variant.PARTITIONS) {
      return;
    }
    List<List<TridentCoordinator.Event>> byWriter = new ArrayList<>();
    for (int w = 0; w < topology.writers.length; w++) {
      byWriter.add(new ArrayList<>());
    }
    // A shuffle: a replay may send a tuple to another writer.
    batch.events().forEach(event -> byWriter.get(schedule.random.nextInt(topology.writers.length)).add(event));
    List<TridentTuple> described = new ArrayList<>();
    for (int w = 0; w < topology.writers.length; w++) {
      Aggregator<Object> writer = topology.writers[w];
      List<TridentCoordinator.Event> events = byWriter.get(w);
      boolean ok = call("writer " + w + " of txid " + batch.txid(), () -> {
        Object state = writer.init(batch.txid(), emitted);
        events.forEach(event -> writer.aggregate(state, tuple(event), emitted));
        writer.complete(state, emitted);
      });
      if (!ok) {
        emitted.clear();
        failBatch(batch.txid());
        return;
      }
      emitted.drain().forEach(values -> described.add(TridentTupleView.createFreshTuple(TridentStages.descriptorFields(), values)));
    }
    descriptors.put(batch.txid(), described);
  }

  /** The commit phase of the oldest batch in flight. */
  private void commit(TridentCoordinator.Batch batch) {
    coordinator.commitPhase();
    long txid = batch.txid();
    List<Integer> participants = new ArrayList<>();
    Map<Integer, List<TridentTuple>> input = new HashMap<>();
    if (variant == Variant.PARTITIONS) {
      for (TridentCoordinator.Event event : batch.events()) {
        input.computeIfAbsent((int) (event.id() % partitions), p -> new ArrayList<>()).add(tuple(event));
      }
      participants.addAll(input.keySet());
      Collections.shuffle(participants, schedule.random);
    } else {
      participants.add(0);
      input.put(0, descriptors.get(txid));
    }
    // A crash before one of the 3 calls of a participant or, as often as all those together, after
    // them all, before the coordinator records the commit.
    int points = 3 * participants.size();
    int crashAt = schedule.random.nextInt(100) >= 8 ? -1
        : points == 0 || schedule.random.nextBoolean() ? points : schedule.random.nextInt(points);
    trace("commit phase of txid " + txid + " attempt " + batch.attempt() + ", partitions " + participants);
    int point = 0;
    boolean failed = false;
    for (int p : participants) {
      if (failed && schedule.random.nextBoolean()) {
        continue;
      }
      State state = topology.states[p];
      List<TridentTuple> tuples = input.get(p);
      String who = "state partition " + p + " at txid " + txid;
      if (point++ == crashAt) {
        crash(p);
        return;
      }
      if (!topology.settled[p]) {
        fenceable.add(new TridentScheduleCheck.Part(variant == Variant.PARTITIONS ? Integer.toString(p) : "whole-stream", txid));
      }
      if (!call(who + " beginCommit", () -> state.beginCommit(txid))) {
        failed = true;
        topology.settled[p] = false;
        continue;
      }
      if (point++ == crashAt) {
        crash(p);
        return;
      }
      if (!call(who + " updateState", () -> topology.update(state, tuples, emitted))) {
        failed = true;
        topology.settled[p] = false;
        continue;
      }
      if (point++ == crashAt) {
        crash(p);
        return;
      }
      boolean committed = call(who + " commit", () -> state.commit(txid));
      topology.settled[p] = committed;
      failed |= !committed;
    }
    if (failed) {
      failBatch(txid);
    } else if (crashAt == 3 * participants.size()) {
      // Every partition committed; a task dies before the coordinator records it.
      crash(schedule.random.nextInt(topology.tasks()));
    } else {
      trace("recorded txid " + txid);
      coordinator.record();
      descriptors.remove(txid);
    }
  }

  /**
   * Runs one call into a Trident stage; false if it failed the batch. Anything but a {@code
   * FailedException} would kill the worker, and a txid regression cannot happen here.
   */
  private boolean call(String what, Runnable call) {
    try {
      call.run();
      return true;
    } catch (FailedException e) {
      trace(what + " failed: " + e.getMessage());
      if (causedByRegression(e)) {
        throw violation(what + " reported a txid regression, yet txids only went forward: " + e.getMessage());
      }
      return false;
    } catch (RuntimeException e) {
      throw violation(what + " threw " + e + ", not a FailedException: the worker would die", e);
    }
  }

  static boolean causedByRegression(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof TransactionRegressionException) {
        return true;
      }
    }
    return false;
  }

  private void failBatch(long txid) {
    trace("txid " + txid + " and later fail");
    failedBatches++;
    coordinator.fail(txid);
    descriptors.keySet().removeIf(t -> t >= txid);
  }

  private void timeOutAll() {
    coordinator.timeOutAll();
    descriptors.clear();
  }

  /** Task {@code task} (a state partition, then the writers) dies; every batch in flight times out. */
  private void crash(int task) {
    trace("task " + task + " dies");
    schedule.crashes++;
    topology.crash(task);
    timeOutAll();
  }

  /** Opens every dead task the catalog lets open; false while one cannot. */
  private boolean openDeadTasks() {
    try {
      return topology.openDeadTasks();
    } catch (RuntimeException e) {
      throw violation("a task could not start with the catalog up: " + e, e);
    }
  }

  static TridentTuple tuple(TridentCoordinator.Event event) {
    long id = event.id();
    return TridentTupleView.createFreshTuple(EVENT_FIELDS, id, REGIONS[(int) (id % REGIONS.length)],
        Instant.ofEpochSecond(1_793_534_400L + 86_400L * (id % 3)), event.payload());
  }

  AssertionError violation(String message) {
    return violation(message, null);
  }

  AssertionError violation(String message, Throwable cause) {
    return new AssertionError("trident schedule " + schedule.seed + " (" + variant + ", " + type + ", " + partitions
        + " partitions): " + message + "\n  after: " + String.join("\n    ", trace), cause);
  }

  private void trace(String step) {
    if (trace.size() == 60) {
      trace.poll();
    }
    trace.add(schedule.steps + ": " + step);
  }

  /** What the writing partitions emit in one call. */
  private static final class Emitted implements TridentCollector {
    private final List<List<Object>> values = new ArrayList<>();

    @Override
    public void emit(List<Object> tuple) {
      values.add(tuple);
    }

    @Override
    public void flush() {}

    @Override
    public void reportError(Throwable error) {}

    List<List<Object>> drain() {
      List<List<Object>> copy = List.copyOf(values);
      values.clear();
      return copy;
    }

    void clear() {
      values.clear();
    }
  }
}
