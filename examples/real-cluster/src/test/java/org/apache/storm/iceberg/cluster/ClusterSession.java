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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.utils.NimbusClient;

/**
 * What a real-cluster test does with one topology: submits it as {@code storm jar} does, finds its
 * executors on the workers, waits on conditions (polling the workers meanwhile, so every restart is
 * seen), kills it, and prints the cluster's logs when a test fails. Tests share the cluster that
 * {@code cluster.sh start} left running, one after the other.
 */
final class ClusterSession {
  final RealCluster cluster;
  final StormWorkers workers;
  final String topology;

  ClusterSession(RealCluster cluster, String topology) {
    this.cluster = cluster;
    this.workers = new StormWorkers(cluster.stormLocalDir());
    this.topology = topology;
  }

  /** A Nimbus client once Nimbus leads and its Supervisor has 2 slots free (an earlier test's workers gone). */
  Optional<NimbusClient> nimbusWithTwoFreeSlots() {
    NimbusClient client;
    try {
      client = cluster.nimbus();
    } catch (RuntimeException notYet) {
      return Optional.empty(); // no leader yet
    }
    try {
      ClusterSummary summary = client.getClient().getClusterInfo();
      if (summary.get_supervisors_size() > 0) {
        SupervisorSummary supervisor = summary.get_supervisors().get(0);
        if (supervisor.get_num_workers() - supervisor.get_num_used_workers() >= 2 && workers.poll().isEmpty()) {
          workers.forgetSeen(); // an earlier test's workers are gone: they are no restarts of this one's
          return Optional.of(client);
        }
      }
    } catch (Exception notYet) {
      // Nimbus not ready for this call yet
    }
    client.close();
    return Optional.empty();
  }

  /**
   * Runs {@code storm jar <topology jar> <mainClass> <args> -c <options>}, asserts it exits 0 and
   * returns its output.
   */
  String submit(String mainClass, List<String> args, Map<String, String> options) throws Exception {
    Path out = cluster.logs().resolve("submit-" + topology + ".out");
    Process submitter = new ProcessBuilder(cluster.stormJarCommand(mainClass, args, options))
        .redirectErrorStream(true).redirectOutput(out.toFile()).start();
    boolean exited = submitter.waitFor(2, TimeUnit.MINUTES);
    if (!exited) {
      submitter.destroyForcibly();
    }
    String output = Files.readString(out);
    assertThat(exited && submitter.exitValue() == 0).as("storm jar submission (output in %s):%n%s", out, output).isTrue();
    log(output.lines().filter(l -> l.startsWith("submitted")).findFirst().orElse("submitted"));
    return output;
  }

  /** Slot port to the components it runs, once the topology's executors sit on two ports. */
  Optional<Map<Integer, Set<String>>> assignment(NimbusClient nimbus) throws Exception {
    TopologyInfo info = nimbus.getClient().getTopologyInfoByName(topology);
    Map<Integer, Set<String>> componentsPerPort = new TreeMap<>();
    for (ExecutorSummary executor : info.get_executors()) {
      componentsPerPort.computeIfAbsent(executor.get_port(), p -> new TreeSet<>()).add(executor.get_component_id());
    }
    return componentsPerPort.size() == 2 ? Optional.of(componentsPerPort) : Optional.empty();
  }

  void kill(NimbusClient nimbus) throws Exception {
    KillOptions now = new KillOptions();
    now.set_wait_secs(0);
    nimbus.getClient().killTopologyWithOpts(topology, now);
  }

  /** Polls {@code probe} (and the workers, to see every restart) until it answers, or fails at the deadline. */
  <T> T await(String what, Duration timeout, Callable<Optional<T>> probe) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    long since = System.nanoTime();
    while (true) {
      workers.poll();
      Optional<T> answer = probe.call();
      if (answer.isPresent()) {
        log(what + ": after " + Duration.ofNanos(System.nanoTime() - since).toMillis() + " ms");
        return answer.get();
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("gave up after " + timeout.toSeconds() + " s waiting for " + what);
      }
      Thread.sleep(500);
    }
  }

  void printLogs() throws IOException {
    for (Path file : cluster.logFiles()) {
      List<String> lines = Files.readAllLines(file);
      System.out.println("----- last 60 lines of " + file);
      lines.subList(Math.max(0, lines.size() - 60), lines.size()).forEach(System.out::println);
    }
  }

  static void log(String message) {
    System.out.println("[real-cluster] " + message);
  }
}
