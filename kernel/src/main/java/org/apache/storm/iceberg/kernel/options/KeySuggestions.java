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

import java.util.Set;
import java.util.TreeSet;

/** The message for an unknown prefixed option key: the key meant, when one is close, and where to fix it. */
final class KeySuggestions {
  /** Edits (insertions, deletions, substitutions) within which a known key is taken as the one meant. */
  private static final int CLOSE = 3;

  private KeySuggestions() {}

  static String unknown(String key, String prefix, Set<String> known) {
    String where = "; fix or remove it where the topology configuration is set (storm jar -c, Flux's config:,"
        + " the topology's Config). The " + prefix + "* keys are IcebergOptions.fromMap's keys: " + new TreeSet<>(known);
    if (!key.startsWith(prefix)) {
      return "'" + key + "' is not an " + prefix + "* key" + where;
    }
    String name = key.substring(prefix.length());
    int dot = name.indexOf('.');
    if (dot > 0 && known.contains(name.substring(0, dot))) {
      String whole = prefix + name.substring(0, dot);
      return "unknown topology configuration key '" + key + "': '" + whole + "' takes one value, not entries; only"
          + " catalog, hadoop-configuration, write-properties and snapshot-properties take entries such as '"
          + prefix + "catalog.uri'" + where;
    }
    String closest = closest(name, known);
    return "unknown topology configuration key '" + key + "'"
        + (closest == null ? "" : ": did you mean '" + prefix + closest + "'?") + where;
  }

  private static String closest(String name, Set<String> known) {
    String best = null;
    int bestDistance = CLOSE + 1;
    for (String candidate : new TreeSet<>(known)) {
      int distance = distance(name, candidate);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** Levenshtein distance. */
  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
