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
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.tuple.Tuple;

/**
 * One random Kafka schedule against two or three IcebergBolt tasks with source positions, fed by a
 * {@link KafkaSpoutModel} through a fieldsGrouping on topic and partition: each partition reaches
 * one task, until a rebalance moves it to another while the first may still hold its tuples. At
 * every step the spout emits (a retry or the next record) or times a tuple out, commits its offsets
 * to Kafka or crashes; a task crashes; every task ticks; or a fault is armed (see {@link
 * Schedule#armRandomFault}).
 */
final class KafkaBoltSchedule {
  private final Schedule schedule;
  private final KafkaSpoutModel spout;
  private final IcebergOptions options;
  private final SinkTask[] tasks;
  private final RecordingCollector[] out;
  /** Partition → the task the grouping sends it to. */
  private final int[] route;
  /** Tuples a task holds (neither acked nor failed), with the task: insertion order, one seed, one schedule. */
  private final Map<Tuple, Integer> heldBy = new LinkedHashMap<>();
  private final KafkaSchedules.Counts counts;

  KafkaBoltSchedule(Schedule schedule, KafkaSpoutModel spout, KafkaSchedules.Counts counts) {
    this.schedule = schedule;
    this.spout = spout;
    this.counts = counts;
    this.options = schedule.options()
        .withSourcePositions(new FieldPositions())
        .withCommitIntervalRecords(2 + schedule.random.nextInt(8))
        .withCommitIntervalMillis(1_000)
        .build();
    int taskCount = 2 + schedule.random.nextInt(2);
    tasks = new SinkTask[taskCount];
    out = new RecordingCollector[taskCount];
    for (int i = 0; i < taskCount; i++) {
      out[i] = new RecordingCollector();
    }
    route = new int[spout.partitions()];
    for (int p = 0; p < route.length; p++) {
      route[p] = p % taskCount;
    }
  }

  void run() {
    while (!spout.done() && schedule.steps < KafkaSchedules.MAX_STEPS) {
      schedule.step();
      restartDeadTasks();
      int died = act(schedule.random.nextInt(100));
      harvest();
      if (died >= 0) {
        crash(died);
      }
    }
    schedule.faults.clear();
    schedule.faults.late.applyWaitingNow();
    restartDeadTasks();
    for (int i = 0; i < tasks.length; i++) {
      tasks[i].close();
      // A last incarnation starts and settles whatever a crashed or unsettled one left.
      open(i).close();
    }
  }

  /** Does what {@code roll} says; returns the task that died, or -1. */
  private int act(int roll) {
    if (roll < 6 && !schedule.catalogDown()) {
      schedule.armRandomFault(List.of(out));
      return -1;
    }
    if (roll < 8 && !schedule.catalogDown()) {
      return schedule.random.nextInt(tasks.length);
    }
    if (roll < 10) {
      KafkaSchedules.rebalance(schedule, route, tasks.length, counts);
      return -1;
    }
    if (roll < 12) {
      KafkaSchedules.crashSpout(schedule, spout);
      return -1;
    }
    if (roll < 16) {
      spout.commitOffsets();
      return -1;
    }
    if (roll < 20) {
      spout.timeOutOne();
      return -1;
    }
    int task = -1;
    try {
      if (roll < 32 || !spout.hasNext()) {
        Tuple tick = schedule.tick();
        for (task = 0; task < tasks.length; task++) {
          if (tasks[task] != null) {
            tasks[task].execute(tick);
          }
        }
      } else {
        Tuple tuple = spout.next();
        task = route[KafkaSpoutModel.position(tuple).partition()];
        if (tasks[task] == null) {
          // Sent to a dead task: it times out.
          spout.fail(tuple);
        } else {
          heldBy.put(tuple, task);
          tasks[task].execute(tuple);
        }
      }
      return -1;
    } catch (RecordingCollector.WorkerDied e) {
      return task;
    }
  }

  /** Passes the tasks' acks and fails of this step to the spout. */
  private void harvest() {
    for (RecordingCollector collector : out) {
      for (Tuple tuple : KafkaSchedules.drain(collector.acked)) {
        heldBy.remove(tuple);
        spout.ack(tuple);
      }
      for (Tuple tuple : KafkaSchedules.drain(collector.failed)) {
        heldBy.remove(tuple);
        spout.fail(tuple);
      }
      KafkaSchedules.drain(collector.errors);
    }
  }

  /** A task dies: the tuples it holds time out at the spout; it restarts when the catalog lets it. */
  private void crash(int task) {
    if (tasks[task] == null) {
      return;
    }
    schedule.crashes++;
    tasks[task].close();
    tasks[task] = null;
    List<Tuple> held = new ArrayList<>();
    heldBy.forEach((tuple, holder) -> {
      if (holder == task) {
        held.add(tuple);
      }
    });
    held.forEach(tuple -> {
      heldBy.remove(tuple);
      spout.fail(tuple);
    });
  }

  private void restartDeadTasks() {
    try {
      for (int i = 0; i < tasks.length; i++) {
        if (tasks[i] == null) {
          tasks[i] = open(i);
        }
      }
    } catch (RuntimeException e) {
      if (!schedule.catalogDown()) {
        throw e;
      }
    }
  }

  private SinkTask open(int task) {
    return SinkTasks.open(settings(options), new TaskIdentity("topology", "iceberg", 7 + task, task, tasks.length),
        out[task].collector(), schedule.clock::get);
  }
}
