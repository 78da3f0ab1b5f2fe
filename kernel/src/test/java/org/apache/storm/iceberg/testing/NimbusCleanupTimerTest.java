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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.apache.storm.StormTimer;
import org.junit.jupiter.api.Test;

/**
 * Nimbus's cleanup-timer race, replayed on a real {@link StormTimer}: its recurring job is held
 * until the timer is being closed, then schedules on it, as Nimbus's job does. Storm's kill handler
 * is replaced by one that records instead of halting the JVM.
 */
class NimbusCleanupTimerTest {
  final List<Throwable> reachedStormsHandler = new CopyOnWriteArrayList<>();

  @Test
  void unguardedTheJobThatSchedulesOnAClosingTimerReachesTheHaltingHandler() throws Exception {
    StormTimer timer = timer();
    closeMidJob(timer, null, () -> timer.schedule(0, () -> {}));
    assertThat(reachedStormsHandler).extracting(Throwable::getMessage).containsExactly(NimbusCleanupTimer.CLOSED_TIMER_MESSAGE);
  }

  @Test
  void guardedTheClosedTimerErrorIsDroppedWhileTheClusterCloses() throws Exception {
    StormTimer timer = timer();
    closeMidJob(timer, NimbusCleanupTimer.guard(timer), () -> timer.schedule(0, () -> {}));
    assertThat(reachedStormsHandler).isEmpty();
  }

  @Test
  void guardedAnyOtherErrorStillReachesTheHaltingHandler() throws Exception {
    StormTimer timer = timer();
    closeMidJob(timer, NimbusCleanupTimer.guard(timer), () -> { throw new IllegalStateException("cleanup failed"); });
    assertThat(reachedStormsHandler).extracting(Throwable::getMessage).containsExactly("cleanup failed");
  }

  @Test
  void aRenamedStormFieldFailsTheGuardWithItsName() {
    assertThatThrownBy(() -> NimbusCleanupTimer.read(new StormTimer.StormTimerTask(), StormTimer.StormTimerTask.class, "onKillHandler"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Storm's internals changed: org.apache.storm.StormTimer$StormTimerTask.onKillHandler is gone");
  }

  private StormTimer timer() {
    return new StormTimer("test-cleanup-timer", (thread, error) -> reachedStormsHandler.add(error));
  }

  /** Runs the recurring job up to {@code job}, closes the timer, then lets the job go on. */
  private static void closeMidJob(StormTimer timer, NimbusCleanupTimer guard, Runnable job) throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    timer.scheduleRecurring(0, 1, () -> {
      entered.countDown();
      awaitIgnoringInterrupts(release);
      job.run();
    });
    entered.await();
    if (guard != null) {
      guard.closing();
    }
    Thread closer = new Thread(() -> {
      try {
        timer.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    closer.start();
    // close() marks the timer inactive and interrupts it before it waits for the job: WAITING means both are done.
    Deadline.await(Duration.ofSeconds(10), () -> closer.getState() == Thread.State.WAITING, () -> "the closer to wait on the timer");
    release.countDown();
    closer.join(10_000);
    assertThat(closer.isAlive()).as("the timer closed").isFalse();
  }

  private static void awaitIgnoringInterrupts(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
