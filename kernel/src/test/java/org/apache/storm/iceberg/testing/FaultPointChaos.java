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

package org.apache.storm.iceberg.testing;

import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Arms random faults at a {@link FaultInjectingCatalog}'s points while a topology runs: at each
 * commit that reaches the wrapped catalog, with a seeded chance, one of a data file that cannot be
 * written or closed, a WAL entry that cannot be written (before or after its bytes land) or
 * deleted, or the catalog down for a few hundred milliseconds. It works beside a {@link
 * RestFaultProxy}, which mistreats the commits themselves.
 *
 * <p>Commits come from several bolt threads; arming is serialised so one seed draws one sequence
 * (which commit draws which fault still depends on thread timing).
 */
public final class FaultPointChaos implements AutoCloseable {
  private final Faults faults;
  private final Random random;
  private final int percent;
  private final ScheduledExecutorService outageEnds = Executors.newSingleThreadScheduledExecutor();
  private final Map<String, Integer> armed = new TreeMap<>();

  /** Arms a fault at {@code percent}% of the commits {@code faults}' catalog sees. */
  public FaultPointChaos(Faults faults, long seed, int percent) {
    this.faults = faults;
    this.random = new Random(seed);
    this.percent = percent;
    faults.duringCommit = this::maybeArm;
  }

  private synchronized void maybeArm() {
    if (random.nextInt(100) >= percent) {
      return;
    }
    switch (random.nextInt(6)) {
      case 0 -> arm("data file write", () -> faults.dataFileWriteFailures.incrementAndGet());
      case 1 -> arm("data file close", () -> faults.dataFileCloseFailures.incrementAndGet());
      case 2 -> arm("WAL write, before", () -> faults.walWriteFailuresBefore.incrementAndGet());
      case 3 -> arm("WAL write, after", () -> faults.walWriteFailuresAfter.incrementAndGet());
      case 4 -> arm("WAL delete", () -> faults.walDeleteFailures.incrementAndGet());
      default -> arm("catalog down", () -> {
        faults.takeDown();
        outageEnds.schedule(faults::bringUp, 200 + random.nextInt(600), TimeUnit.MILLISECONDS);
      });
    }
  }

  private void arm(String point, Runnable fault) {
    fault.run();
    armed.merge(point, 1, Integer::sum);
  }

  /** How many faults were armed at each point. */
  public synchronized Map<String, Integer> armed() {
    return new TreeMap<>(armed);
  }

  @Override
  public void close() {
    faults.duringCommit = () -> { };
    outageEnds.shutdownNow();
    faults.clear();
  }
}
