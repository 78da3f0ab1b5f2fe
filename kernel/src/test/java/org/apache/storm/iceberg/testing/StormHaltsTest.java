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
import org.apache.storm.StormTimer;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Storm's real halt ({@code Utils.exitProcess}) called in this JVM, with the guard installed: the JVM
 * survives (this test goes on running), and the halt is either kept for the running test or, while a
 * cluster closes, dropped.
 */
class StormHaltsTest {
  private boolean closingBefore;

  @BeforeEach
  void install() {
    StormHalts.install();
    closingBefore = StormHalts.isClusterClosing();
    StormHalts.takeUnexpected();
  }

  @AfterEach
  void restore() {
    if (closingBefore) {
      StormHalts.clusterClosing();
    } else {
      StormHalts.clusterStarting();
    }
  }

  @Test
  void aHaltOutsideAClosingClusterIsRefusedAndKeptForTheRunningTest() {
    StormHalts.clusterStarting();
    assertThatThrownBy(() -> Utils.exitProcess(20, "Error when processing an event"))
        .isInstanceOf(SecurityException.class)
        .hasMessageContaining("status 20");
    List<String> halts = StormHalts.takeUnexpected();
    assertThat(halts).singleElement().asString()
        .startsWith("Storm halted the JVM with status 20 on thread " + Thread.currentThread().getName())
        .contains("org.apache.storm.utils.Utils.exitProcess");
    assertThat(StormHalts.takeUnexpected()).as("taken once").isEmpty();
  }

  @Test
  void aHaltWhileAClusterClosesIsDropped() {
    StormHalts.clusterClosing();
    assertThatThrownBy(() -> Utils.exitProcess(20, "Error in cleanupTimer while processing event")).isInstanceOf(SecurityException.class);
    assertThat(StormHalts.takeUnexpected()).isEmpty();
  }

  @Test
  void aStormTimersKillHandlerNoLongerEndsTheJvm() throws Exception {
    StormHalts.clusterStarting();
    List<Throwable> escaped = new CopyOnWriteArrayList<>();
    // Storm's daemons build their timers with exactly this kill handler.
    StormTimer timer = new StormTimer("halting-timer", (thread, error) -> Utils.exitProcess(20, "Error when processing an event"));
    try {
      Thread timerThread = timerThread(timer);
      timerThread.setUncaughtExceptionHandler((thread, error) -> escaped.add(error));
      timer.schedule(0, () -> {
        throw new IllegalStateException("Timer is not active");
      });
      Deadline.await(Duration.ofSeconds(10), () -> !escaped.isEmpty(), () -> "the timer thread to end on the refused halt");
    } finally {
      timer.close();
    }
    assertThat(escaped).singleElement().isInstanceOf(SecurityException.class);
    assertThat(StormHalts.takeUnexpected()).singleElement().asString().startsWith("Storm halted the JVM with status 20 on thread halting-timer");
  }

  @Test
  void anExitNotFromStormIsNotStorms() {
    assertThat(StormHalts.calledFromStormsExitProcess()).isFalse();
  }

  private static Thread timerThread(StormTimer timer) throws ReflectiveOperationException {
    java.lang.reflect.Field task = StormTimer.class.getDeclaredField("task");
    task.setAccessible(true);
    return (Thread) task.get(timer);
  }
}
