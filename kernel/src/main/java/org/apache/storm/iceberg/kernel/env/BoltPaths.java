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

package org.apache.storm.iceberg.kernel.env;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.StormTopology;

/**
 * How many bolts a spout's tuple can pass through on its way across a topology: the most bolts on a
 * path of subscriptions from a spout. Each of them acks its tuple of the tree once, so the acker may
 * hold an init and that many acks for every pending tuple. Assumes a bolt emits at most one anchored
 * tuple per input, as a sink's upstream bolts usually do; a bolt that fans out sends more acks.
 * A cycle of subscriptions is walked once.
 */
public final class BoltPaths {
  private final Map<String, List<String>> subscribers;
  private final Set<String> bolts;
  private final Map<String, Integer> longestFrom = new HashMap<>();
  private final Set<String> walking = new HashSet<>();

  private BoltPaths(Map<String, Bolt> topologyBolts) {
    bolts = topologyBolts.keySet();
    subscribers = topologyBolts.entrySet().stream()
        .flatMap(bolt -> inputs(bolt.getValue()).map(source -> Map.entry(source, bolt.getKey())))
        .collect(Collectors.groupingBy(Map.Entry::getKey, Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
  }

  /**
   * The most bolts on a path from any spout of {@code topology}; 0 when it has no bolt. A topology
   * built by hand (a detached task's, a test's) may leave a bolt's inputs unset: it subscribes to
   * nothing then.
   */
  public static int longest(StormTopology topology) {
    if (!topology.is_set_spouts() || !topology.is_set_bolts()) {
      return 0;
    }
    BoltPaths paths = new BoltPaths(topology.get_bolts());
    return topology.get_spouts().keySet().stream().mapToInt(paths::longestFrom).max().orElse(0);
  }

  private static Stream<String> inputs(Bolt bolt) {
    if (!bolt.is_set_common() || !bolt.get_common().is_set_inputs()) {
      return Stream.empty();
    }
    return bolt.get_common().get_inputs().keySet().stream().map(GlobalStreamId::get_componentId).distinct();
  }

  /** The bolts on the longest path that starts at {@code component}, itself included when it is a bolt. */
  private int longestFrom(String component) {
    Integer known = longestFrom.get(component);
    if (known != null) {
      return known;
    }
    if (!walking.add(component)) {
      return 0;
    }
    int below = 0;
    for (String subscriber : subscribers.getOrDefault(component, List.of())) {
      below = Math.max(below, longestFrom(subscriber));
    }
    walking.remove(component);
    int longest = (bolts.contains(component) ? 1 : 0) + below;
    longestFrom.put(component, longest);
    return longest;
  }
}
