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

import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.SteppedCommitThread;
import org.apache.storm.tuple.Tuple;

/**
 * One random fault schedule against IcebergBolt's task. At every step it sends an event, ticks,
 * crashes the task, arms a fault, or lets the task's commit thread (a {@link SteppedCommitThread},
 * bounded by a random max-pending-commits of 1 to 3) run some of the commits waiting for it; the
 * executor settles them all at its next call, so several batches may be acked (or failed) in one
 * step. A crashed task's held tuples time out and replay, and a new incarnation starts on the same
 * WAL. A crash may come after some commits ran and before the executor settled them: the task
 * either stops in order (settling them) or is killed (acking nothing more).
 *
 * <p>The schedule tells the batches apart as a spout could not: a tuple belongs to the batch the
 * task hands over next after writing it (the commit thread counts the handoffs), and whether a
 * commit left its WAL entry unsettled is read around that commit's own run.
 *
 * <p>With a dead-letter stream, the stream's consumer fails a third of the dead letters it gets
 * (at random): the spout sees such a poison tuple failed and replays it; it sees one acked only
 * when the sink acked it and the consumer accepted its dead letter.
 */
final class BoltSchedule {
  private final Schedule schedule;
  private final IcebergOptions options;
  private final RecordingCollector recorder = new RecordingCollector();
  // Insertion order, not Tuple hash order (identity hashes differ per run): one seed, one schedule.
  private final Map<Tuple, Long> inFlight = new LinkedHashMap<>();
  /** Whether the consumer accepted each poison tuple's dead letter, until the tuple is settled. */
  private final Map<Tuple, Boolean> letterAccepted = new java.util.IdentityHashMap<>();
  private SinkTask sink;
  private SteppedCommitThread commitThread;
  /** Which of this incarnation's batches (by handoff index) each tuple in flight was written into. */
  private final Map<Tuple, Integer> batchOf = new java.util.IdentityHashMap<>();
  /** Whether each of this incarnation's commits that ran left its WAL entry unsettled (by handoff index). */
  private final Map<Integer, Boolean> commitUnsettled = new java.util.HashMap<>();

  BoltSchedule(Schedule schedule) {
    this.schedule = schedule;
    this.options = schedule.options()
        .withCommitIntervalRecords(2 + schedule.random.nextInt(8))
        .withCommitIntervalMillis(1_000)
        .withMaxPendingCommits(1 + schedule.random.nextInt(3))
        .build();
  }

  void run() {
    sink = open();
    while (schedule.unfinished()) {
      schedule.step();
      int acksBefore = recorder.acked.size();
      int failsBefore = recorder.failed.size();
      int emitsBefore = recorder.emitted.size();
      Set<String> walBefore = schedule.walEntries();
      boolean alive = act(schedule.random.nextInt(100));
      consumeDeadLetters(emitsBefore);
      if (!alive) {
        crash(acksBefore);
        continue;
      }
      recordAcks(acksBefore);
      // A tuple failed with its batch's commit is judged by that commit; one failed before its batch
      // committed (unmappable, a broken or unsealable batch) by what this step left unsettled.
      boolean stepUnsettled = schedule.unsettledSince(walBefore);
      for (Tuple tuple : recorder.failed.subList(failsBefore, recorder.failed.size())) {
        Long id = inFlight.remove(tuple);
        Integer batch = batchOf.remove(tuple);
        if (id != null) {
          boolean unsettled = batch != null && commitUnsettled.containsKey(batch) ? commitUnsettled.get(batch) : stepUnsettled;
          schedule.replay(id, Schedule.attempt(tuple), unsettled);
        }
      }
    }
    schedule.faults.clear();
    schedule.faults.late.applyWaitingNow();
    int acksBefore = recorder.acked.size();
    sink.close(); // settles a commit that ran; never starts the rest
    recordAcks(acksBefore);
    // A last incarnation starts and settles whatever a crashed or unsettled one left.
    open().close();
  }

  /** Does what {@code roll} says; false if the task died. */
  private boolean act(int roll) {
    if (roll < 8 && !schedule.catalogDown()) {
      schedule.armRandomFault(List.of(recorder));
      return true;
    }
    if (roll < 10 && !schedule.catalogDown()) {
      return false;
    }
    if (roll < 20 && commitThread.queued() > 0) {
      // The commit thread runs some of the commits waiting; the executor settles them at its next call.
      runCommits(1 + schedule.random.nextInt(commitThread.queued()));
      return true;
    }
    try {
      if (roll < 25 || schedule.nothingToSend()) {
        sink.execute(schedule.tick());
      } else {
        Tuple event = schedule.nextEvent();
        inFlight.put(event, Schedule.id(event));
        // Written into the open batch, which is the next one handed over (even when this call seals it).
        batchOf.put(event, commitThread.handedOver());
        sink.execute(event);
      }
      return true;
    } catch (RecordingCollector.WorkerDied e) {
      return false;
    }
  }

  /** The task dies: whatever it holds times out at the spout and replays; a new incarnation starts. */
  private void crash(int acksBefore) {
    // Commits that ran, unsettled, when the task goes down.
    runCommits(schedule.random.nextInt(commitThread.queued() + 1));
    if (schedule.random.nextInt(3) == 0) {
      sink.abandon(); // killed: whatever the commit thread did, nothing more is acked
    } else {
      sink.close(); // stopped: a commit that ended is settled, one not started never starts
    }
    recordAcks(acksBefore);
    inFlight.forEach((tuple, id) -> {
      schedule.replay(id, Schedule.attempt(tuple), true);
      if (schedule.poison.contains(id)) {
        schedule.poisonTimedOut.add(id);
      }
    });
    inFlight.clear();
    batchOf.clear();
    letterAccepted.clear();
    // A worker that died while the catalog is down (at an ack of a commit that ran before) restarts
    // once it is back: until then its task cannot open the table.
    while (schedule.catalogDown()) {
      schedule.step();
    }
    sink = open();
    schedule.crashes++;
  }

  private void runCommits(int count) {
    for (int i = 0; i < count; i++) {
      commitThread.runNext();
    }
  }

  /**
   * The acks of one step are whole batches (a task acks a whole batch at once), or one poison tuple
   * acked after its dead letter: the spout sees it acked if the consumer accepted the dead letter,
   * failed (and replays it) if not.
   */
  private void recordAcks(int acksBefore) {
    Map<Integer, List<Long>> batches = new java.util.TreeMap<>();
    for (Tuple tuple : recorder.acked.subList(acksBefore, recorder.acked.size())) {
      Long id = inFlight.remove(tuple);
      Boolean accepted = letterAccepted.remove(tuple);
      Integer batch = batchOf.remove(tuple);
      if (id == null) {
        continue;
      }
      if (accepted == null) {
        batches.computeIfAbsent(batch == null ? -1 : batch, b -> new ArrayList<>()).add(id);
      } else if (accepted) {
        schedule.poisonAcked(id);
      } else {
        schedule.replay(id, Schedule.attempt(tuple), false);
      }
    }
    batches.values().forEach(schedule::acked);
    if (batches.size() > 1) {
      schedule.batchesSettledTogether++;
    }
  }

  /** The dead-letter stream's consumer gets this step's dead letters: it accepts two in three. */
  private void consumeDeadLetters(int emitsBefore) {
    for (RecordingCollector.Emitted letter : recorder.emitted.subList(emitsBefore, recorder.emitted.size())) {
      if (!letter.stream().equals(Schedule.DEAD_LETTER_STREAM)) {
        throw new AssertionError("schedule " + schedule.seed + ": the bolt emitted on " + letter.stream());
      }
      Tuple tuple = letter.anchors().get(0);
      long id = Schedule.id(tuple);
      if (!schedule.poison.contains(id) || letter.anchors().size() != 1) {
        throw new AssertionError("schedule " + schedule.seed + ": a dead letter for id " + id + " anchored to " + letter.anchors());
      }
      boolean accepted = schedule.random.nextInt(3) != 0;
      if (accepted) {
        schedule.deadLetterAccepted(id);
      }
      letterAccepted.put(tuple, accepted);
    }
  }

  private SinkTask open() {
    commitUnsettled.clear();
    commitThread = new SteppedCommitThread(new SteppedCommitThread.Observer() {
      private Set<String> walBefore;

      @Override
      public void before(int commit) {
        walBefore = schedule.walEntries();
      }

      @Override
      public void after(int commit) {
        commitUnsettled.put(commit, schedule.unsettledSince(walBefore));
      }
    });
    return SinkTasks.open(settings(options), SinkTaskTest.TASK, recorder.collector(), schedule.clock::get, commitThread);
  }
}
