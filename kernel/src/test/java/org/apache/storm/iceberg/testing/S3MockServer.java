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

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * An S3-compatible object store on 127.0.0.1 for the tests: Adobe's S3Mock, from its Spring Boot
 * exec jar on Maven Central ({@code com.adobe.testing:s3mock:<version>:exec}, which the kernel's
 * build copies to the path in {@code -Ds3mock.jar}), run as a JVM of its own so that its Spring
 * Boot, Tomcat, Jackson and AWS SDK never meet Storm's, Hadoop's or Iceberg's on the test classpath.
 *
 * <p>One server serves a whole test JVM: started on first use (a few seconds on an idle machine,
 * longer on a busy one), stopped when the test JVM exits, and also when that JVM dies without
 * running its shutdown hooks, since {@link Main} exits when its standard input closes. Each test
 * takes a warehouse of its own under the one bucket. The tests reach it in plain HTTP on the
 * 127.0.0.1 connector; S3Mock 4 also opens a second HTTP connector, which has no bind-address
 * setting, so it is put on a random port and left unused.
 */
public final class S3MockServer {
  public static final String BUCKET = "warehouse";
  /** S3Mock checks no signature; the SDK only needs some credentials to sign with. */
  public static final String ACCESS_KEY_ID = "storm-iceberg-test";
  public static final String SECRET_ACCESS_KEY = "storm-iceberg-test-secret";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
  private static S3MockServer shared;

  private final Process process;
  private final int port;
  private final Path root;
  private final Path log;

  private S3MockServer(Process process, int port, Path root, Path log) {
    this.process = process;
    this.port = port;
    this.root = root;
    this.log = log;
  }

  /** The test JVM's server, started on first use. */
  public static synchronized S3MockServer shared() {
    if (shared == null) {
      long startNanos = System.nanoTime();
      shared = start();
      System.out.printf("S3Mock serves %s after %d ms%n", shared.endpoint(), (System.nanoTime() - startNanos) / 1_000_000);
      S3MockServer started = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "s3mock-stop"));
    }
    return shared;
  }

  /** The endpoint S3 clients use, {@code http://127.0.0.1:<port>}. */
  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** A fresh warehouse location in the bucket, {@code s3://warehouse/<random>}. */
  public String newWarehouse() {
    return "s3://" + BUCKET + "/" + UUID.randomUUID();
  }

  /**
   * Catalog properties for {@code S3FileIO} on this server, as a user sets them for an
   * S3-compatible store: the endpoint, path-style access and a region, with static credentials.
   */
  public Map<String, String> fileIoProperties() {
    return Map.of(
        "io-impl", "org.apache.iceberg.aws.s3.S3FileIO",
        "s3.endpoint", endpoint(),
        "s3.path-style-access", "true",
        "s3.access-key-id", ACCESS_KEY_ID,
        "s3.secret-access-key", SECRET_ACCESS_KEY,
        "client.region", "us-east-1");
  }

  /**
   * Starts S3Mock on a port that was free a moment before. Another process (the other test JVM of a
   * two-fork run) may take that port while S3Mock's JVM starts, so a server that exits before it
   * serves is started again on another port, twice at most.
   */
  private static S3MockServer start() {
    IllegalStateException exited = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return startOnce();
      } catch (ExitedBeforeServing e) {
        if (exited != null) {
          e.addSuppressed(exited);
        }
        exited = e;
      }
    }
    throw exited;
  }

  /** S3Mock's JVM ended before it served its bucket, most likely because its port was taken. */
  private static final class ExitedBeforeServing extends IllegalStateException {
    ExitedBeforeServing(String message) {
      super(message);
    }
  }

  private static S3MockServer startOnce() {
    String jar = System.getProperty("s3mock.jar");
    if (jar == null || !Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException("S3Mock's exec jar is not at -Ds3mock.jar=" + jar
          + "; run the tests through Maven, whose kernel build copies com.adobe.testing:s3mock:exec to target/s3mock");
    }
    try {
      int port = freePort();
      Path root = Files.createTempDirectory("s3mock-store");
      Path log = Files.createTempFile("s3mock", ".log");
      String launcher = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
      List<String> command = List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          // A short-lived server: the C1 compiler and a small serial heap start it fastest.
          "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
          "-cp", jar + File.pathSeparator + launcher,
          Main.class.getName(),
          "--server.address=127.0.0.1",
          "--server.port=" + port,
          "--server.ssl.enabled=false",
          "--com.adobe.testing.s3mock.httpPort=0",
          "--com.adobe.testing.s3mock.store.root=" + root,
          "--com.adobe.testing.s3mock.store.initialBuckets=" + BUCKET,
          "--logging.level.root=WARN");
      Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      S3MockServer server = new S3MockServer(process, port, root, log);
      server.awaitBucket();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start S3Mock", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while S3Mock started", e);
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private void awaitBucket() throws InterruptedException {
    try {
      Deadline.await(START_TIMEOUT, () -> !process.isAlive() || bucketAnswers(),
          () -> "S3Mock to serve bucket " + BUCKET + " at " + endpoint() + "; its log:\n" + logTail());
    } catch (AssertionError e) {
      stop();
      throw e;
    }
    if (!process.isAlive()) {
      String tail = logTail();
      stop();
      throw new ExitedBeforeServing("S3Mock exited with " + process.exitValue() + "; its log:\n" + tail);
    }
  }

  private boolean bucketAnswers() {
    try {
      HttpURLConnection connection = (HttpURLConnection) URI.create(endpoint() + "/" + BUCKET + "?list-type=2").toURL().openConnection();
      connection.setConnectTimeout(1_000);
      connection.setReadTimeout(5_000);
      try {
        return connection.getResponseCode() == 200;
      } finally {
        connection.disconnect();
      }
    } catch (IOException notYet) {
      return false;
    }
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  private void stop() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      Files.deleteIfExists(log);
    } catch (IOException ignored) {
      // A temp directory left behind is harmless.
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /**
   * The S3Mock JVM's entry point: Spring Boot's launcher, plus a watch on standard input, which is
   * the test JVM's pipe, so that the server exits as soon as the test JVM is gone however it ended.
   */
  public static final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
      Thread watch = new Thread(() -> {
        try {
          while (System.in.read() != -1) {
            // Nothing is ever sent; only the end of the stream matters.
          }
        } catch (IOException closed) {
          // The same as the end of the stream.
        }
        Runtime.getRuntime().halt(0);
      }, "test-jvm-watch");
      watch.setDaemon(true);
      watch.start();
      Class.forName("org.springframework.boot.loader.launch.JarLauncher").getMethod("main", String[].class).invoke(null, (Object) args);
    }
  }
}
