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

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** How a batch opening after the executor waited is dated: from when its first tuple may have reached the task. */
class HandoffTimesTest {
  private final AtomicLong clock = new AtomicLong(1_000_000);
  private final HandoffTimes handoffs = new HandoffTimes(clock::get);

  private void waitFor(long millis) {
    handoffs.during(() -> clock.addAndGet(millis));
  }

  @Test
  void aTupleTakenWithinAWaitsDurationAfterItEndedIsTakenToHaveWaitedSinceItBegan() {
    waitFor(5_000);
    clock.addAndGet(4_000);
    assertThat(handoffs.firstTupleArrivalMillis(clock.get())).isEqualTo(1_000_000);
    clock.addAndGet(2_000);
    assertThat(handoffs.firstTupleArrivalMillis(clock.get())).as("after the wait's duration").isEqualTo(clock.get());
  }

  /** Waits close together do not chain back to the first: each dates tuples only within its own duration. */
  @Test
  void closeWaitsDoNotDateTuplesBackToTheFirstOfThem() {
    waitFor(500);
    clock.addAndGet(100);
    waitFor(500);
    clock.addAndGet(100);
    long third = clock.get();
    waitFor(500);
    clock.addAndGet(50);
    assertThat(handoffs.firstTupleArrivalMillis(clock.get())).isEqualTo(third);
  }
}
