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

package org.apache.storm.iceberg.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.storm.iceberg.examples.IcebergKafkaExampleTopology;

/**
 * The changelog table of {@code IcebergKafkaExampleTopology --changelog} ({@code key -> value}) and
 * the model of the source it must equal: records {@code 0..n-1} in order, record {@code id} with
 * key {@code id % keys} and value {@code id}, each deleting its key or setting its value as the
 * example's {@link IcebergKafkaExampleTopology#operation(long)} says.
 */
final class ChangesTable {
  private ChangesTable() {}

  /** Each key's final value; a key whose last change deleted it is absent. */
  static Map<Long, Long> model(long records, long keys) {
    Map<Long, Long> rows = new TreeMap<>();
    for (long id = 0; id < records; id++) {
      if (IcebergKafkaExampleTopology.operation(id).equals("d")) {
        rows.remove(id % keys);
      } else {
        rows.put(id % keys, id);
      }
    }
    return rows;
  }

  /** Reads the whole table back with Iceberg's generic reader (deletes applied) and compares it with {@code model}, key by key. */
  static Comparison compare(Table table, Map<Long, Long> model) throws IOException {
    long started = System.nanoTime();
    table.refresh();
    Map<Long, List<Long>> valuesPerKey = new TreeMap<>();
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      for (Record row : rows) {
        valuesPerKey.computeIfAbsent((Long) row.getField("key"), key -> new ArrayList<>()).add((Long) row.getField("value"));
      }
    }
    Map<Long, String> wrong = new TreeMap<>();
    Map<Long, List<Long>> twice = new TreeMap<>();
    List<Long> extra = new ArrayList<>();
    long rows = 0;
    for (Map.Entry<Long, List<Long>> key : valuesPerKey.entrySet()) {
      rows += key.getValue().size();
      Long expected = model.get(key.getKey());
      if (key.getValue().size() > 1) {
        twice.put(key.getKey(), key.getValue());
      } else if (expected == null) {
        extra.add(key.getKey());
      } else if (!expected.equals(key.getValue().get(0))) {
        wrong.put(key.getKey(), key.getValue().get(0) + " instead of " + expected);
      }
    }
    List<Long> missing = model.keySet().stream().filter(key -> !valuesPerKey.containsKey(key)).toList();
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    long equalityDeletes = snapshots.stream()
        .mapToLong(s -> Long.parseLong(s.summary().getOrDefault(SnapshotSummary.ADDED_EQ_DELETES_PROP, "0"))).sum();
    Map<String, String> current = table.currentSnapshot() == null ? Map.of() : table.currentSnapshot().summary();
    return new Comparison(model.size(), rows, wrong, missing, extra, twice, snapshots, equalityDeletes,
        Long.parseLong(current.getOrDefault(SnapshotSummary.TOTAL_DATA_FILES_PROP, "0")),
        Long.parseLong(current.getOrDefault(SnapshotSummary.TOTAL_DELETE_FILES_PROP, "0")),
        (System.nanoTime() - started) / 1_000_000);
  }

  /**
   * What the changelog sink's workers logged: batches failed (their tuples replay) and sequence
   * inversions (a batch older than one its task committed).
   */
  static String sinkLog(RealCluster cluster) throws IOException {
    String executor = IcebergKafkaExampleTopology.CHANGES_SINK + "-executor";
    List<String> failed = cluster.workerLogLines(executor, "BatchFailures - Failing ");
    long tuples = failed.stream()
        .mapToLong(line -> Long.parseLong(line.substring(line.indexOf("Failing ") + 8).split(" ")[0])).sum();
    return String.format("changelog sink logged %d failed batches (%d tuples, replayed), %d sequence inversions", failed.size(),
        tuples, cluster.workerLogLines(executor, "holds sequence number").size());
  }

  /** The table against the model: keys with a wrong value, missing, extra, or in more than one row. */
  record Comparison(long modelRows, long rows, Map<Long, String> wrong, List<Long> missing, List<Long> extra,
      Map<Long, List<Long>> twice, List<Snapshot> snapshots, long equalityDeletes, long dataFiles, long deleteFiles,
      long readMillis) {
    @Override
    public String toString() {
      return String.format("%d rows (model: %d keys live); %d keys wrong, %d missing, %d extra, %d in several rows;"
              + " %d snapshots, %d equality deletes committed, %d data files and %d delete files live; read back in %d ms",
          rows, modelRows, wrong.size(), missing.size(), extra.size(), twice.size(), snapshots.size(), equalityDeletes,
          dataFiles, deleteFiles, readMillis);
    }
  }
}
