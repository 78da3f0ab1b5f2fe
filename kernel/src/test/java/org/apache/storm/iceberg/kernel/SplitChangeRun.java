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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.route.RoutedCommitterTask;
import org.apache.storm.iceberg.kernel.route.RoutedSinkTask;
import org.apache.storm.iceberg.kernel.task.CommitterTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.kernel.task.WritingTask;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.Tuple;

/**
 * The split sink's two halves wired by hand for {@link RowLevelChangesTest}'s model runs: one
 * IcebergWriterBolt task per Kafka partition (fieldsGrouping on topic and partition) and one
 * IcebergCommitterBolt task, each descriptor delivered as it is emitted. It answers the spout as
 * Storm's tuple trees would ({@link #spout}): a change is acked once its writer acked it and the
 * committer acked the descriptor anchored to it (a change the writer skipped as committed is anchored
 * to none), and failed when either fails it, or when the task holding it dies (Storm times it out).
 * As KafkaSpout, it does not emit a change again while the change is in flight: a replay the run sends
 * meanwhile is dropped. After each descriptor that lands, {@code afterCommit} runs. Options with a
 * router make both halves route (the writers' descriptors name their table, the committer commits
 * each table on its own).
 */
final class SplitChangeRun implements RowLevelChangesTest.ModelSink {
  /** What the spout learns: the changes acked and failed. */
  final RecordingCollector spout;
  private final IcebergOptions writerOptions;
  private final IcebergOptions committerOptions;
  private final AtomicLong clock;
  private final Runnable afterCommit;
  private final WritingTask[] writers;
  private final RecordingCollector[] writerOut;
  private final RecordingCollector committerOut = new RecordingCollector();
  private WritingTask committer;
  private final Tuples descriptorTuples =
      Tuples.from("iceberg-writer", IcebergWriterBolt.DESCRIPTOR_FIELD, IcebergWriterBolt.TABLE_FIELD);
  private final Map<Tuple, List<Tuple>> anchors = new LinkedHashMap<>();
  private final Set<Tuple> anchored = new HashSet<>();
  private final Set<Tuple> writerAcked = new HashSet<>();
  /** Changes a writer took and has not settled yet, with the writer. */
  private final Map<Tuple, Integer> atWriter = new LinkedHashMap<>();
  /** The partitions and offsets in flight ({@link RowLevelChangesTest#at}). */
  private final Set<String> inFlight = new HashSet<>();

  /** The committer's metrics. */
  final com.codahale.metrics.MetricRegistry committerMetrics = new com.codahale.metrics.MetricRegistry();

  SplitChangeRun(IcebergOptions writerOptions, IcebergOptions committerOptions, int partitions, AtomicLong clock,
      RecordingCollector spout, Runnable afterCommit) {
    this.writerOptions = writerOptions;
    this.committerOptions = committerOptions;
    this.clock = clock;
    this.spout = spout;
    this.afterCommit = afterCommit;
    writers = new WritingTask[partitions];
    writerOut = new RecordingCollector[partitions];
    for (int i = 0; i < partitions; i++) {
      writerOut[i] = new RecordingCollector();
      writers[i] = openWriter(i);
    }
    committer = openCommitter();
  }

  private WritingTask openWriter(int index) {
    TaskIdentity task = new TaskIdentity("accounts", "iceberg-writer", 10 + index, index, writers.length);
    if (settings(writerOptions).routing() != null) {
      return RoutedSinkTask.open(settings(writerOptions), TaskEnvironment.detached(task, writerOut[index].collector(), clock::get),
          (s, e, commits, handoffs) -> SinkTasks.openRoutedWriter(s, e, handoffs));
    }
    return SinkTasks.openWriter(settings(writerOptions), task, writerOut[index].collector(), clock::get);
  }

  private WritingTask openCommitter() {
    TaskEnvironment env = new TaskEnvironment(new TaskIdentity("accounts", "iceberg-committer", 1, 0, 1),
        committerOut.collector(), clock::get,
        org.apache.storm.iceberg.kernel.metrics.SinkMetrics.detached(committerMetrics, clock::get), Map.of());
    return settings(committerOptions).routing() != null
        ? RoutedCommitterTask.open(settings(committerOptions), env, CommitterTask::open)
        : CommitterTask.open(settings(committerOptions), env);
  }

  /** A change to the writer of its partition, or a tick to every task. */
  @Override
  public void execute(Tuple tuple) {
    if (org.apache.storm.utils.TupleUtils.isTick(tuple)) {
      for (WritingTask writer : writers) {
        writer.execute(tuple);
      }
      deliver();
      committer.execute(tuple);
      settle();
      return;
    }
    if (!inFlight.add(RowLevelChangesTest.at(tuple))) {
      return;
    }
    int writer = tuple.getIntegerByField("partition");
    atWriter.put(tuple, writer);
    writers[writer].execute(tuple);
    deliver();
  }

  /** Lets everything in flight settle: the writers seal what they hold, the committer commits what it holds. */
  @Override
  public void settleInFlight() {
    clock.addAndGet(2_000);
    execute(new Tuples("id").tick());
    clock.addAndGet(2_000);
    execute(new Tuples("id").tick());
  }

  /** A task dies, its unsettled tuples lost (the run replays them); a new incarnation takes over. */
  @Override
  public RowLevelChangesTest.ModelSink restart(java.util.Random random) {
    int task = random.nextInt(writers.length + 1);
    if (task == writers.length) {
      committer = openCommitter();
      // The descriptors the dead committer held are lost: their changes time out and replay.
      anchors.values().forEach(changes -> changes.forEach(this::spoutFail));
      anchors.clear();
    } else {
      writers[task] = openWriter(task);
      List<Tuple> lost = atWriter.entrySet().stream().filter(held -> held.getValue() == task).map(Map.Entry::getKey).toList();
      lost.forEach(tuple -> {
        atWriter.remove(tuple);
        spoutFail(tuple);
      });
    }
    return this;
  }

  @Override
  public void close() {
    for (WritingTask writer : writers) {
      writer.close();
    }
    committer.close();
  }

  /** Hands each writer's new descriptors to the committer, in the order they were emitted, and settles what each did. */
  private void deliver() {
    // Every descriptor's anchors first: a writer acks its changes as it emits their descriptor.
    List<Tuple> emitted = new ArrayList<>();
    for (RecordingCollector out : writerOut) {
      for (RecordingCollector.Emitted descriptor : KafkaSchedules.drain(out.emitted)) {
        Tuple tuple = descriptorTuples.tuple(descriptor.values().get(0), descriptor.values().get(1));
        anchors.put(tuple, descriptor.anchors());
        anchored.addAll(descriptor.anchors());
        emitted.add(tuple);
      }
    }
    for (Tuple descriptor : emitted) {
      committer.execute(descriptor);
      settle();
    }
    settle();
  }

  private void settleWriter(RecordingCollector out) {
    for (Tuple tuple : KafkaSchedules.drain(out.acked)) {
      atWriter.remove(tuple);
      writerAcked.add(tuple);
      if (!anchored.contains(tuple)) {
        spoutAck(tuple);
      }
    }
    for (Tuple tuple : KafkaSchedules.drain(out.failed)) {
      atWriter.remove(tuple);
      spoutFail(tuple);
    }
    KafkaSchedules.drain(out.errors);
  }

  /** The committer's acks and fails, passed on to the changes anchored to each descriptor. */
  private void settle() {
    for (RecordingCollector out : writerOut) {
      settleWriter(out);
    }
    KafkaSchedules.drain(committerOut.errors);
    for (Tuple descriptor : KafkaSchedules.drain(committerOut.acked)) {
      List<Tuple> changes = anchors.remove(descriptor);
      if (changes != null) {
        changes.stream().filter(writerAcked::contains).forEach(this::spoutAck);
        afterCommit.run();
      }
    }
    for (Tuple descriptor : KafkaSchedules.drain(committerOut.failed)) {
      List<Tuple> changes = anchors.remove(descriptor);
      if (changes != null) {
        changes.forEach(this::spoutFail);
      }
    }
  }

  private void spoutAck(Tuple change) {
    inFlight.remove(RowLevelChangesTest.at(change));
    spout.acked.add(change);
  }

  private void spoutFail(Tuple change) {
    inFlight.remove(RowLevelChangesTest.at(change));
    spout.failed.add(change);
  }
}
