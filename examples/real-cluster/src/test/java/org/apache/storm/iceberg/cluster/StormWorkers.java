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

package org.apache.storm.iceberg.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The worker JVMs of one cluster, found as the Supervisor records them: each worker writes its pid
 * under {@code <storm.local.dir>/workers/<worker id>/pids/}, and its command line carries {@code
 * -Dworker.port=<slot>}. Remembers every pid it has seen per slot, so restarts can be counted.
 */
final class StormWorkers {
  private final Path workersDir;
  private final Map<Integer, Set<Long>> seenPerPort = new TreeMap<>();

  StormWorkers(Path stormLocalDir) {
    this.workersDir = stormLocalDir.resolve("workers");
  }

  /** The live worker pid on each slot port, now; also remembered for {@link #restarts()}. */
  Map<Integer, Long> poll() throws IOException {
    Map<Integer, Long> live = new TreeMap<>();
    if (!Files.isDirectory(workersDir)) {
      return live;
    }
    try (Stream<Path> pidFiles = Files.list(workersDir).map(w -> w.resolve("pids")).filter(Files::isDirectory)
        .flatMap(StormWorkers::list)) {
      pidFiles.forEach(pidFile -> {
        long pid = Long.parseLong(pidFile.getFileName().toString());
        port(pid).ifPresent(port -> live.put(port, pid));
      });
    }
    live.forEach((port, pid) -> seenPerPort.computeIfAbsent(port, p -> new TreeSet<>()).add(pid));
    return live;
  }

  /** Forgets the pids seen so far: from now on, only this test's workers count. */
  void forgetSeen() {
    seenPerPort.clear();
  }

  /** Worker starts beyond the first on each port: the Supervisor's restarts seen so far. */
  int restarts() {
    return seenPerPort.values().stream().mapToInt(pids -> pids.size() - 1).sum();
  }

  Map<Integer, Set<Long>> seen() {
    return seenPerPort;
  }

  /** Sends SIGKILL, as {@code kill -9 <pid>} does: the worker gets no chance to clean up. */
  static void killMinus9(long pid) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-9", Long.toString(pid)).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IllegalStateException("kill -9 " + pid + " exited with " + kill.exitValue());
    }
  }

  private static Stream<Path> list(Path dir) {
    try {
      return Files.list(dir).toList().stream();
    } catch (IOException e) {
      return Stream.empty(); // the worker's directory went away under us: it is not live
    }
  }

  /** The slot port of a live worker JVM, from its command line; empty once it has exited. */
  private static Optional<Integer> port(long pid) {
    try {
      String commandLine = new String(Files.readAllBytes(Paths.get("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8);
      for (String arg : commandLine.split("\0")) {
        if (arg.startsWith("-Dworker.port=")) {
          return Optional.of(Integer.parseInt(arg.substring("-Dworker.port=".length())));
        }
      }
      return Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
