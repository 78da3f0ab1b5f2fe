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

import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.DetachedTridentContext;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.trident.IcebergState;
import org.apache.storm.iceberg.trident.IcebergStateFactory;
import org.apache.storm.iceberg.trident.IcebergStateUpdater;
import org.apache.storm.iceberg.trident.TridentStages;
import org.apache.storm.trident.operation.Aggregator;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.state.State;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.trident.tuple.TridentTuple;

/**
 * The Trident tasks of one fault schedule, opened as Trident opens them, and the faults of their
 * catalog. {@link TridentSchedule.Variant#PARTITIONS}: one {@code IcebergStateFactory} state per
 * partition. {@link TridentSchedule.Variant#WHOLE_STREAM}: the writing partitions' aggregators and
 * the one committing state of {@code IcebergTrident.persist}. Every task gets a detached metrics
 * context and {@code topology.name}; a dead task is null until it opens again.
 */
final class TridentTopology {
  final Map<String, Object> conf = Map.of(Config.TOPOLOGY_NAME, "topology");
  final State[] states;
  final Aggregator<Object>[] writers;
  /** Per state partition: whether its task's last commit call returned, since it opened. */
  final boolean[] settled;
  private final Schedule schedule;
  private final TridentSchedule.Variant variant;
  private final IcebergOptions options;
  /** Steps left until the catalog comes back from {@link #armLateCommitBehindPartition}'s partition. */
  private int partitionedFor;

  @SuppressWarnings("unchecked")
  TridentTopology(Schedule schedule, TridentSchedule.Variant variant, StateType type, int partitions) {
    this.schedule = schedule;
    this.variant = variant;
    this.options = schedule.options().withTridentStateType(type).build();
    this.states = new State[variant == TridentSchedule.Variant.PARTITIONS ? partitions : 1];
    this.writers = new Aggregator[variant == TridentSchedule.Variant.WHOLE_STREAM ? partitions : 0];
    this.settled = new boolean[states.length];
  }

  int tasks() {
    return states.length + writers.length;
  }

  /** A step starts: the catalog comes back once its partition is over. */
  void step() {
    if (partitionedFor > 0 && --partitionedFor == 0) {
      schedule.faults.bringUp();
    }
  }

  boolean catalogDown() {
    return schedule.catalogDown() || partitionedFor > 0;
  }

  /** Opens every dead task; false while one cannot because the catalog is down; throws if it is up. */
  boolean openDeadTasks() {
    try {
      for (int p = 0; p < states.length; p++) {
        if (states[p] == null) {
          states[p] = openState(p, new DetachedTridentContext(p, states.length));
          settled[p] = false;
        }
      }
      for (int w = 0; w < writers.length; w++) {
        if (writers[w] == null) {
          Aggregator<Object> writer = TridentStages.filesAggregator(options);
          writer.prepare(conf, new DetachedTridentContext(w, writers.length));
          writers[w] = writer;
        }
      }
      return true;
    } catch (RuntimeException e) {
      if (!catalogDown()) {
        throw e;
      }
      return false;
    }
  }

  /** Opens state partition {@code p} as Trident's {@code makeState} does, through the real factory. */
  State openState(int p, DetachedTridentContext context) {
    return variant == TridentSchedule.Variant.PARTITIONS
        ? new IcebergStateFactory(options).makeState(conf, context, p, states.length)
        : TridentStages.wholeStreamStateFactory(options).makeState(conf, context, 0, 1);
  }

  /** What {@code partitionPersist} does with a state's buffered tuples, between beginCommit and commit. */
  void update(State state, List<TridentTuple> tuples, TridentCollector collector) {
    if (variant == TridentSchedule.Variant.PARTITIONS) {
      new IcebergStateUpdater().updateState((IcebergState) state, tuples, collector);
    } else {
      TridentStages.updateWholeStream(state, tuples, collector);
    }
  }

  /** Task {@code task} (a state partition, then the writers) dies. */
  void crash(int task) {
    if (task < states.length) {
      states[task] = null;
    } else {
      writers[task - states.length] = null;
    }
  }

  /**
   * Arms a commit fault (as the bolts' schedules do), a data file that cannot be written or closed,
   * or a commit answered with an error and applied late behind a partition; says which.
   */
  String armFault() {
    schedule.faultsArmed++;
    int faults = Schedule.COMMIT_FAULTS.length;
    int point = schedule.random.nextInt(faults + 3);
    if (point < faults) {
      schedule.armCommitFault(Schedule.COMMIT_FAULTS[point]);
      return Schedule.COMMIT_FAULTS[point].toString();
    } else if (point == faults) {
      schedule.faults.dataFileWriteFailures.incrementAndGet();
      return "a data file write failure";
    } else if (point == faults + 1) {
      schedule.faults.dataFileCloseFailures.incrementAndGet();
      return "a data file close failure";
    }
    armLateCommitBehindPartition();
    return "a late commit behind a partition";
  }

  /**
   * The next commit is answered with a generic error and applied late (at one of the next 1 to 12
   * catalog calls, which reach the server even while the client cannot), and from the commit after
   * it the catalog is unreachable for the rest of the step and up to 3 more: the state gives up on
   * the commit, and the replay of its batch may meet it landing, before, during or after its own.
   */
  private void armLateCommitBehindPartition() {
    Faults faults = schedule.faults;
    faults.inject(Faults.CommitFault.ERROR_APPLIED_LATE, 1);
    faults.late.afterCalls = 1 + schedule.random.nextInt(12);
    int steps = 1 + schedule.random.nextInt(4);
    int[] commits = {0};
    faults.duringCommit = () -> {
      if (++commits[0] == 2) {
        faults.duringCommit = () -> {};
        faults.takeDown();
        partitionedFor = steps;
      }
    };
  }

  /** The schedule is over: every fault is cleared, and every late commit reaches the catalog. */
  void healAll() {
    schedule.faults.duringCommit = () -> {};
    schedule.faults.clear();
    schedule.faults.late.applyWaitingNow();
  }
}
