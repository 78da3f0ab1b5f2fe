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


package org.apache.storm.iceberg.kernel.change;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ManifestEvaluator;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.StructLikeMap;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.spi.Redaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code iceberg-deletes-of-unseen-keys} tripwire: after a batch of changes lands, which of the
 * keys it removed without writing them no data file of the table could hold before the batch. Such a
 * delete is still applied (it removes nothing); it means the stream and the table disagree, as when a
 * change stream is started after its rows were written elsewhere, or a table was truncated.
 *
 * <p>"Could hold" is read from metadata only, never from data: a data file live in the batch's parent
 * snapshot could hold a key when it lies in the key's partition (under the batch's spec; a file of
 * another spec always could) and every key column's value lies within the file's lower and upper
 * bounds (a missing bound could hold anything). So a key the table once held and later deleted counts
 * as seen while its file is live, and the count is a lower bound, never a false alarm.
 *
 * <p>Cost: the committing thread looks up the landed snapshot (after a commit, the table reads its
 * metadata again) and copies its parent; the parent's data manifests that the keys' values can match
 * are read on a thread of the check's own, so no commit waits for them. One check runs at a time per task and one waits; a
 * batch that lands while both are taken is not checked, and a batch's first {@link ChangeSummary.RemovedKeys#LIMIT} such
 * keys are checked.
 */
final class UnseenKeys implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UnseenKeys.class);
  private static final int KEYS_NAMED = 5;

  private final String tableName;
  private final SinkMetrics metrics;
  private ThreadPoolExecutor thread;
  private volatile boolean closed;

  UnseenKeys(String tableName, SinkMetrics metrics) {
    this.tableName = tableName;
    this.metrics = metrics;
  }

  /**
   * What a check reads, captured on the committing thread: the parent snapshot (null when the batch's
   * commit was the table's first), the FileIO to read its manifests with, and the table's specs and
   * schema.
   */
  record Before(Snapshot parent, FileIO io, Map<Integer, PartitionSpec> specs, Schema schema) {
    static Before parentOf(Table table, Snapshot landed) {
      Snapshot parent = landed.parentId() == null ? null : table.snapshot(landed.parentId());
      if (landed.parentId() != null && parent == null) {
        return null; // the parent is expired already: nothing to compare with
      }
      // A copy of its own: a snapshot caches its manifests on first read, unsynchronized, and the
      // committing thread's table shares the original; the check reads them on its own thread.
      Snapshot copy = parent == null ? null : SnapshotParser.fromJson(SnapshotParser.toJson(parent));
      return new Before(copy, table.io(), table.specs(), table.schema());
    }
  }

  /**
   * Starts a check of {@code removed}, keys of a batch that landed as {@code landed} in {@code table},
   * unless one check runs and another waits already. Called on the committing thread, which owns
   * {@code table}.
   */
  void afterLanding(Table table, Snapshot landed, ChangeSummary.RemovedKeys removed) {
    if (closed || removed == null || removed.total() == 0 || landed == null) {
      return;
    }
    if (thread == null) {
      // One check running and one waiting: a batch landing while both are taken is not checked.
      thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(1), runnable -> {
        Thread daemon = new Thread(runnable, "iceberg-unseen-keys-" + tableName);
        daemon.setDaemon(true);
        return daemon;
      }, new ThreadPoolExecutor.DiscardPolicy());
    }
    if (thread.getQueue().remainingCapacity() == 0) {
      return;
    }
    Before before;
    try {
      before = Before.parentOf(table, landed);
    } catch (RuntimeException e) {
      LOG.debug("Cannot read {}'s snapshot before commit {}; its deleted keys are not checked", tableName, landed.snapshotId(),
          Redaction.of(e));
      return;
    }
    if (before == null) {
      return;
    }
    thread.execute(() -> {
      try {
        report(unseen(before, removed), removed.total(), landed.snapshotId());
      } catch (RuntimeException e) {
        LOG.debug("Cannot check the keys commit {} of {} deleted; they are not counted", landed.snapshotId(), tableName,
            Redaction.of(e));
      }
    });
  }

  private void report(List<ChangeSummary.RemovedKey> unseen, long removedTotal, long snapshotId) {
    if (unseen.isEmpty()) {
      return;
    }
    String named = unseen.stream().limit(KEYS_NAMED).map(ChangeSummary.RemovedKey::description).collect(Collectors.joining("; "));
    LOG.warn("Snapshot {} of {} deleted {} key(s) that no data file of the table could hold before it ({}{}){}: the deletes"
        + " are applied and remove nothing, but the change stream and the table disagree. A stream started after its"
        + " rows were written, a table truncated or rewritten, or changes routed to the wrong table do this; start the"
        + " stream from a snapshot of the source (Debezium's initial snapshot) to make them agree", snapshotId, tableName,
        unseen.size(), named, unseen.size() > KEYS_NAMED ? "; ..." : "",
        removedTotal > ChangeSummary.RemovedKeys.LIMIT
            ? " (the first " + ChangeSummary.RemovedKeys.LIMIT + " of " + removedTotal + " checked)" : "");
    // Counted after the line is logged, so whoever sees the count also finds the line.
    metrics.deletesOfUnseenKeys(unseen.size());
  }

  /** The keys of {@code removed} that no data file live in {@code before} could hold. */
  static List<ChangeSummary.RemovedKey> unseen(Before before, ChangeSummary.RemovedKeys removed) {
    List<ChangeSummary.RemovedKey> keys = removed.keys();
    if (before.parent() == null) {
      return keys;
    }
    KeyColumns columns = KeyColumns.of(removed.keySchema(), before.schema());
    if (columns == null) {
      return List.of(); // a key column is gone from the table: no answer worth a warning
    }
    Expression filter = columns.filter(keys);
    boolean[] seen = new boolean[keys.size()];
    Candidates candidates = new Candidates(keys, columns, removed.specId(), before.specs());
    for (ManifestFile manifest : before.parent().dataManifests(before.io())) {
      if (candidates.allSeen(seen)) {
        break;
      }
      PartitionSpec spec = before.specs().get(manifest.partitionSpecId());
      if (!ManifestEvaluator.forRowFilter(filter, spec, true).eval(manifest)) {
        continue;
      }
      try (ManifestReader<DataFile> files = ManifestFiles.read(manifest, before.io(), before.specs()).filterRows(filter)) {
        for (DataFile file : files) {
          candidates.markHeldBy(file, seen);
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    List<ChangeSummary.RemovedKey> unseen = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      if (!seen[i]) {
        unseen.add(keys.get(i));
      }
    }
    return unseen;
  }

  /** The key's columns as the table names and types them now. */
  private record KeyColumns(List<Types.NestedField> fields, List<Comparator<Object>> order) {
    static KeyColumns of(Schema keySchema, Schema tableSchema) {
      List<Types.NestedField> fields = new ArrayList<>();
      List<Comparator<Object>> order = new ArrayList<>();
      for (Types.NestedField keyField : keySchema.columns()) {
        Types.NestedField field = tableSchema.findField(keyField.fieldId());
        if (field == null) {
          return null;
        }
        fields.add(field);
        order.add(comparator(field.type()));
      }
      return new KeyColumns(fields, order);
    }

    @SuppressWarnings("unchecked")
    private static Comparator<Object> comparator(Type type) {
      return (Comparator<Object>) (Comparator<?>) Comparators.forType(type.asPrimitiveType());
    }

    /**
     * Every key column in the set of the keys' values: what manifests and files are pruned by. A
     * timestamp_ns column is left out: Iceberg reads a long literal as microseconds, and the keys'
     * values are nanoseconds (the bounds check below still compares them).
     */
    Expression filter(List<ChangeSummary.RemovedKey> keys) {
      Expression filter = Expressions.alwaysTrue();
      for (int column = 0; column < fields.size(); column++) {
        if (fields.get(column).type().typeId() == Type.TypeID.TIMESTAMP_NANO) {
          continue;
        }
        Set<Object> values = new LinkedHashSet<>();
        for (ChangeSummary.RemovedKey key : keys) {
          values.add(key.key().get(column, Object.class));
        }
        filter = Expressions.and(filter, Expressions.in(fields.get(column).name(), (Collection<Object>) values));
      }
      return filter;
    }

    /** A file's lower or upper bound of each key column, null where it has none. */
    Object[] bounds(Map<Integer, ByteBuffer> bounds) {
      Object[] values = new Object[fields.size()];
      for (int column = 0; column < values.length; column++) {
        ByteBuffer bound = bounds == null ? null : bounds.get(fields.get(column).fieldId());
        values[column] = bound == null ? null : Conversions.fromByteBuffer(fields.get(column).type(), bound);
      }
      return values;
    }

    /** Whether every column of {@code key} lies within the bounds (a null bound holds anything). */
    boolean within(StructLike key, Object[] lower, Object[] upper) {
      for (int column = 0; column < lower.length; column++) {
        Object value = key.get(column, Object.class);
        Comparator<Object> compare = order.get(column);
        if (lower[column] != null && compare.compare(lower[column], value) > 0
            || upper[column] != null && compare.compare(value, upper[column]) > 0) {
          return false;
        }
      }
      return true;
    }
  }

  /** The keys grouped by partition, so that a file is compared with the keys of its own partition only. */
  private static final class Candidates {
    private final List<ChangeSummary.RemovedKey> keys;
    private final KeyColumns columns;
    private final int specId;
    private final Map<StructLike, List<Integer>> byPartition;
    private int seenCount;

    Candidates(List<ChangeSummary.RemovedKey> keys, KeyColumns columns, int specId, Map<Integer, PartitionSpec> specs) {
      this.keys = keys;
      this.columns = columns;
      this.specId = specId;
      PartitionSpec spec = specs.get(specId);
      this.byPartition = spec == null || spec.isUnpartitioned() ? null : StructLikeMap.create(spec.partitionType());
      if (byPartition != null) {
        for (int i = 0; i < keys.size(); i++) {
          byPartition.computeIfAbsent(keys.get(i).partition(), p -> new ArrayList<>()).add(i);
        }
      }
    }

    boolean allSeen(boolean[] seen) {
      return seenCount == seen.length;
    }

    void markHeldBy(DataFile file, boolean[] seen) {
      Object[] lower = columns.bounds(file.lowerBounds());
      Object[] upper = columns.bounds(file.upperBounds());
      if (byPartition != null && file.specId() == specId) {
        List<Integer> partition = byPartition.get(file.partition());
        if (partition != null) {
          partition.forEach(i -> mark(i, lower, upper, seen));
        }
      } else {
        for (int i = 0; i < keys.size(); i++) {
          mark(i, lower, upper, seen);
        }
      }
    }

    private void mark(int i, Object[] lower, Object[] upper, boolean[] seen) {
      if (!seen[i] && columns.within(keys.get(i).key(), lower, upper)) {
        seen[i] = true;
        seenCount++;
      }
    }
  }

  @Override
  public void close() {
    closed = true; // a batch settling after the task began to stop starts no thread
    if (thread != null) {
      thread.shutdownNow();
    }
  }
}
