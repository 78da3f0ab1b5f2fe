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


package org.apache.storm.iceberg.tools;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway PostgreSQL server from Debian's {@code postgresql} package, on 127.0.0.1 only, with its
 * socket in its own directory, run as the {@code postgres} user when this JVM is root (initdb refuses
 * root). {@code .ci/run} installs the package; without it the long-tier tests that need it cannot run.
 */
final class PostgresServer implements AutoCloseable {
  static final String USER = "postgres";
  private final Path bin;
  private final Path dir;
  final int port;
  final String password;

  private PostgresServer(Path bin, Path dir, int port, String password) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
    this.password = password;
  }

  /** Debian's newest PostgreSQL binaries, or null when the package is not installed. */
  static Path binaries() throws IOException {
    Path root = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(root)) {
      return null;
    }
    try (var versions = Files.list(root)) {
      return versions.map(version -> version.resolve("bin")).filter(bin -> Files.isExecutable(bin.resolve("initdb")))
          .max(Comparator.comparing(bin -> Integer.parseInt(bin.getParent().getFileName().toString().replaceAll("\\D", "0"))))
          .orElse(null);
    }
  }

  static PostgresServer start(Path parent, String password) throws Exception {
    Path bin = binaries();
    if (bin == null) {
      throw new IllegalStateException("PostgreSQL is not installed: apt-get install postgresql (.ci/run does)");
    }
    Path dir = Files.createTempDirectory(parent, "postgres");
    run("chmod", "755", parent.toString(), dir.toString());
    if (isRoot()) {
      run("chown", "postgres:", dir.toString());
    }
    Path passwordFile = dir.resolve("password");
    asPostgres("bash", "-c", "echo '" + password + "' > " + passwordFile);
    asPostgres(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", USER, "--pwfile=" + passwordFile,
        "--auth-local=trust", "--auth-host=scram-sha-256");
    int port = freePort();
    asPostgres(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-l", dir.resolve("postgres.log").toString(),
        "-w", "-t", "60", "start", "-o", "-c listen_addresses=127.0.0.1 -p " + port + " -k " + dir);
    return new PostgresServer(bin, dir, port, password);
  }

  String jdbcUri() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  @Override
  public void close() throws Exception {
    asPostgres(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "fast", "-w", "stop");
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static void asPostgres(String... command) throws Exception {
    List<String> full = new ArrayList<>();
    if (isRoot()) {
      full.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    full.addAll(List.of(command));
    run(full.toArray(String[]::new));
  }

  private static void run(String... command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (!process.waitFor(90, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
