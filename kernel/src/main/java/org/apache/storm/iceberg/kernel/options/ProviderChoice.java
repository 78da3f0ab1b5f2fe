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

import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.spi.ProviderFactory;

/**
 * A plug-in chosen in the options: either a provider name with string properties, resolved through
 * {@link ProviderRegistry} when the task starts, or a ready instance that travels with the topology.
 *
 * @param <T> the plug-in type
 */
public final class ProviderChoice<T> implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Class<? extends ProviderFactory<T>> kind;
  private final String name;
  private final Map<String, String> properties;
  private final T instance;

  private ProviderChoice(
      Class<? extends ProviderFactory<T>> kind, String name, Map<String, String> properties, T instance) {
    this.kind = kind;
    this.name = name;
    this.properties = properties;
    this.instance = instance;
  }

  public static <T> ProviderChoice<T> named(
      Class<? extends ProviderFactory<T>> kind, String name, Map<String, String> properties) {
    Objects.requireNonNull(name, "provider name");
    return new ProviderChoice<>(kind, name, new TreeMap<>(properties), null);
  }

  public static <T> ProviderChoice<T> instance(T instance) {
    return new ProviderChoice<>(null, null, Map.of(), Objects.requireNonNull(instance, "instance"));
  }

  /** The provider name, or null when an instance was given. */
  public String name() {
    return name;
  }

  /**
   * Checks that the named provider exists exactly once and accepts the properties; run on the
   * submitting client at {@code build()} and again on the worker.
   */
  public void validate(ClassLoader loader) {
    resolve(loader);
  }

  public T resolve(ClassLoader loader) {
    return resolve(loader, Map.of());
  }

  /** As {@link #resolve(ClassLoader)}, a named provider given {@code defaults} under its own properties. */
  public T resolve(ClassLoader loader, Map<String, String> defaults) {
    if (instance != null) {
      return instance;
    }
    Map<String, String> merged = new TreeMap<>(defaults);
    merged.putAll(properties);
    return ProviderRegistry.find(kind, name, loader).create(merged);
  }

  @Override
  public String toString() {
    return instance != null
        ? instance.getClass().getName()
        : name + (properties.isEmpty() ? "" : properties.keySet().toString());
  }
}
