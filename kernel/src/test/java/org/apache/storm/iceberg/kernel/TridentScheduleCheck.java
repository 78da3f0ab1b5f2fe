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

package org.apache.storm.iceberg.kernel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.relocated.com.google.common.collect.HashMultiset;
import org.apache.iceberg.relocated.com.google.common.collect.Multiset;
import org.apache.iceberg.types.TypeUtil;
import org.apache.storm.iceberg.kernel.commit.SummaryKeys;
import org.apache.storm.trident.state.StateType;

/**
 * What a user checks after a Trident fault schedule, on the table alone, against the final attempt
 * of every txid the coordinator recorded (never deduplicating before counting):
 *
 * <ul>
 *   <li>the table reads cleanly, and holds every id exactly once, with its final attempt's payload
 *       (transactional: the one payload its txid ever had);
 *   <li>every snapshot is a Trident transaction's, of a txid the coordinator reached, and adds or
 *       removes files: none for an empty batch, but for an opaque state's fence (an empty commit
 *       where a state began a commit phase unsettled, see {@link TridentSchedule#fenceable});
 *   <li>a transaction is one snapshot per txid and partition (per txid for the whole stream): a
 *       transactional one exactly one; an opaque one one append, then only the overwrites that
 *       replaced it on replays (Iceberg names one that adds no file a delete);
 *   <li>the live files of each txid and partition come from one snapshot and hold exactly what its
 *       final attempt brought that partition, and nothing lives for a txid whose final attempt
 *       brought it nothing.
 * </ul>
 */
final class TridentScheduleCheck {
  private static final String PARTITION_KEY = SummaryKeys.RESERVED_PREFIX + "trident-partition";
  private static final String TXID_KEY = SummaryKeys.RESERVED_PREFIX + "trident-txid";

  /** One partition's part of one txid. */
  record Part(String partition, long txid) implements Comparable<Part> {
    @Override
    public int compareTo(Part other) {
      int byTxid = Long.compare(txid, other.txid);
      return byTxid != 0 ? byTxid : partition.compareTo(other.partition);
    }
  }

  /** What the check saw, for the summary. */
  record Seen(int snapshots, int replacements, int fences) {}

  private final TridentSchedule run;
  private final Table table;

  TridentScheduleCheck(TridentSchedule run, Table table) {
    this.run = run;
    this.table = table;
  }

  Seen check() {
    table.refresh();
    Map<Long, String> expectedPayloads = new TreeMap<>();
    Map<Part, Multiset<String>> expectedParts = new TreeMap<>();
    run.coordinator.recorded().values().forEach(batch -> batch.events().forEach(event -> {
      expectedPayloads.put(event.id(), event.payload());
      expectedParts.computeIfAbsent(partOf(event.id(), batch.txid()), p -> HashMultiset.create()).add(event.payload());
    }));
    Map<String, List<String>> payloadsByFile = new HashMap<>();
    checkRows(expectedPayloads, payloadsByFile);
    Map<String, Part> liveFiles = new HashMap<>();
    Seen seen = checkSnapshots(liveFiles);
    checkLiveParts(expectedParts, liveFiles, payloadsByFile);
    return seen;
  }

  private Part partOf(long id, long txid) {
    return new Part(run.variant == TridentSchedule.Variant.PARTITIONS ? Long.toString(id % run.partitions)
        : "whole-stream", txid);
  }

  /** Every id once, with its final attempt's payload: zero missing, zero duplicates, counted. */
  private void checkRows(Map<Long, String> expected, Map<String, List<String>> payloadsByFile) {
    Map<Long, List<String>> rows = new TreeMap<>();
    Schema withFile = TypeUtil.join(table.schema().select("id", "payload"), new Schema(MetadataColumns.FILE_PATH));
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).project(withFile).build()) {
      for (Record row : records) {
        String payload = (String) row.getField("payload");
        rows.computeIfAbsent((Long) row.getField("id"), id -> new ArrayList<>()).add(payload);
        payloadsByFile.computeIfAbsent(row.getField(MetadataColumns.FILE_PATH.name()).toString(), f -> new ArrayList<>()).add(payload);
      }
    } catch (IOException | RuntimeException e) {
      throw run.violation("the table does not read cleanly", e);
    }
    for (Map.Entry<Long, String> id : expected.entrySet()) {
      List<String> found = rows.getOrDefault(id.getKey(), List.of());
      if (found.isEmpty()) {
        throw run.violation("id " + id.getKey() + " is missing from the table (its final attempt: " + id.getValue() + ")");
      }
      if (found.size() > 1) {
        throw run.violation("id " + id.getKey() + " is in the table " + found.size() + " times: " + found
            + " (its final attempt: " + id.getValue() + ")");
      }
      if (!found.get(0).equals(id.getValue())) {
        throw run.violation("id " + id.getKey() + " holds " + found.get(0) + " of an earlier attempt, not "
            + id.getValue() + " of the final one");
      }
    }
    rows.keySet().removeAll(expected.keySet());
    if (!rows.isEmpty()) {
      throw run.violation("the table holds ids no recorded batch brought: " + rows);
    }
  }

  private Seen checkSnapshots(Map<String, Part> liveFiles) {
    Map<Part, List<Snapshot>> byPart = new TreeMap<>();
    Map<String, Part> addedBy = new HashMap<>();
    Map<String, Long> addedIn = new HashMap<>();
    int snapshots = 0;
    int replacements = 0;
    int fences = 0;
    Set<Long> emptySnapshots = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      snapshots++;
      Map<String, String> summary = snapshot.summary();
      if (summary.get(PARTITION_KEY) == null || summary.get(TXID_KEY) == null) {
        throw run.violation("snapshot " + snapshot.snapshotId() + " carries no Trident transaction: " + summary);
      }
      Part part = new Part(summary.get(PARTITION_KEY), Long.parseLong(summary.get(TXID_KEY)));
      if (part.txid() > run.coordinator.lastRecorded()) {
        throw run.violation("snapshot " + snapshot.snapshotId() + " commits txid " + part.txid()
            + ", beyond the last one the coordinator recorded (" + run.coordinator.lastRecorded() + ")");
      }
      SnapshotChanges changes = SnapshotChanges.builderFor(table).snapshot(snapshot).build();
      int added = 0;
      for (DataFile file : changes.addedDataFiles()) {
        added++;
        addedBy.put(file.location(), part);
        addedIn.put(file.location(), snapshot.snapshotId());
      }
      int removed = 0;
      for (DataFile ignored : changes.removedDataFiles()) {
        removed++;
      }
      boolean fence = run.type == StateType.OPAQUE && run.fenceable.contains(part);
      if (added == 0 && removed == 0 && !fence) {
        throw run.violation("snapshot " + snapshot.snapshotId() + " (" + snapshot.operation() + ") of txid " + part.txid()
            + " partition " + part.partition() + " neither adds nor removes a file: a snapshot for an empty batch");
      }
      if (added == 0 && removed == 0) {
        fences++;
        emptySnapshots.add(snapshot.snapshotId());
      }
      byPart.computeIfAbsent(part, p -> new ArrayList<>()).add(snapshot);
    }
    for (Map.Entry<Part, List<Snapshot>> part : byPart.entrySet()) {
      List<Snapshot> commits = part.getValue();
      String what = "txid " + part.getKey().txid() + " partition " + part.getKey().partition();
      if (run.type == StateType.TRANSACTIONAL && commits.size() != 1) {
        throw run.violation(what + " was committed in " + commits.size() + " snapshots, not one");
      }
      boolean replacedOnly = true;
      for (int i = 1; i < commits.size(); i++) {
        // Iceberg names an overwrite that only deletes a delete, and one that only adds (replacing
        // a fence, which added nothing) an append.
        String operation = commits.get(i).operation();
        boolean replacesFence = "append".equals(operation) && emptySnapshots.contains(commits.get(i - 1).snapshotId());
        replacedOnly &= "overwrite".equals(operation) || "delete".equals(operation) || replacesFence;
      }
      if (!"append".equals(commits.get(0).operation()) || !replacedOnly) {
        throw run.violation(what + " was committed as " + commits.stream().map(Snapshot::operation).toList()
            + ": one append, then only the overwrites of its replays");
      }
      replacements += commits.size() - 1;
    }
    Map<Part, Set<Long>> liveSnapshots = new TreeMap<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        String file = task.file().location();
        liveFiles.put(file, addedBy.get(file));
        liveSnapshots.computeIfAbsent(addedBy.get(file), p -> new TreeSet<>()).add(addedIn.get(file));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    liveSnapshots.forEach((part, ids) -> {
      if (ids.size() > 1) {
        throw run.violation("txid " + part.txid() + " partition " + part.partition() + " lives in " + ids.size()
            + " snapshots " + ids + ": it was committed more than once");
      }
    });
    return new Seen(snapshots, replacements, fences);
  }

  /** Each txid's live rows, per partition, are its final attempt's, from one snapshot's files. */
  private void checkLiveParts(
      Map<Part, Multiset<String>> expected, Map<String, Part> liveFiles, Map<String, List<String>> payloadsByFile) {
    Map<Part, Multiset<String>> live = new TreeMap<>();
    liveFiles.forEach((file, part) -> live.computeIfAbsent(part, p -> HashMultiset.create())
        .addAll(payloadsByFile.getOrDefault(file, List.of())));
    for (Part part : live.keySet()) {
      if (!Objects.equals(live.get(part), expected.get(part))) {
        throw run.violation("txid " + part.txid() + " partition " + part.partition() + " holds " + live.get(part)
            + " but its final attempt brought " + expected.get(part));
      }
    }
    expected.keySet().removeAll(live.keySet());
    if (!expected.isEmpty()) {
      throw run.violation("the table holds nothing of " + expected.keySet());
    }
  }
}
