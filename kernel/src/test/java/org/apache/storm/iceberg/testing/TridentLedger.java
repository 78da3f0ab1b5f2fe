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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * What the test spouts ({@link TransactionalIdsSpout}, {@link OpaqueIdsSpout}) emitted, per txid
 * and spout partition, shared with the test through a static registry (LocalCluster runs in the
 * test's JVM). Each emission of a (txid, partition) replaces the one before it, so once a
 * transaction is committed the ledger holds exactly what its final attempt emitted.
 */
public final class TridentLedger {
  private static final Map<String, TridentLedger> LEDGERS = new ConcurrentHashMap<>();

  /** The latest emission of each txid, by spout partition. */
  private final Map<Long, Map<String, List<Long>>> latest = new ConcurrentHashMap<>();
  private final Map<String, Integer> emissions = new ConcurrentHashMap<>();
  /** The txids some emission of which carried ids. */
  private final Set<Long> everNonEmpty = ConcurrentHashMap.newKeySet();
  /** The newest txid emitted since {@link #newRun()}. */
  private final AtomicLong newestThisRun = new AtomicLong(-1);

  public static TridentLedger of(String key) {
    return LEDGERS.computeIfAbsent(key, k -> new TridentLedger());
  }

  /** Records what (txid, partition) emitted now. */
  void record(long txid, String partition, List<Long> ids) {
    latest.computeIfAbsent(txid, t -> new ConcurrentHashMap<>()).put(partition, List.copyOf(ids));
    newestThisRun.accumulateAndGet(txid, Math::max);
    if (!ids.isEmpty()) {
      everNonEmpty.add(txid);
    }
    emissions.merge(txid + "/" + partition, 1, Integer::sum);
  }

  /** A topology (re)starts: txids emitted before it no longer show how far Trident got. */
  public void newRun() {
    newestThisRun.set(-1);
  }

  /**
   * Whether Trident has committed every txid whose final attempt carried ids. Trident's master
   * coordinator starts txid {@code t} only when every txid up to {@code t - maxPending} is
   * committed, and a committed txid is never replayed (unless a kill cut its commit record short).
   */
  public boolean committedEveryRow(int maxPending) {
    long lastWithRows = latest.entrySet().stream().filter(e -> e.getValue().values().stream().anyMatch(ids -> !ids.isEmpty()))
        .mapToLong(Map.Entry::getKey).max().orElse(Long.MAX_VALUE - maxPending);
    return newestThisRun.get() >= lastWithRows + maxPending;
  }

  /** How many times (txid, partition) was emitted so far. */
  int emissionsOf(long txid, String partition) {
    return emissions.getOrDefault(txid + "/" + partition, 0);
  }

  /** The ids the latest emission of every txid carried, one entry per emitted row, sorted. */
  public List<Long> finalIds() {
    List<Long> ids = new ArrayList<>();
    latest.values().forEach(byPartition -> byPartition.values().forEach(ids::addAll));
    ids.sort(null);
    return ids;
  }

  /** The ids of the latest emission of each txid, by txid (txids that emitted nothing included). */
  public TreeMap<Long, List<Long>> finalIdsByTxid() {
    TreeMap<Long, List<Long>> byTxid = new TreeMap<>();
    latest.forEach((txid, byPartition) -> byTxid.put(txid,
        byPartition.values().stream().flatMap(List::stream).sorted().collect(Collectors.toList())));
    return byTxid;
  }

  /** The txids no emission of which carried any id. */
  public Set<Long> alwaysEmptyTxids() {
    return latest.keySet().stream().filter(txid -> !everNonEmpty.contains(txid)).collect(Collectors.toSet());
  }

  /** Whether some partition's batch of {@code txid} was emitted more than once. */
  public boolean replayed(long txid) {
    return emissions.entrySet().stream().anyMatch(e -> e.getKey().startsWith(txid + "/") && e.getValue() > 1);
  }

  /** How many (txid, partition) emissions were replays of an earlier one. */
  public int replays() {
    return emissions.values().stream().mapToInt(n -> n - 1).sum();
  }
}
