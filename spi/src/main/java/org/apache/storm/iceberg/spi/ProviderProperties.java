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
import java.util.Set;
import java.util.TreeSet;

/**
 * The property check every {@link ProviderFactory#create} starts with, so that all providers refuse
 * a mistyped or missing property with one message format, naming the provider, the offending keys
 * and the keys it takes.
 */
public final class ProviderProperties {
  private ProviderProperties() {}

  /**
   * Refuses {@code properties} holding a key outside {@code required} and {@code optional}, or
   * missing a {@code required} key (a blank value counts as missing), with an {@link
   * IllegalArgumentException} such as {@code seal policy 'open-files' does not know properties
   * [max-files]; it takes [max-open-files, max-partitions]}.
   *
   * @param provider the provider as users name it in messages, for example {@code "seal policy 'age'"}
   */
  public static void check(String provider, Map<String, String> properties, Set<String> required, Set<String> optional) {
    Set<String> known = new TreeSet<>(required);
    known.addAll(optional);
    Set<String> unknown = new TreeSet<>(properties.keySet());
    unknown.removeAll(known);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(provider + " does not know properties " + unknown + "; " + takes(known));
    }
    Set<String> missing = new TreeSet<>();
    for (String key : required) {
      String value = properties.get(key);
      if (value == null || value.isBlank()) {
        missing.add(key);
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(provider + " needs properties " + missing + "; " + takes(known));
    }
  }

  private static String takes(Set<String> known) {
    return known.isEmpty() ? "it takes none" : "it takes " + known;
  }
}
