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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@value #PREFIX}* keys of a topology configuration, as {@code IcebergOptions} reads them on the
 * submitting client: the {@code fromMap} keys with the prefix, from the configuration the topology is
 * submitted with and, over those, from {@code storm jar -c} (the {@code storm.options} system property
 * that {@code storm jar} sets and that {@code StormSubmitter} also puts over that configuration).
 * Storm's own configuration keys never start with the prefix.
 */
public final class TopologyConfigKeys {
  public static final String PREFIX = "iceberg.";
  private static final Logger LOG = LoggerFactory.getLogger(TopologyConfigKeys.class);

  private TopologyConfigKeys() {}

  /** The prefixed entries of {@code topologyConfig}, with {@code storm jar -c}'s over them. */
  public static Map<String, Object> of(Map<String, ?> topologyConfig) {
    Map<String, Object> prefixed = new TreeMap<>();
    copyPrefixed(topologyConfig, prefixed);
    copyPrefixed(Utils.readCommandLineOpts(), prefixed);
    return prefixed;
  }

  /** The {@code fromMap} keys {@code prefixed} sets, without the prefix. */
  public static Set<String> unprefixed(Map<String, ?> prefixed) {
    Set<String> keys = new TreeSet<>();
    prefixed.keySet().forEach(key -> keys.add(key.substring(PREFIX.length()).split("\\.", 2)[0]));
    return keys;
  }

  /**
   * Folds each {@code iceberg.<map key>.<entry>} (for example {@code iceberg.catalog.uri}) into its
   * map, over the map the topology configuration gives whole, or else over the builder's: an operator
   * changes one catalog property without restating the others.
   */
  static Map<String, Object> withEntriesFolded(Map<String, Object> prefixed, OptionsDraft draft) {
    Map<String, Map<String, String>> builders = Map.of(
        "catalog", draft.catalogProperties,
        "hadoop-configuration", draft.hadoopConfiguration,
        "write-properties", draft.writeProperties,
        "snapshot-properties", Map.of());
    Map<String, Object> folded = new TreeMap<>();
    Map<String, Map<String, Object>> entriesByKey = new TreeMap<>();
    prefixed.forEach((key, value) -> {
      String[] parts = key.substring(PREFIX.length()).split("\\.", 2);
      if (parts.length == 2 && builders.containsKey(parts[0])) {
        entriesByKey.computeIfAbsent(parts[0], name -> new LinkedHashMap<>()).put(parts[1], value);
      } else {
        folded.put(key, value);
      }
    });
    entriesByKey.forEach((name, entries) -> {
      Object whole = prefixed.get(PREFIX + name);
      Map<String, Object> merged = new LinkedHashMap<>(builders.get(name));
      if (whole instanceof Map<?, ?> given) {
        merged.clear();
        given.forEach((k, v) -> merged.put(String.valueOf(k), v));
      } else if (whole != null) {
        throw new IllegalArgumentException("'" + PREFIX + name + "' must be a map, got " + whole);
      }
      merged.putAll(entries);
      folded.put(PREFIX + name, merged);
    });
    return folded;
  }

  /**
   * Calls {@code builder} for each entry through {@code keys}, then {@code build}; a failure of either
   * names the keys the topology configuration set, since the builder's messages name builder methods.
   * {@code seal-policies} replaces the builder's seal policies rather than adding to them, and the
   * draft's lists are restored afterwards, so building twice gives the same options.
   */
  public static <B, T> T applyAndBuild(
      Map<String, Object> prefixed, OptionKeys<B> keys, B builder, OptionsDraft draft, Supplier<T> build) {
    if (prefixed.isEmpty()) {
      return build.get();
    }
    List<ProviderChoice<SealPolicy>> sealPolicies = List.copyOf(draft.sealPolicies);
    Map<String, String> snapshotProperties = new LinkedHashMap<>(draft.snapshotProperties);
    if (prefixed.containsKey(PREFIX + "seal-policies")) {
      draft.sealPolicies.clear();
    }
    try {
      keys.readPrefixed(withEntriesFolded(prefixed, draft), PREFIX, builder);
      T built = build.get();
      // Key names only: values may be secrets.
      LOG.info("IcebergOptions: the topology configuration set {}, over the builder's values", prefixed.keySet());
      return built;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + " (the topology configuration set " + prefixed.keySet()
          + "; README.md's options table pairs each builder method named here with its key)", e);
    } finally {
      draft.sealPolicies.clear();
      draft.sealPolicies.addAll(sealPolicies);
      draft.snapshotProperties.clear();
      draft.snapshotProperties.putAll(snapshotProperties);
    }
  }

  private static void copyPrefixed(Map<String, ?> from, Map<String, Object> into) {
    from.forEach((key, value) -> {
      if (key.startsWith(PREFIX) && value != null) {
        into.put(key, value);
      }
    });
  }
}
