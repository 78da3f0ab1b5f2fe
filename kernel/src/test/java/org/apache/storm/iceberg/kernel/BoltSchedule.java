package org.apache.storm.iceberg.kernel;

import org.apache.storm.iceberg.kernel.task.SinkTask;
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
 * bounded by a random max-pending-commits) run its oldest commit; a crashed task's held tuples time
 * out and replay, and a new incarnation starts on the same WAL. A crash may come while a commit is in
 * flight: it lands (or not) and the task either stops in order (settling it) or dies before acking.
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
  /**
   * The WAL entries there were before the first commit that ran since the executor's last call: a
   * commit run by the commit thread is settled at the executor's next call, so the step that settles
   * it must judge "unsettled" from before it ran.
   */
  private Set<String> walBeforeUnsettledRun;

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
      Set<String> walBefore = walBeforeUnsettledRun != null ? walBeforeUnsettledRun : schedule.walEntries();
      boolean alive = act(schedule.random.nextInt(100));
      consumeDeadLetters(emitsBefore);
      if (!alive) {
        crash(acksBefore);
        continue;
      }
      recordAcks(acksBefore);
      // One task commits at most one batch a step: the tuples it failed are that batch's, or tuples
      // failed before any commit.
      boolean unsettled = schedule.unsettledSince(walBefore);
      for (Tuple tuple : recorder.failed.subList(failsBefore, recorder.failed.size())) {
        Long id = inFlight.remove(tuple);
        if (id != null) {
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
    if (roll < 20 && walBeforeUnsettledRun == null && commitThread.queued() > 0) {
      // The commit thread runs one commit; the executor settles it at its next call. (One at a time,
      // so that a step settles at most one batch: the schedule reads a step's acks as one batch.)
      walBeforeUnsettledRun = schedule.walEntries();
      commitThread.runNext();
      return true;
    }
    try {
      if (roll < 25 || schedule.nothingToSend()) {
        sink.execute(schedule.tick());
      } else {
        Tuple event = schedule.nextEvent();
        inFlight.put(event, Schedule.id(event));
        sink.execute(event);
      }
      walBeforeUnsettledRun = null;
      return true;
    } catch (RecordingCollector.WorkerDied e) {
      return false;
    }
  }

  /** The task dies: whatever it holds times out at the spout and replays; a new incarnation starts. */
  private void crash(int acksBefore) {
    if (commitThread.queued() > 0 && walBeforeUnsettledRun == null && schedule.random.nextBoolean()) {
      commitThread.runNext(); // a commit in flight when the task goes down
    }
    if (schedule.random.nextInt(3) == 0) {
      sink.abandon(); // killed: whatever the commit thread did, nothing more is acked
    } else {
      sink.close(); // stopped: a commit that ended is settled, one not started never starts
    }
    walBeforeUnsettledRun = null;
    recordAcks(acksBefore);
    inFlight.forEach((tuple, id) -> {
      schedule.replay(id, Schedule.attempt(tuple), true);
      if (schedule.poison.contains(id)) {
        schedule.poisonTimedOut.add(id);
      }
    });
    inFlight.clear();
    letterAccepted.clear();
    sink = open();
    schedule.crashes++;
  }

  /**
   * The acks of one step are one batch (a task acks a whole batch at once), or one poison tuple
   * acked after its dead letter: the spout sees it acked if the consumer accepted the dead letter,
   * failed (and replays it) if not.
   */
  private void recordAcks(int acksBefore) {
    List<Long> batch = new ArrayList<>();
    for (Tuple tuple : recorder.acked.subList(acksBefore, recorder.acked.size())) {
      Long id = inFlight.remove(tuple);
      Boolean accepted = letterAccepted.remove(tuple);
      if (id == null) {
        continue;
      }
      if (accepted == null) {
        batch.add(id);
      } else if (accepted) {
        schedule.poisonAcked(id);
      } else {
        schedule.replay(id, Schedule.attempt(tuple), false);
      }
    }
    schedule.acked(batch);
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
    commitThread = new SteppedCommitThread();
    return SinkTask.open(settings(options), SinkTaskTest.TASK, recorder.collector(), schedule.clock::get, commitThread);
  }
}
