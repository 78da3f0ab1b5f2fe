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

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * Iceberg's REST catalog server from its own test fixtures ({@link RESTCatalogAdapter} behind {@link
 * RESTCatalogServlet}, the pieces {@code iceberg-open-api}'s RESTCatalogServer is made of), in
 * process on 127.0.0.1 on a free port, backed by a JdbcCatalog on SQLite (tables on the local file
 * system, or on S3 with {@link #onS3}). The fixture's own
 * RESTCatalogServer is not used as is: it binds every interface on a fixed port.
 */
public final class RestCatalogServer implements AutoCloseable {
  private final Catalog backend;
  private final Server server;
  private final Map<String, String> clientFileIo;

  public RestCatalogServer(Path dir) throws Exception {
    this(dir, TestCatalogs.jdbcSqlite(dir), Map.of());
  }

  /**
   * A server whose tables live on S3 ({@link S3MockServer}); its clients are given the same
   * S3FileIO properties, as a user of a REST catalog that vends no storage credentials sets them.
   */
  public static RestCatalogServer onS3(Path dir) throws Exception {
    return new RestCatalogServer(dir, TestCatalogs.jdbcSqliteOnS3(dir), S3MockServer.shared().fileIoProperties());
  }

  private RestCatalogServer(Path dir, Map<String, String> backendProperties, Map<String, String> clientFileIo) throws Exception {
    java.nio.file.Files.createDirectories(dir);
    this.clientFileIo = clientFileIo;
    this.backend = TestCatalogs.load(backendProperties);
    this.server = new Server(new InetSocketAddress("127.0.0.1", 0));
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.addServlet(new ServletHolder(new RESTCatalogServlet(new RESTCatalogAdapter(backend))), "/*");
    server.setHandler(context);
    server.start();
  }

  public String uri() {
    return "http://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort() + "/";
  }

  /** Client catalog properties that reach this server over HTTP. */
  public Map<String, String> clientProperties() {
    Map<String, String> properties = new java.util.HashMap<>(clientFileIo);
    properties.put("type", "rest");
    properties.put("uri", uri());
    return properties;
  }

  @Override
  public void close() throws Exception {
    server.stop();
    if (backend instanceof AutoCloseable) {
      ((AutoCloseable) backend).close();
    }
  }
}
