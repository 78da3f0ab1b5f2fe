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

import org.apache.storm.LocalCluster;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands every test (or {@code @BeforeAll}) method of a test class that takes a {@link LocalCluster}
 * the same one, started on first use and closed when the class's tests end: a LocalCluster takes
 * seconds to start, and its topologies are named per test. One cluster for the whole run was tried
 * and dropped: Storm's in-process supervisor then raced a topology killed by one class against the
 * next class's submission ("Unable to read local file ... stormcode.ser") and halted the JVM. It is
 * started by {@link TestLocalClusters}, whose Javadoc says how it differs from {@code new LocalCluster()}.
 */
public final class SharedLocalCluster implements ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedLocalCluster.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == LocalCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    ExtensionContext testClass = context;
    while (testClass.getTestMethod().isPresent() && testClass.getParent().isPresent()) {
      testClass = testClass.getParent().get();
    }
    return testClass.getStore(NAMESPACE).getOrComputeIfAbsent(Running.class, key -> new Running(), Running.class).cluster;
  }

  /** The cluster, as a class-store value JUnit closes when the class's tests end. */
  private static final class Running implements AutoCloseable {
    final LocalCluster cluster;
    final NimbusCleanupTimer cleanupTimer;

    Running() {
      try {
        cluster = TestLocalClusters.start();
      } catch (Exception e) {
        throw new IllegalStateException("Cannot start the shared LocalCluster", e);
      }
      try {
        cleanupTimer = NimbusCleanupTimer.guard(cluster.getNimbus());
      } catch (RuntimeException e) {
        closeQuietly(cluster, e);
        throw e;
      }
    }

    private static void closeQuietly(LocalCluster cluster, RuntimeException cause) {
      try {
        cluster.close();
      } catch (Exception e) {
        cause.addSuppressed(e);
      }
    }

    @Override
    public void close() throws Exception {
      cleanupTimer.closing();
      cluster.close();
    }
  }
}
