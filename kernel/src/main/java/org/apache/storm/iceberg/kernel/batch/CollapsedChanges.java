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

package org.apache.storm.iceberg.kernel.batch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingEqualityDeleteWriter;
import org.apache.iceberg.util.StructLikeMap;
import org.apache.storm.iceberg.kernel.change.ChangeRow;
import org.apache.storm.iceberg.kernel.change.KeyFinal;
import org.apache.storm.iceberg.kernel.change.KeyedChanges;
import org.apache.storm.iceberg.spi.SourcePosition;

/**
 * Row-level changes, collapsed by key as they arrive ({@link KeyedChanges}) and written at the seal:
 * per partition one rolling equality-delete file of the keys changed, then each key's final row
 * through the fanout data writer. Deletes and rows commit together, in one row delta: a delete
 * applies only to rows of earlier commits, so the batch's own rows stand.
 *
 * <p>A batch that changes more than {@code maxHeldKeys} keys streams instead, for the rest of it:
 * the change that brings its first key beyond the bound writes what it holds, and every later change
 * is written as it arrives, through Iceberg's delta writer ({@link DeltaChanges}).
 *
 * @param <R> the row type ({@link org.apache.storm.iceberg.kernel.change.RowModel})
 */
final class CollapsedChanges<R extends StructLike> implements BatchFiles<ChangeRow<R>> {
  private final KeyedChanges<R> changes;
  private final FileWriterFactory<R> writers;
  private final OutputFileFactory fileFactory;
  private final FileIO io;
  private final long targetFileSize;
  private final FanoutFiles<R> rows;
  private final List<RollingEqualityDeleteWriter<R>> deleteWriters = new ArrayList<>();
  private PartitionSpec spec;
  private String laneSource;
  private int lanePartition = -1;
  private String lane;
  private final int maxHeldKeys;
  private final Function<PartitionSpec, DeltaChanges<R>> newDelta;
  /** Null until the batch streams. */
  private DeltaChanges<R> delta;

  CollapsedChanges(
      KeyedChanges<R> changes, FileWriterFactory<R> writers, OutputFileFactory fileFactory, FileIO io, long targetFileSize,
      int maxHeldKeys, Function<PartitionSpec, DeltaChanges<R>> newDelta) {
    this.changes = changes;
    this.maxHeldKeys = maxHeldKeys;
    this.newDelta = newDelta;
    this.writers = writers;
    this.fileFactory = fileFactory;
    this.io = io;
    this.targetFileSize = targetFileSize;
    this.rows = new FanoutFiles<>(writers, fileFactory, io, targetFileSize);
  }

  @Override
  public void write(ChangeRow<R> row, PartitionSpec rowSpec, PartitionKey partition) {
    this.spec = rowSpec;
    changes.put(row, partition);
    if (delta == null && changes.keys() > maxHeldKeys) {
      delta = newDelta.apply(rowSpec);
      changes.stream(delta);
    }
  }

  @Override
  public void from(SourcePosition position) {
    // Built here, not by the caller: an append batch takes positions on its hot path and needs no lane.
    // Consecutive tuples mostly come from one partition: its lane name is built once, not per tuple.
    if (!position.source().equals(laneSource) || position.partition() != lanePartition) {
      laneSource = position.source();
      lanePartition = position.partition();
      lane = laneSource + "/" + lanePartition;
    }
    changes.from(lane, position.offset());
  }

  @Override
  public long bytesWritten() {
    return 0;
  }

  @Override
  public int filesOpened() {
    // Until it streams the batch opens nothing; then each partition's delta writer holds a data file
    // and an equality-delete file open, which the open-files seal policy should see.
    return delta == null ? 0 : 2 * delta.partitions();
  }

  @Override
  public int partitions() {
    return delta == null ? 0 : delta.partitions();
  }

  @Override
  public Written close() {
    if (delta != null) {
      try {
        Written written = delta.finish();
        return new Written(written.dataFiles(), written.deleteFiles(), changes.summary(spec.specId()));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot close the batch's data and delete files", e);
      }
    }
    if (changes.isEmpty()) {
      return new Written(rows.close().dataFiles(), List.of(), changes.summary(spec == null ? -1 : spec.specId()));
    }
    List<DeleteFile> deletes = new ArrayList<>();
    for (Collection<KeyFinal<R>> partition : byPartition()) {
      StructLike partitionKey = partition.iterator().next().partition();
      RollingEqualityDeleteWriter<R> deleteWriter =
          new RollingEqualityDeleteWriter<>(writers, fileFactory, io, targetFileSize, spec, partitionKey);
      deleteWriters.add(deleteWriter);
      for (KeyFinal<R> state : partition) {
        deleteWriter.write(state.key());
        if (state.row() != null) {
          rows.write(state.row(), spec, asPartitionKey(partitionKey));
        }
      }
      try {
        deleteWriter.close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot close the batch's equality-delete file", e);
      }
      deletes.addAll(deleteWriter.result().deleteFiles());
    }
    Written written = rows.close();
    return new Written(written.dataFiles(), deletes, changes.summary(spec.specId()));
  }

  /** The batch's final states, grouped by partition: one group, as the keys came, when the table is unpartitioned. */
  private Collection<Collection<KeyFinal<R>>> byPartition() {
    if (spec.isUnpartitioned()) {
      return List.of(changes.finals());
    }
    // One map for the whole batch: a wrapper built per key (forType) cost more than writing the key's delete.
    Map<StructLike, Collection<KeyFinal<R>>> byPartition = StructLikeMap.create(spec.partitionType());
    for (KeyFinal<R> state : changes.finals()) {
      byPartition.computeIfAbsent(state.partition(), p -> new ArrayList<>()).add(state);
    }
    return byPartition.values();
  }

  private PartitionKey asPartitionKey(StructLike partition) {
    return (PartitionKey) partition;
  }

  @Override
  public void closeAllQuietly() {
    rows.closeAllQuietly();
    if (delta != null) {
      delta.closeQuietly();
    }
    for (RollingEqualityDeleteWriter<R> writer : deleteWriters) {
      try {
        writer.close();
      } catch (IOException | RuntimeException e) {
        // The batch is abandoned; its files are orphans whether or not they close cleanly.
      }
    }
  }
}
