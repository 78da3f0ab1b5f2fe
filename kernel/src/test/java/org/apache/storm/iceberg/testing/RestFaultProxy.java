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

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * A small HTTP proxy, on 127.0.0.1, in front of the real in-process REST catalog server: Iceberg's
 * REST client reaches the catalog through it over a real HTTP path. It forwards everything, and
 * can mistreat the next table commit (a POST to {@code …/namespaces/{ns}/tables/{table}}) the way a
 * gateway does:
 *
 * <ul>
 *   <li>{@link Mode#APPLY_THEN_ANSWER}: forward the commit, then answer 502/503/504 (applied, answer lost);
 *   <li>{@link Mode#ANSWER_WITHOUT_FORWARDING}: answer the code, never forward (not applied);
 *   <li>{@link Mode#ANSWER_THEN_APPLY_LATE}: answer the code at once, forward later (applied late).
 * </ul>
 */
public final class RestFaultProxy implements AutoCloseable {
  private static final Pattern TABLE_COMMIT = Pattern.compile(".*/namespaces/[^/]+/tables/[^/]+$");
  private static final Set<String> HOP_BY_HOP =
      Set.of("host", "content-length", "connection", "transfer-encoding", "upgrade", "keep-alive", "expect");

  /** What the proxy does to the next table commit. */
  public enum Mode {
    FORWARD,
    APPLY_THEN_ANSWER,
    ANSWER_WITHOUT_FORWARDING,
    ANSWER_THEN_APPLY_LATE
  }

  private final String upstream;
  private final HttpClient client = HttpClient.newHttpClient();
  private final Server server;
  private final AtomicReference<Mode> nextCommit = new AtomicReference<>(Mode.FORWARD);
  private volatile int answerCode = 504;
  private volatile long lateMillis = 300;
  public final AtomicInteger commitsForwarded = new AtomicInteger();
  public final AtomicInteger lateApplied = new AtomicInteger();

  public RestFaultProxy(String upstreamUri) throws Exception {
    this.upstream = upstreamUri.endsWith("/") ? upstreamUri.substring(0, upstreamUri.length() - 1) : upstreamUri;
    this.server = new Server(new InetSocketAddress("127.0.0.1", 0));
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.addServlet(new ServletHolder(new ProxyServlet()), "/*");
    server.setHandler(context);
    server.start();
  }

  public String uri() {
    return "http://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort() + "/";
  }

  private volatile java.util.Random chaos;
  private volatile int chaosPercent;
  public final AtomicInteger mistreated = new AtomicInteger();

  /**
   * From now on, mistreats each table commit with probability {@code percent}%, choosing the mode
   * and the code (502, 503, 504) from {@code seed}: a gateway having a bad day, reproducibly.
   */
  public void chaos(long seed, int percent) {
    this.chaos = new java.util.Random(seed);
    this.chaosPercent = percent;
  }

  private Mode modeFor(boolean commit) {
    if (!commit) {
      return Mode.FORWARD;
    }
    Mode armed = nextCommit.getAndSet(Mode.FORWARD);
    java.util.Random random = chaos;
    if (armed == Mode.FORWARD && random != null) {
      synchronized (random) {
        if (random.nextInt(100) < chaosPercent) {
          Mode[] bad = {Mode.APPLY_THEN_ANSWER, Mode.ANSWER_WITHOUT_FORWARDING, Mode.ANSWER_THEN_APPLY_LATE};
          armed = bad[random.nextInt(bad.length)];
          // 502, 503, 504: a lost answer (CommitStateUnknownException); 408, 524: a plain RESTException.
          answerCode = new int[] {502, 503, 504, 408, 524}[random.nextInt(5)];
        }
      }
    }
    if (armed != Mode.FORWARD) {
      mistreated.incrementAndGet();
    }
    return armed;
  }

  /** Mistreats the next table commit with {@code mode}, answering {@code code} (502, 503 or 504). */
  public void nextCommit(Mode mode, int code) {
    this.answerCode = code;
    this.nextCommit.set(mode);
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }

  private final class ProxyServlet extends HttpServlet {
    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
      byte[] body = request.getInputStream().readAllBytes();
      String path = request.getRequestURI() + (request.getQueryString() == null ? "" : "?" + request.getQueryString());
      HttpRequest forward = forwardOf(request, path, body);
      boolean commit = "POST".equals(request.getMethod()) && TABLE_COMMIT.matcher(request.getRequestURI()).matches();
      Mode mode = modeFor(commit);
      try {
        switch (mode) {
          case APPLY_THEN_ANSWER -> {
            client.send(forward, HttpResponse.BodyHandlers.ofByteArray());
            commitsForwarded.incrementAndGet();
            answer(response, answerCode);
          }
          case ANSWER_WITHOUT_FORWARDING -> answer(response, answerCode);
          case ANSWER_THEN_APPLY_LATE -> {
            answer(response, answerCode);
            CompletableFuture.delayedExecutor(lateMillis, TimeUnit.MILLISECONDS).execute(() -> {
              try {
                HttpResponse<byte[]> late = client.send(forward, HttpResponse.BodyHandlers.ofByteArray());
                if (late.statusCode() < 300) {
                  lateApplied.incrementAndGet();
                }
              } catch (IOException | InterruptedException e) {
                // The late request is lost as well: the commit was simply not applied.
              }
            });
          }
          default -> {
            HttpResponse<byte[]> upstreamResponse = client.send(forward, HttpResponse.BodyHandlers.ofByteArray());
            if (commit) {
              commitsForwarded.incrementAndGet();
            }
            response.setStatus(upstreamResponse.statusCode());
            upstreamResponse.headers().map().forEach((name, values) -> {
              if (!HOP_BY_HOP.contains(name.toLowerCase())) {
                values.forEach(value -> response.addHeader(name, value));
              }
            });
            response.getOutputStream().write(upstreamResponse.body());
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }

    private HttpRequest forwardOf(HttpServletRequest request, String path, byte[] body) {
      HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(upstream + path))
          .method(request.getMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
      for (String name : Collections.list(request.getHeaderNames())) {
        if (!HOP_BY_HOP.contains(name.toLowerCase())) {
          Collections.list(request.getHeaders(name)).forEach(value -> builder.header(name, value));
        }
      }
      return builder.build();
    }

    private void answer(HttpServletResponse response, int code) throws IOException {
      response.setStatus(code);
      response.setContentType("application/json");
      response.getOutputStream().write(
          ("{\"error\":{\"message\":\"injected by the fault proxy\",\"type\":\"GatewayError\",\"code\":" + code + "}}")
              .getBytes(StandardCharsets.UTF_8));
    }
  }
}
