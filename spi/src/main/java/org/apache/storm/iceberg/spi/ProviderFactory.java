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

package org.apache.storm.iceberg.spi;

import java.util.Map;

/**
 * A named provider of one plug-in kind, discovered with {@link java.util.ServiceLoader}.
 *
 * <p>Implementations have a public no-arg constructor and are registered under their kind's factory
 * interface (usually with {@code @AutoService}). Names are unique per kind across the classpath; two
 * providers with one name are a configuration error, never a silent override.
 *
 * @param <T> what the provider creates
 */
public interface ProviderFactory<T> {
  /** The name users select this provider by, for example {@code "parquet"}. */
  String name();

  /**
   * Creates the plug-in from string properties, so it can be configured from topology config or
   * Flux YAML. Unknown or malformed properties throw {@link IllegalArgumentException} saying which.
   */
  T create(Map<String, String> properties);
}
