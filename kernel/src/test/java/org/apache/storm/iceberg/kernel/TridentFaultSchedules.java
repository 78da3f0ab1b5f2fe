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

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.storm.iceberg.kernel.commit.SummaryKeys;
import org.apache.storm.iceberg.testing.DetachedTridentContext;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.MemoryWalStoreFactory;
import org.apache.storm.topology.FailedException;
import org.apache.storm.trident.state.State;
import org.apache.storm.trident.state.StateType;

/**
 * Random fault schedules of the Trident states, on a real (in-memory) Iceberg catalog wrapped with
 * {@link FaultInjectingCatalog}, with the same commit faults as {@link RandomFaultSchedules}. A seed
 * picks the sink ({@code seed % 4}: per-partition transactional, whole-stream transactional,
 * per-partition opaque, whole-stream opaque) and, through {@link TridentSchedule}, everything else.
 *
 * <p>After each schedule, {@link TridentScheduleCheck} checks the table against the coordinator's
 * recorded batches; then the topology is redeployed with a reset coordinator: every partition whose
 * newest txid is above 1 is handed an older one, which it must refuse as a regression (a {@code
 * FailedException}, counted in {@code iceberg-txid-regressions}, the table unchanged), never skip.
 */
final class TridentFaultSchedules {
  /** What one schedule did, for the summary. */
  record Outcome(long seed, TridentSchedule.Variant variant, StateType type, int ids, int steps, int faults,
      int crashes, int replays, int failedBatches, int snapshots, int replacements, int fences, int regressionsRefused) {}

  static TridentSchedule.Variant variantOf(long seed) {
    return Math.floorMod(seed, 2) == 0 ? TridentSchedule.Variant.PARTITIONS : TridentSchedule.Variant.WHOLE_STREAM;
  }

  /**
   * The per-partition state takes transactional spouts only ({@code IcebergStateFactory} refuses an
   * opaque state type); the whole stream takes both, on alternate odd seeds.
   */
  static StateType typeOf(long seed) {
    return variantOf(seed) == TridentSchedule.Variant.PARTITIONS || Math.floorMod(seed, 4) == 1
        ? StateType.TRANSACTIONAL
        : StateType.OPAQUE;
  }

  Outcome run(long seed) {
    String key = "trident-schedule-" + seed + "-" + System.nanoTime();
    Faults faults = Faults.create();
    Map<String, String> catalogProperties = FaultInjectingCatalog.sharedInMemory(key, faults);
    try {
      Schedule schedule = new Schedule(seed, key, faults, catalogProperties);
      TridentSchedule run = new TridentSchedule(schedule, variantOf(seed), typeOf(seed));
      TridentScheduleCheck.Seen seen;
      int refused;
      try {
        run.run();
        seen = new TridentScheduleCheck(run, schedule.table).check();
        refused = refuseRegressions(run, schedule.table);
      } catch (RuntimeException e) {
        throw run.violation("the harness failed: " + e, e);
      }
      return new Outcome(seed, run.variant, run.type, schedule.idCount, schedule.steps, schedule.faultsArmed,
          schedule.crashes, run.coordinator.replays, run.failedBatches, seen.snapshots(), seen.replacements(), seen.fences(), refused);
    } finally {
      FaultInjectingCatalog.dropShared(key);
      MemoryWalStoreFactory.drop(key);
    }
  }

  /**
   * Redeploys with a reset coordinator: each state partition whose newest txid in the table is above
   * 1 begins an older txid, in a new task. Returns how many refused it, as they all must.
   */
  private static int refuseRegressions(TridentSchedule run, Table table) {
    table.refresh();
    Map<String, Long> newest = new HashMap<>();
    for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
      newest.putIfAbsent(snapshot.summary().get(SummaryKeys.RESERVED_PREFIX + "trident-partition"),
          Long.parseLong(snapshot.summary().get(SummaryKeys.RESERVED_PREFIX + "trident-txid")));
    }
    int states = run.variant == TridentSchedule.Variant.PARTITIONS ? run.partitions : 1;
    int refused = 0;
    for (int p = 0; p < states; p++) {
      Long head = newest.get(run.variant == TridentSchedule.Variant.PARTITIONS ? Integer.toString(p) : "whole-stream");
      if (head == null || head < 2) {
        continue;
      }
      long txid = 1 + run.schedule.random.nextInt((int) (head - 1));
      long before = table.currentSnapshot().snapshotId();
      DetachedTridentContext context = new DetachedTridentContext(p, states);
      State state = run.topology.openState(p, context);
      try {
        state.beginCommit(txid);
        throw run.violation("partition " + p + " began txid " + txid + " after the reset, though it holds txid " + head
            + ": a regression not refused");
      } catch (FailedException e) {
        if (!TridentSchedule.causedByRegression(e)) {
          throw run.violation("partition " + p + " failed txid " + txid + " after the reset, but not as a regression: " + e, e);
        }
      }
      table.refresh();
      if (table.currentSnapshot().snapshotId() != before) {
        throw run.violation("partition " + p + " changed the table when it refused a txid regression");
      }
      if (context.count("iceberg-txid-regressions") != 1) {
        throw run.violation("partition " + p + " refused a txid regression without counting it in iceberg-txid-regressions");
      }
      refused++;
    }
    return refused;
  }

  static List<StateType> types() {
    return List.of(StateType.TRANSACTIONAL, StateType.OPAQUE);
  }
}
