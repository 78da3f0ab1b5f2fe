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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.storm.Config;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;

/**
 * Where the cluster that {@code cluster.sh start} left running is: read from the system properties
 * the pom sets, with the database names cluster.sh created. Every address is 127.0.0.1.
 */
final class RealCluster {
  /** The database, owner and password cluster.sh created. */
  static final String DB_NAME = "iceberg";
  static final String DB_USER = "storm_iceberg";
  static final String DB_PASSWORD = "storm-iceberg-test";

  final Path dir;
  final Path stormHome;
  final int nimbusPort;
  final int postgresPort;
  final int zookeeperPort;
  final Path topologyJar;

  private RealCluster(Path dir, Path stormHome, int nimbusPort, int postgresPort, int zookeeperPort, Path topologyJar) {
    this.dir = dir;
    this.stormHome = stormHome;
    this.nimbusPort = nimbusPort;
    this.postgresPort = postgresPort;
    this.zookeeperPort = zookeeperPort;
    this.topologyJar = topologyJar;
  }

  static RealCluster fromSystemProperties() {
    return new RealCluster(
        Paths.get(required("cluster.dir")),
        Paths.get(required("storm.home")),
        Integer.parseInt(required("cluster.nimbus.port")),
        Integer.parseInt(required("cluster.postgres.port")),
        Integer.parseInt(required("cluster.zookeeper.port")),
        Paths.get(required("cluster.topology.jar")));
  }

  private static String required(String name) {
    String value = System.getProperty(name);
    if (value == null) {
      throw new IllegalStateException("system property " + name + " is not set: run with mvn verify -Preal-cluster");
    }
    return value;
  }

  Path warehouse() {
    return dir.resolve("warehouse");
  }

  Path stormLocalDir() {
    return dir.resolve("storm-local");
  }

  Path logs() {
    return dir.resolve("logs");
  }

  /** The JdbcCatalog on the cluster's PostgreSQL, as the topology and this test open it. */
  Map<String, String> catalogProperties() {
    return Map.of(
        "type", "jdbc",
        "uri", "jdbc:postgresql://127.0.0.1:" + postgresPort + "/" + DB_NAME,
        "jdbc.user", DB_USER,
        "jdbc.password", DB_PASSWORD,
        "warehouse", warehouse().toUri().toString());
  }

  /** A Nimbus client, as a submitter on this machine configures it. */
  NimbusClient nimbus() {
    Map<String, Object> conf = Utils.readStormConfig();
    conf.put(Config.NIMBUS_SEEDS, List.of("127.0.0.1"));
    conf.put(Config.NIMBUS_THRIFT_PORT, nimbusPort);
    return NimbusClient.getConfiguredClient(conf);
  }

  /**
   * The command {@code storm jar <topology jar> <main> <args> -c key=value...} runs: the client
   * classpath (conf/, lib-worker/, extlib/, the jar), the jar named in {@code storm.jar} for
   * StormSubmitter to upload, and the {@code -c} options in {@code storm.options}.
   */
  List<String> stormJarCommand(String mainClass, List<String> args, Map<String, String> options) {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(String.join(":",
        stormHome.resolve("conf").toString(), stormHome.resolve("lib-worker") + "/*",
        stormHome.resolve("extlib") + "/*", topologyJar.toString()));
    command.add("-Dstorm.jar=" + topologyJar);
    command.add("-Dstorm.options=" + String.join(",",
        options.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()));
    command.add(mainClass);
    command.addAll(args);
    return command;
  }

  /** The lines of the workers' logs that contain every one of {@code texts} (a restarted worker appends to its port's log). */
  List<String> workerLogLines(String... texts) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Path file : logFiles()) {
      if (file.getFileName().toString().equals("worker.log")) {
        try (Stream<String> all = Files.lines(file)) {
          all.filter(line -> Stream.of(texts).allMatch(line::contains)).forEach(lines::add);
        }
      }
    }
    return lines;
  }

  /** The daemons' and workers' logs, newest content last: what explains a failure. */
  List<Path> logFiles() throws IOException {
    List<Path> files = new ArrayList<>();
    if (Files.isDirectory(logs())) {
      try (Stream<Path> all = Files.walk(logs())) {
        all.filter(p -> p.toString().endsWith(".log") || p.toString().endsWith(".out")).sorted().forEach(files::add);
      }
    }
    return files;
  }
}
