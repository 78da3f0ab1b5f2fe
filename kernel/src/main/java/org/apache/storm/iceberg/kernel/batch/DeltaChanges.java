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
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.deletes.DeleteGranularity;
import org.apache.iceberg.io.BaseTaskWriter;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.PartitioningDVWriter;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.util.StructLikeMap;
import org.apache.storm.iceberg.kernel.batch.BatchFiles.Written;
import org.apache.storm.iceberg.kernel.change.ChangeWriter;
import org.apache.storm.iceberg.kernel.change.RowModel;

/**
 * The changes of a batch that streams ({@link org.apache.storm.iceberg.kernel.change.KeyedChanges#stream}),
 * written as they arrive through Iceberg's {@link BaseTaskWriter.BaseEqualityDeltaWriter}, one per
 * partition: rows into rolling data files, a key's removal of what earlier commits hold into rolling
 * equality-delete files, and the removal of a row this batch wrote as a position delete of it, in
 * position-delete files (format version 2) or deletion vectors ({@link PartitioningDVWriter}, format
 * version 3). Everything it writes commits in the batch's one row delta.
 *
 * <p>Iceberg's delta writer keeps each key it wrote with its row's file and position until the batch
 * seals, not the row. Not thread-safe: one task's executor thread owns it.
 *
 * @param <R> the row type ({@link RowModel})
 */
final class DeltaChanges<R extends StructLike> extends BaseTaskWriter<R> implements ChangeWriter<R> {
  private final Schema schema;
  private final RowModel<R> model;
  private final Schema keySchema;
  private final DeleteGranularity granularity;
  /** Null on format version 2. */
  private final PartitioningDVWriter<R> deletionVectors;
  private final Map<StructLike, KeyDelta> byPartition;
  private KeyDelta unpartitioned;

  /**
   * @param writers writes data, equality-delete (of {@code keySchema}) and position-delete files
   * @param model how the rows hold their values, which the delta writer compares keys by
   * @param dvFiles names the deletion-vector (Puffin) files on format version 3; null on version 2,
   *     which writes position-delete files in the data files' format with {@code granularity}
   */
  DeltaChanges(
      PartitionSpec spec, FileFormat format, FileWriterFactory<R> writers, RowModel<R> model, OutputFileFactory files,
      OutputFileFactory dvFiles, FileIO io, long targetFileSize, Schema schema, Schema keySchema,
      DeleteGranularity granularity) {
    // Not BaseTaskWriter's own deletion-vector flag: it names the Puffin files after the data files' format.
    super(spec, format, writers, files, io, targetFileSize);
    this.schema = schema;
    this.model = model;
    this.keySchema = keySchema;
    this.granularity = granularity;
    // No earlier deletes to merge: the vectors only mark rows of this batch's own new files.
    this.deletionVectors = dvFiles == null ? null : new PartitioningDVWriter<>(dvFiles, path -> null);
    this.byPartition = StructLikeMap.create(spec.partitionType());
  }

  @Override
  public void write(R row) {
    throw new IllegalStateException("a streamed change is written with its partition");
  }

  @Override
  public void write(R row, StructLike partition) {
    try {
      writerFor(partition).write(row);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the batch's row", e);
    }
  }

  @Override
  public void deleteKey(R key, StructLike partition) {
    try {
      writerFor(partition).deleteKey(key);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the batch's delete of a key", e);
    }
  }

  /** The partitions written so far, each with its delta writer. */
  int partitions() {
    return byPartition.size() + (unpartitioned == null ? 0 : 1);
  }

  private KeyDelta writerFor(StructLike partition) {
    if (spec().isUnpartitioned()) {
      if (unpartitioned == null) {
        unpartitioned = new KeyDelta(null);
      }
      return unpartitioned;
    }
    KeyDelta writer = byPartition.get(partition);
    if (writer == null) {
      StructLike copy = partition instanceof PartitionKey key ? key.copy() : partition;
      writer = new KeyDelta(copy);
      byPartition.put(copy, writer);
    }
    return writer;
  }

  /**
   * Closes every file: the batch's data files, and its equality-delete, position-delete and
   * deletion-vector files together.
   */
  Written finish() throws IOException {
    closeWriters();
    List<DeleteFile> deletes = new ArrayList<>();
    if (deletionVectors != null) {
      deletionVectors.close();
      deletes.addAll(deletionVectors.result().deleteFiles());
    }
    WriteResult result = complete();
    deletes.addAll(List.of(result.deleteFiles()));
    return new Written(List.of(result.dataFiles()), deletes, null);
  }

  private void closeWriters() throws IOException {
    List<KeyDelta> writers = new ArrayList<>(byPartition.values());
    if (unpartitioned != null) {
      writers.add(unpartitioned);
    }
    byPartition.clear();
    unpartitioned = null;
    for (KeyDelta writer : writers) {
      writer.close();
    }
  }

  /** Closes every file opened, ignoring failures: the batch is abandoned and its files are orphans. */
  void closeQuietly() {
    try {
      closeWriters();
    } catch (IOException | RuntimeException e) {
      // Abandoned: its files are orphans whether or not they close cleanly.
    }
    try {
      if (deletionVectors != null) {
        deletionVectors.close();
      }
    } catch (IOException | RuntimeException e) {
      // As above.
    }
  }

  /** One partition's delta writer. */
  private final class KeyDelta extends BaseEqualityDeltaWriter {
    // Keys compare in Iceberg's internal representation (as the delta writer's key map hashes them).
    private final UnaryOperator<StructLike> rowView = model.internalView(schema);
    private final UnaryOperator<StructLike> keyView = model.internalView(keySchema);

    KeyDelta(StructLike partition) {
      super(partition, schema, keySchema, granularity, deletionVectors);
    }

    @Override
    protected StructLike asStructLike(R row) {
      return rowView.apply(row);
    }

    @Override
    protected StructLike asStructLikeKey(R key) {
      return keyView.apply(key);
    }
  }
}
