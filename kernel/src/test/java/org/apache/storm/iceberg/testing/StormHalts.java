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

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps Storm from halting the test JVM. Storm's daemons answer an error on one of their timers or
 * event threads with {@code Utils.exitProcess}, which exits the whole process: in a test that is the
 * forked JVM with every class still queued in it (surefire: "the forked VM terminated without saying
 * goodbye", exit 20). Several of those threads race a LocalCluster's close (Nimbus's cleanup timer
 * scheduling on itself after close was one; a worker's or supervisor's timer meeting a closed
 * ZooKeeper client is another), and a loaded machine lost the race about once in five long-tier runs.
 *
 * <p>Installed once per JVM, this refuses an exit that comes from {@code Utils.exitProcess} (the
 * halting thread gets a {@link SecurityException} and ends) and lets every other exit through,
 * surefire's own included. A halt while a cluster is closing is logged and dropped. Any other halt is
 * kept, and {@link #takeUnexpected()} hands it to the test that was running, which fails with the
 * halting thread's name and stack, rather than the JVM dying with no test named.
 *
 * <p>It needs Java 17's dynamic security manager (deprecated for removal; {@code
 * -Djava.security.manager=allow} in surefire's arguments). A JVM that refuses it fails every cluster
 * start with the reason, rather than the halts coming back unnoticed.
 */
public final class StormHalts {
  private static final Logger LOG = LoggerFactory.getLogger(StormHalts.class);
  private static final String STORM_UTILS = "org.apache.storm.utils.Utils";
  private static final String EXIT_PROCESS = "exitProcess";

  private static final List<String> unexpected = new ArrayList<>();
  private static boolean installed;
  private static boolean clusterClosing;

  private StormHalts() {
  }

  /** Installs the guard, once per JVM. */
  @SuppressWarnings("removal")
  public static synchronized void install() {
    if (installed) {
      return;
    }
    try {
      System.setSecurityManager(new RefuseStormHalts());
    } catch (UnsupportedOperationException e) {
      throw new IllegalStateException(
          "This JVM refuses a security manager, so Storm's halts cannot be kept from ending the test JVM: run the tests with"
              + " -Djava.security.manager=allow (kernel/pom.xml's surefire argLine sets it)",
          e);
    }
    installed = true;
  }

  /** From here until {@link #clusterStarting()}, a halt is a cluster's close racing its own threads. */
  public static synchronized void clusterClosing() {
    clusterClosing = true;
  }

  /** Halts from here on are unexpected. */
  public static synchronized void clusterStarting() {
    clusterClosing = false;
  }

  static synchronized boolean isClusterClosing() {
    return clusterClosing;
  }

  /** The unexpected halts since the last call, each the halting thread and its stack; clears them. */
  public static synchronized List<String> takeUnexpected() {
    List<String> taken = new ArrayList<>(unexpected);
    unexpected.clear();
    return taken;
  }

  static synchronized void refused(int status) {
    Thread thread = Thread.currentThread();
    StringBuilder halt = new StringBuilder("Storm halted the JVM with status ").append(status).append(" on thread ").append(thread.getName());
    for (StackTraceElement frame : thread.getStackTrace()) {
      halt.append("\n\tat ").append(frame);
    }
    if (clusterClosing) {
      LOG.warn("Dropped while a LocalCluster closes: {}", halt);
    } else {
      LOG.error("Refused, and the running test fails: {}", halt);
      unexpected.add(halt.toString());
    }
  }

  static boolean calledFromStormsExitProcess() {
    return StackWalker.getInstance()
        .walk(frames -> frames.anyMatch(frame -> STORM_UTILS.equals(frame.getClassName()) && EXIT_PROCESS.equals(frame.getMethodName())));
  }

  /** Permits everything but Storm's halts; checks nothing else, so it costs the JVM nothing else. */
  @SuppressWarnings("removal")
  private static final class RefuseStormHalts extends SecurityManager {
    @Override
    public void checkPermission(java.security.Permission permission) {
    }

    @Override
    public void checkPermission(java.security.Permission permission, Object context) {
    }

    @Override
    public void checkExit(int status) {
      if (calledFromStormsExitProcess()) {
        refused(status);
        throw new SecurityException("storm-iceberg's tests refuse Storm's halt (status " + status + "): see StormHalts");
      }
    }
  }
}
