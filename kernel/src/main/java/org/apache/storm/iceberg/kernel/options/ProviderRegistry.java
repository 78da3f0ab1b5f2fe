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

package org.apache.storm.iceberg.kernel.options;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.apache.storm.iceberg.spi.FileFormatWriterFactory;
import org.apache.storm.iceberg.spi.MultiRecordMapperFactory;
import org.apache.storm.iceberg.spi.ProviderFactory;
import org.apache.storm.iceberg.spi.RecordMapperFactory;
import org.apache.storm.iceberg.spi.SealPolicyFactory;
import org.apache.storm.iceberg.spi.TableRouterFactory;
import org.apache.storm.iceberg.spi.WalStoreFactory;

/**
 * The one place that loads plug-in providers with {@link ServiceLoader}. Lookups fail fast and say
 * what to do: an unknown name lists the names found and the artifact that provides the defaults;
 * two providers with one name name both classes. The caller passes the class loader that holds the
 * topology's classes (the thread's context class loader on a worker and on the submitting client).
 */
public final class ProviderRegistry {
  private ProviderRegistry() {}

  /** Finds the provider of {@code kind} named {@code name}, or throws saying how to fix it. */
  public static <F extends ProviderFactory<?>> F find(Class<F> kind, String name, ClassLoader loader) {
    Map<String, F> byName = load(kind, loader);
    F factory = byName.get(name);
    if (factory == null) {
      throw new IllegalArgumentException(
          "No "
              + label(kind)
              + " named '"
              + name
              + "' on the classpath; found "
              + byName.keySet()
              + ". Add the artifact that provides it to the topology jar ("
              + artifactHint(kind)
              + "), or select one of the names found.");
    }
    return factory;
  }

  /** Every provider of {@code kind} by name; two providers with one name is an error. */
  public static <F extends ProviderFactory<?>> Map<String, F> load(Class<F> kind, ClassLoader loader) {
    Map<String, F> byName = new TreeMap<>();
    for (F factory : ServiceLoader.load(kind, loader)) {
      F previous = byName.putIfAbsent(factory.name(), factory);
      if (previous != null) {
        throw new IllegalStateException(
            "Two "
                + label(kind)
                + " providers are named '"
                + factory.name()
                + "': "
                + previous.getClass().getName()
                + " and "
                + factory.getClass().getName()
                + ". Remove one of them from the classpath.");
      }
    }
    return byName;
  }

  static String label(Class<?> kind) {
    return Kind.of(kind).label;
  }

  private static String artifactHint(Class<?> kind) {
    return Kind.of(kind).artifactHint;
  }

  /** How messages name each plug-in kind, and where its default providers come from. */
  private enum Kind {
    RECORD_MAPPER(RecordMapperFactory.class, "record mapper", "storm-iceberg-mappers"),
    MULTI_RECORD_MAPPER(MultiRecordMapperFactory.class, "multi-record mapper", "storm-iceberg-mappers"),
    FILE_FORMAT(FileFormatWriterFactory.class, "file format", "storm-iceberg-formats"),
    WAL_STORE(WalStoreFactory.class, "WAL store", "storm-iceberg-wal-backends"),
    SEAL_POLICY(SealPolicyFactory.class, "seal policy", "storm-iceberg-kernel"),
    TABLE_ROUTER(TableRouterFactory.class, "table router", "storm-iceberg-kernel");

    private final Class<?> factory;
    private final String label;
    private final String artifactHint;

    Kind(Class<?> factory, String label, String module) {
      this.factory = factory;
      this.label = label;
      this.artifactHint =
          "the defaults are in org.apache.storm:" + module + ", part of org.apache.storm:storm-iceberg";
    }

    static Kind of(Class<?> factory) {
      for (Kind kind : values()) {
        if (kind.factory == factory) {
          return kind;
        }
      }
      throw new IllegalArgumentException("not a storm-iceberg plug-in kind: " + factory.getName());
    }
  }
}
