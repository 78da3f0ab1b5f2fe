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

package org.apache.storm.iceberg.kernel.task;

import java.util.function.LongSupplier;

/**
 * When the executor thread last stopped taking tuples to hand a batch over or to wait for commits,
 * and so when the first tuple of a batch opening now reached the task, as far as the task can tell.
 * While the executor waits it takes nothing from its queue, so a tuple taken within one wait's
 * duration after it ended is taken to have waited since the wait began: its commit deadline then
 * counts from there, not from when the executor got to it.
 *
 * <p>One per executor thread: a routing task's tables share one, so a wait on one table's commit
 * dates the next batch of every table.
 */
public final class HandoffTimes {
  private final LongSupplier clock;
  private long startMillis;
  private long endMillis;

  public HandoffTimes(LongSupplier clock) {
    this.clock = clock;
  }

  /** Runs {@code waiting}, a handoff or a wait for commits, remembering when it began and ended. */
  void during(Runnable waiting) {
    startMillis = clock.getAsLong();
    try {
      waiting.run();
    } finally {
      endMillis = clock.getAsLong();
    }
  }

  /** When the first tuple of a batch opening at {@code nowMillis} reached the task. */
  long firstTupleArrivalMillis(long nowMillis) {
    long waitedMillis = endMillis - startMillis;
    return nowMillis - endMillis < waitedMillis ? startMillis : nowMillis;
  }
}
