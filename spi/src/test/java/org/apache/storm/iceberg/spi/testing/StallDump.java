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

package org.apache.storm.iceberg.spi.testing;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Writes every thread's stack when a test JVM has neither started nor finished a test for
 * {@code tests.stallDumpMinutes} minutes (10 unless set), so that a run that hangs says where.
 *
 * <p>Registered for every module whose tests have this test-jar on their classpath (a
 * {@code TestExecutionListener} service). A dump goes to standard error and to a file under
 * {@code java.io.tmpdir}/storm-iceberg-stalls, which outlives the build's clone: CI keeps only the
 * tail of a run's output. A dump is a report, never a failure; it repeats while the stall lasts.
 */
public final class StallDump implements TestExecutionListener {
  private final long quietNanos;
  private final Path directory;
  private final Set<String> running = ConcurrentHashMap.newKeySet();
  private volatile long lastEventNanos = System.nanoTime();
  private volatile Thread watcher;
  /** Completed with the first dump once it is written everywhere: what a test of the listener waits on. */
  private final java.util.concurrent.CompletableFuture<String> firstDump = new java.util.concurrent.CompletableFuture<>();

  /** The listener JUnit's launcher loads. */
  public StallDump() {
    this(Duration.ofMinutes(Long.getLong("tests.stallDumpMinutes", 10)),
        Path.of(System.getProperty("java.io.tmpdir"), "storm-iceberg-stalls"));
  }

  StallDump(Duration quiet, Path directory) {
    this.quietNanos = quiet.toNanos();
    this.directory = directory;
  }

  @Override
  public void testPlanExecutionStarted(TestPlan plan) {
    Thread thread = new Thread(this::watch, "stall-dump");
    thread.setDaemon(true);
    watcher = thread;
    thread.start();
  }

  @Override
  public void testPlanExecutionFinished(TestPlan plan) {
    Thread thread = watcher;
    if (thread != null) {
      thread.interrupt();
    }
  }

  @Override
  public void executionStarted(TestIdentifier test) {
    running.add(test.getDisplayName() + " [" + test.getUniqueId() + "]");
    lastEventNanos = System.nanoTime();
  }

  @Override
  public void executionFinished(TestIdentifier test, TestExecutionResult result) {
    running.remove(test.getDisplayName() + " [" + test.getUniqueId() + "]");
    lastEventNanos = System.nanoTime();
  }

  private void watch() {
    try {
      while (true) {
        TimeUnit.NANOSECONDS.sleep(Math.min(quietNanos / 4, TimeUnit.SECONDS.toNanos(10)));
        if (System.nanoTime() - lastEventNanos >= quietNanos) {
          report(dump());
          lastEventNanos = System.nanoTime();
        }
      }
    } catch (InterruptedException e) {
      // the test plan has finished
    }
  }

  private String dump() {
    StringBuilder text = new StringBuilder();
    long pid = ProcessHandle.current().pid();
    text.append("=== stall: no test started or finished for ").append(Duration.ofNanos(quietNanos))
        .append(" in JVM ").append(pid).append(" at ").append(Instant.now()).append('\n');
    running.forEach(test -> text.append("running: ").append(test).append('\n'));
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long[] deadlocked = threads.findDeadlockedThreads();
    if (deadlocked != null) {
      text.append("deadlocked thread ids: ").append(java.util.Arrays.toString(deadlocked)).append('\n');
    }
    for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
      Thread thread = entry.getKey();
      text.append('\n').append('"').append(thread.getName()).append("\" id=").append(thread.getId())
          .append(thread.isDaemon() ? " daemon " : " ").append(thread.getState()).append('\n');
      for (StackTraceElement frame : entry.getValue()) {
        text.append("    at ").append(frame).append('\n');
      }
    }
    return text.append("=== end of stall dump\n").toString();
  }

  /** The first dump, once it is on standard error and in {@link #file}. */
  java.util.concurrent.CompletableFuture<String> firstDump() {
    return firstDump;
  }

  /** Where this JVM's dumps are written. */
  Path file() {
    return directory.resolve(ProcessHandle.current().pid() + ".txt");
  }

  private void report(String dump) {
    PrintStream err = System.err;
    err.print(dump);
    err.flush();
    try {
      Files.createDirectories(directory);
      Files.writeString(file(), dump, StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      err.println("stall dump not written to " + directory + ": " + e);
    }
    firstDump.complete(dump);
  }
}
