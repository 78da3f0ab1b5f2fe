package org.apache.storm.iceberg.testing;

import org.apache.storm.LocalCluster;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands every test (or {@code @BeforeAll}) method that takes a {@link LocalCluster} the same one,
 * started on first use and closed when the whole test run ends: a LocalCluster takes seconds to
 * start, and its topologies are named per test, so test classes can share it.
 */
public final class SharedLocalCluster implements ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedLocalCluster.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == LocalCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Running.class, key -> new Running(), Running.class).cluster;
  }

  /** The cluster, as a root-store value JUnit closes when the run ends. */
  private static final class Running implements AutoCloseable {
    final LocalCluster cluster;

    Running() {
      try {
        cluster = new LocalCluster();
      } catch (Exception e) {
        throw new IllegalStateException("Cannot start the shared LocalCluster", e);
      }
    }

    @Override
    public void close() throws Exception {
      cluster.close();
    }
  }
}
