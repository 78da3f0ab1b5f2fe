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

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.StormTimer;
import org.apache.storm.daemon.nimbus.Nimbus;

/**
 * Keeps a LocalCluster's close from halting the test JVM. Storm 2.8's Nimbus closes its
 * {@code nimbus:cleanupTimer} while the timer's recurring job (every second in a LocalCluster) may
 * be running; that job then schedules on the closed timer, gets "Timer is not active", and the
 * timer's kill handler calls {@code Utils.exitProcess(20)}. One close in a few hundred met it on a
 * loaded machine. This installs a kill handler that drops exactly that error once the cluster is
 * closing and hands every other error to Storm's own handler, which still halts.
 *
 * <p>It reads two private fields ({@code Nimbus.cleanupTimer}, {@code StormTimer.task}) and one of
 * Storm's timer thread ({@code StormTimerTask.onKill}); if a Storm upgrade renames them, every
 * cluster start fails with the name of the field, rather than the race coming back unnoticed.
 */
public final class NimbusCleanupTimer {
  static final String CLOSED_TIMER_MESSAGE = "Timer is not active";

  private final AtomicBoolean closing = new AtomicBoolean();

  private NimbusCleanupTimer(StormTimer.StormTimerTask timerThread) {
    Thread.UncaughtExceptionHandler storms = (Thread.UncaughtExceptionHandler) read(timerThread, StormTimer.StormTimerTask.class, "onKill");
    // Visible to the timer thread: StormTimer.close() (from LocalCluster.close) sets the timer's
    // volatile active flag after this write, and the thread reads that flag before it can fail on a
    // closed timer.
    timerThread.setOnKillFunc(
        (thread, error) -> {
          if (closing.get() && error instanceof IllegalStateException && CLOSED_TIMER_MESSAGE.equals(error.getMessage())) {
            return;
          }
          storms.uncaughtException(thread, error);
        });
  }

  /** Guards the cleanup timer of a started Nimbus. */
  public static NimbusCleanupTimer guard(Nimbus nimbus) {
    StormTimer timer = (StormTimer) read(nimbus, Nimbus.class, "cleanupTimer");
    return guard(timer);
  }

  /** Guards one timer; the overload a test of the guard uses on a timer of its own. */
  static NimbusCleanupTimer guard(StormTimer timer) {
    return new NimbusCleanupTimer((StormTimer.StormTimerTask) read(timer, StormTimer.class, "task"));
  }

  /** Call before the cluster (or the timer) is closed. */
  public void closing() {
    closing.set(true);
  }

  static Object read(Object owner, Class<?> type, String field) {
    java.util.Objects.requireNonNull(owner, () -> "no " + type.getSimpleName() + " to read " + field + " of");
    try {
      Field declared = type.getDeclaredField(field);
      declared.setAccessible(true);
      return declared.get(owner);
    } catch (ReflectiveOperationException | java.lang.reflect.InaccessibleObjectException e) {
      throw new IllegalStateException(
          "Storm's internals changed: " + type.getName() + "." + field + " is gone, so NimbusCleanupTimer cannot guard"
              + " LocalCluster's close against Nimbus's cleanup-timer race; check the race in the new Storm and update or"
              + " remove this guard",
          e);
    }
  }
}
