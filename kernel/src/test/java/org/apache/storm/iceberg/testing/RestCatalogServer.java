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
 * process on 127.0.0.1 on a free port, backed by a JdbcCatalog on SQLite. The fixture's own
 * RESTCatalogServer is not used as is: it binds every interface on a fixed port.
 */
public final class RestCatalogServer implements AutoCloseable {
  private final Catalog backend;
  private final Server server;

  public RestCatalogServer(Path dir) throws Exception {
    java.nio.file.Files.createDirectories(dir);
    this.backend = TestCatalogs.load(TestCatalogs.jdbcSqlite(dir));
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
    return Map.of("type", "rest", "uri", uri());
  }

  @Override
  public void close() throws Exception {
    server.stop();
    if (backend instanceof AutoCloseable) {
      ((AutoCloseable) backend).close();
    }
  }
}
