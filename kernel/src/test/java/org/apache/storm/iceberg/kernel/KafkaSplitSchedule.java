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

import static org.apache.storm.iceberg.OptionsInternals.settings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.task.CommitterTask;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;

/**
 * One random Kafka schedule against the split pair with source positions: one to three
 * IcebergWriterBolt tasks, fed by a {@link KafkaSpoutModel} by partition (a rebalance moves one), and
 * one IcebergCommitterBolt task, joined by a wire of descriptors. Besides the Kafka steps of {@link
 * KafkaBoltSchedule}, a step delivers a descriptor or loses one on the wire.
 *
 * <p>Tuple trees as in {@link SplitSchedule}: a tuple is acked at the spout once its writer acked it
 * and the committer acked the descriptor anchored to it (a tuple the writer skipped as committed is
 * anchored to none); it fails when either fails it, and times out when the task holding it dies or
 * its descriptor is lost.
 */
final class KafkaSplitSchedule {
  /** One emitted tuple's tree. */
  private static final class Tree {
    final Tuple tuple;
    final int writer;
    boolean writerAcked;
    boolean anchored;
    boolean over;

    Tree(Tuple tuple, int writer) {
      this.tuple = tuple;
      this.writer = writer;
    }
  }

  private final Schedule schedule;
  private final KafkaSpoutModel spout;
  private final KafkaSchedules.Counts counts;
  private final IcebergOptions writerOptions;
  private final IcebergOptions committerOptions;
  private final SinkTask[] writers;
  private final RecordingCollector[] writerOut;
  private final RecordingCollector committerOut = new RecordingCollector();
  private CommitterTask committer;
  private final int[] route;
  private final Tuples descriptorTuples = Tuples.from("iceberg-writer", IcebergWriterBolt.DESCRIPTOR_FIELD);
  // Insertion order, not Tuple hash order (identity hashes differ per run): one seed, one schedule.
  private final Map<Tuple, Tree> trees = new LinkedHashMap<>();
  private final Map<Tuple, List<Tree>> descriptors = new LinkedHashMap<>();
  private final List<Tuple> wire = new ArrayList<>();

  KafkaSplitSchedule(Schedule schedule, KafkaSpoutModel spout, KafkaSchedules.Counts counts) {
    this.schedule = schedule;
    this.spout = spout;
    this.counts = counts;
    this.writerOptions = schedule.options()
        .withSourcePositions(new FieldPositions())
        .withCommitIntervalRecords(2 + schedule.random.nextInt(8))
        .withCommitIntervalMillis(1_000)
        .build();
    this.committerOptions = schedule.options()
        .withSourcePositions(new FieldPositions())
        .withGroupCommitMaxDataFiles(1 + schedule.random.nextInt(6))
        .withGroupCommitIntervalMillis(schedule.random.nextInt(3_000))
        .build();
    int writerCount = 1 + schedule.random.nextInt(3);
    writers = new SinkTask[writerCount];
    writerOut = new RecordingCollector[writerCount];
    for (int i = 0; i < writerCount; i++) {
      writerOut[i] = new RecordingCollector();
    }
    route = new int[spout.partitions()];
    for (int p = 0; p < route.length; p++) {
      route[p] = p % writerCount;
    }
  }

  void run() {
    while (!spout.done() && schedule.steps < KafkaSchedules.MAX_STEPS) {
      schedule.step();
      restartDeadTasks();
      int crashed = act(schedule.random.nextInt(100));
      harvest();
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

  /** Does what {@code roll} says; returns the task that died (a writer, or writers.length for the committer), or -1. */
  private int act(int roll) {
    if (roll < 6 && !schedule.catalogDown()) {
      List<RecordingCollector> collectors = new ArrayList<>(List.of(writerOut));
      collectors.add(committerOut);
      schedule.armRandomFault(collectors);
      return -1;
    }
    if (roll < 8 && !schedule.catalogDown()) {
      return schedule.random.nextInt(writers.length + 1);
    }
    if (roll < 10) {
      KafkaSchedules.rebalance(schedule, route, writers.length, counts);
      return -1;
    }
    if (roll < 12) {
      KafkaSchedules.crashSpout(schedule, spout);
      return -1;
    }
    if (roll < 15) {
      spout.commitOffsets();
      return -1;
    }
    if (roll < 18) {
      spout.timeOutOne();
      return -1;
    }
    if (roll < 19 && !wire.isEmpty()) {
      timeOut(descriptors.remove(wire.remove(schedule.random.nextInt(wire.size()))));
      return -1;
    }
    int task = -1;
    try {
      if (roll < 30 || (!spout.hasNext() && wire.isEmpty())) {
        Tuple tick = schedule.tick();
        for (task = 0; task < writers.length; task++) {
          if (writers[task] != null) {
            writers[task].execute(tick);
          }
        }
        if (committer != null) {
          committer.execute(tick);
        }
      } else if (!wire.isEmpty() && (roll < 50 || !spout.hasNext())) {
        task = writers.length;
        deliver(wire.remove(0));
      } else {
        Tuple tuple = spout.next();
        task = route[KafkaSpoutModel.position(tuple).partition()];
        send(task, tuple);
      }
      return -1;
    } catch (RecordingCollector.WorkerDied e) {
      return task;
    }
  }

  private void send(int writer, Tuple tuple) {
    Tree tree = new Tree(tuple, writer);
    trees.put(tuple, tree);
    if (writers[writer] == null) {
      timeOut(List.of(tree));
    } else {
      writers[writer].execute(tuple);
    }
  }

  private void deliver(Tuple descriptor) {
    if (committer == null) {
      timeOut(descriptors.remove(descriptor));
    } else {
      committer.execute(descriptor);
    }
  }

  /** Turns what the tasks did in this step into the spout's view of each tuple tree. */
  private void harvest() {
    for (RecordingCollector out : writerOut) {
      for (RecordingCollector.Emitted emitted : KafkaSchedules.drain(out.emitted)) {
        Tuple descriptor = descriptorTuples.tuple(emitted.values().get(0));
        List<Tree> anchors = emitted.anchors().stream().map(trees::get).toList();
        anchors.forEach(tree -> tree.anchored = true);
        descriptors.put(descriptor, anchors);
        wire.add(descriptor);
      }
      for (Tuple tuple : KafkaSchedules.drain(out.acked)) {
        Tree tree = trees.get(tuple);
        tree.writerAcked = true;
        if (!tree.anchored) {
          complete(tree);
        }
      }
      KafkaSchedules.drain(out.failed).forEach(tuple -> fail(trees.get(tuple)));
      KafkaSchedules.drain(out.errors);
    }
    KafkaSchedules.drain(committerOut.errors);
    for (Tuple descriptor : KafkaSchedules.drain(committerOut.acked)) {
      descriptors.remove(descriptor).stream().filter(tree -> tree.writerAcked).forEach(this::complete);
    }
    for (Tuple descriptor : KafkaSchedules.drain(committerOut.failed)) {
      descriptors.remove(descriptor).forEach(this::fail);
    }
  }

  /** A task dies: the tuples it holds time out at the spout; it restarts when it can. */
  private void crash(int task) {
    if (task < writers.length) {
      if (writers[task] == null) {
        return;
      }
      schedule.crashes++;
      writers[task].close();
      writers[task] = null;
      trees.values().stream().filter(tree -> tree.writer == task && !tree.writerAcked).forEach(this::fail);
    } else if (committer != null) {
      schedule.crashes++;
      committer.close();
      committer = null;
      descriptors.values().forEach(this::timeOut);
      descriptors.clear();
      wire.clear();
    }
  }

  private void timeOut(List<Tree> trees) {
    trees.forEach(this::fail);
  }

  private void complete(Tree tree) {
    if (!tree.over) {
      tree.over = true;
      spout.ack(tree.tuple);
    }
  }

  private void fail(Tree tree) {
    if (!tree.over) {
      tree.over = true;
      spout.fail(tree.tuple);
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
}
