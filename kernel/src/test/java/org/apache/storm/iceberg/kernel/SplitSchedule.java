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
import org.apache.storm.iceberg.kernel.task.CommitterTask;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;

/**
 * One random fault schedule against the split pair: one to three IcebergWriterBolt tasks (events go
 * to writer {@code id % writers}, as a fieldsGrouping would) and one IcebergCommitterBolt task,
 * joined by a wire that carries the writers' descriptors to the committer. At every step it sends an
 * event, delivers a descriptor, ticks every task, crashes one task, loses a descriptor on the wire,
 * or arms a fault.
 *
 * <p>The spout model follows Storm's tuple trees: an event is acked at the spout only once its
 * writer has acked it <em>and</em> the committer has acked the descriptor anchored to it. It fails
 * (and replays) when either fails it, or times out when the task holding it dies or its descriptor
 * is lost. A crashed task restarts at the next step the catalog lets it open; until then, tuples
 * sent to it are lost and time out.
 */
final class SplitSchedule {
  /** One send of an id: one spout tuple tree. */
  private static final class Attempt {
    final long id;
    final String payload;
    final int writer;
    /** The writer acked the event: the tree now waits on the descriptor anchored to it, if any. */
    boolean writerAcked;
    /** A descriptor is anchored to the event; without one, the writer's ack alone completes the tree. */
    boolean anchored;
    /** Acked or failed at the spout; later acks or fails in the tree change nothing. */
    boolean over;

    Attempt(long id, String payload, int writer) {
      this.id = id;
      this.payload = payload;
      this.writer = writer;
    }
  }

  private final Schedule schedule;
  private final IcebergOptions writerOptions;
  private final IcebergOptions committerOptions;
  private final SinkTask[] writers;
  private final RecordingCollector[] writerOut;
  private final RecordingCollector committerOut = new RecordingCollector();
  private CommitterTask committer;
  private final Tuples descriptorTuples = Tuples.from("iceberg-writer", IcebergWriterBolt.DESCRIPTOR_FIELD);
  // Insertion order, not Tuple hash order (identity hashes differ per run): one seed, one schedule.
  private final Map<Tuple, Attempt> events = new LinkedHashMap<>();
  private final Map<Tuple, List<Attempt>> descriptors = new LinkedHashMap<>();
  private final List<Tuple> wire = new ArrayList<>();

  SplitSchedule(Schedule schedule) {
    this.schedule = schedule;
    this.writerOptions = schedule.options()
        .withCommitIntervalRecords(2 + schedule.random.nextInt(8))
        .withCommitIntervalMillis(1_000)
        .build();
    this.committerOptions = schedule.options()
        .withGroupCommitMaxDataFiles(1 + schedule.random.nextInt(6))
        .withGroupCommitIntervalMillis(schedule.random.nextInt(3_000))
        .build();
    int writerCount = 1 + schedule.random.nextInt(3);
    this.writers = new SinkTask[writerCount];
    this.writerOut = new RecordingCollector[writerCount];
    for (int i = 0; i < writerCount; i++) {
      writerOut[i] = new RecordingCollector();
    }
  }

  void run() {
    while (schedule.unfinished()) {
      schedule.step();
      restartDeadTasks();
      Set<String> walBefore = schedule.walEntries();
      int crashed = act(schedule.random.nextInt(100));
      harvest(schedule.unsettledSince(walBefore));
      if (crashed >= 0) {
        crash(crashed);
      }
    }
    schedule.faults.clear();
    schedule.faults.late.applyWaitingNow();
    restartDeadTasks();
    for (SinkTask writer : writers) {
      writer.close();
    }
    committer.close();
    // A last committer incarnation starts and settles whatever a crashed or unsettled one left.
    openCommitter().close();
  }

  /**
   * Does what {@code roll} says; returns the task that died (a writer's index, or {@code
   * writers.length} for the committer), or -1.
   */
  private int act(int roll) {
    if (roll < 8 && !schedule.catalogDown()) {
      List<RecordingCollector> collectors = new ArrayList<>(List.of(writerOut));
      collectors.add(committerOut);
      schedule.armRandomFault(collectors);
      return -1;
    }
    if (roll < 10 && !schedule.catalogDown()) {
      return schedule.random.nextInt(writers.length + 1);
    }
    if (roll < 12 && !wire.isEmpty()) {
      timeOut(descriptors.remove(wire.remove(schedule.random.nextInt(wire.size()))));
      return -1;
    }
    int task = -1;
    try {
      if (roll < 22 || (schedule.nothingToSend() && wire.isEmpty())) {
        Tuple tick = schedule.tick();
        for (task = 0; task < writers.length; task++) {
          if (writers[task] != null) {
            writers[task].execute(tick);
          }
        }
        if (committer != null) {
          committer.execute(tick);
        }
      } else if (!wire.isEmpty() && (roll < 45 || schedule.nothingToSend())) {
        task = writers.length;
        deliver(wire.remove(0));
      } else {
        Tuple event = schedule.nextEvent();
        task = (int) (Schedule.id(event) % writers.length);
        send(task, event);
      }
      return -1;
    } catch (RecordingCollector.WorkerDied e) {
      return task;
    }
  }

  private void send(int writer, Tuple event) {
    Attempt attempt = new Attempt(Schedule.id(event), Schedule.attempt(event), writer);
    events.put(event, attempt);
    if (writers[writer] == null) {
      timeOut(List.of(attempt));
    } else {
      writers[writer].execute(event);
    }
  }

  private void deliver(Tuple descriptor) {
    if (committer == null) {
      timeOut(descriptors.remove(descriptor));
    } else {
      committer.execute(descriptor);
    }
  }

  /**
   * Turns what the tasks did in this step into the spout's view of each tuple tree. Writers write no
   * WAL and commit nothing: what they fail was never committed. The committer commits at most one
   * group a step, so {@code unsettled} (a commit left its WAL entry undeleted) is that group's.
   */
  private void harvest(boolean unsettled) {
    for (RecordingCollector out : writerOut) {
      for (RecordingCollector.Emitted emitted : drain(out.emitted)) {
        Tuple descriptor = descriptorTuples.tuple(emitted.values().get(0));
        List<Attempt> anchors = emitted.anchors().stream().map(events::get).toList();
        anchors.forEach(attempt -> attempt.anchored = true);
        descriptors.put(descriptor, anchors);
        wire.add(descriptor);
      }
      List<Long> completed = new ArrayList<>();
      for (Tuple event : drain(out.acked)) {
        Attempt attempt = events.get(event);
        attempt.writerAcked = true;
        if (!attempt.anchored && !attempt.over) {
          attempt.over = true;
          completed.add(attempt.id);
        }
      }
      schedule.acked(completed);
      drain(out.failed).forEach(event -> fail(events.get(event), false));
      drain(out.errors);
    }
    drain(committerOut.errors);
    for (Tuple descriptor : drain(committerOut.acked)) {
      List<Long> ids = new ArrayList<>();
      for (Attempt attempt : descriptors.remove(descriptor)) {
        if (attempt.writerAcked && !attempt.over) {
          attempt.over = true;
          ids.add(attempt.id);
        }
      }
      schedule.acked(ids);
    }
    for (Tuple descriptor : drain(committerOut.failed)) {
      descriptors.remove(descriptor).forEach(attempt -> fail(attempt, unsettled));
    }
  }

  /** A task dies: the tuples it holds time out at the spout; it restarts when it can. */
  private void crash(int task) {
    schedule.crashes++;
    if (task < writers.length) {
      if (writers[task] == null) {
        return;
      }
      writers[task].close();
      writers[task] = null;
      events.values().stream().filter(a -> a.writer == task && !a.writerAcked).forEach(a -> fail(a, true));
    } else if (committer != null) {
      committer.close();
      committer = null;
      descriptors.values().forEach(this::timeOut);
      descriptors.clear();
      wire.clear();
    }
  }

  private void timeOut(List<Attempt> attempts) {
    attempts.forEach(attempt -> fail(attempt, true));
  }

  private void fail(Attempt attempt, boolean mayHaveLanded) {
    if (!attempt.over) {
      attempt.over = true;
      schedule.replay(attempt.id, attempt.payload, mayHaveLanded);
    }
  }

  /** Restarts every dead task the catalog lets open; while it is down, they stay dead. */
  private void restartDeadTasks() {
    try {
      for (int i = 0; i < writers.length; i++) {
        if (writers[i] == null) {
          writers[i] = SinkTasks.openWriter(settings(writerOptions),
              new TaskIdentity("topology", "iceberg-writer", 10 + i, i, writers.length), writerOut[i].collector(),
              schedule.clock::get);
        }
      }
      if (committer == null) {
        committer = openCommitter();
      }
    } catch (RuntimeException e) {
      if (!schedule.catalogDown()) {
        throw e;
      }
    }
  }

  private CommitterTask openCommitter() {
    return CommitterTask.open(settings(committerOptions), new TaskIdentity("topology", "iceberg-committer", 1, 0, 1),
        committerOut.collector(), schedule.clock::get);
  }

  private static <T> List<T> drain(List<T> recorded) {
    List<T> copy = List.copyOf(recorded);
    recorded.clear();
    return copy;
  }
}
