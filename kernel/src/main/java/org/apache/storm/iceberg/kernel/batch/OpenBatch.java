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
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.storm.iceberg.kernel.ack.HeldTuples;
import org.apache.storm.iceberg.kernel.ack.Holders;
import org.apache.storm.iceberg.kernel.change.RowChanges;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.apache.storm.iceberg.spi.BatchStats;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.MultiRecordMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.tuple.ITuple;
import org.apache.storm.tuple.Tuple;

/**
 * One batch being written: open data files (one per partition, through Iceberg's fanout writer, all
 * against the one table metadata version the batch was opened with) and the tuples they hold, not
 * yet acked. Rows ({@link BatchRows}: internal rows or generic records) go straight to the file
 * writers; of each tuple only its ack identity is kept ({@link HeldTuples}).
 *
 * <p>Not thread-safe: one task's executor thread owns it.
 */
public final class OpenBatch<T> {
  private final BatchRows<T> rows;
  private final PartitionSpec spec;
  private final BatchFiles<T> files;
  private final PartitionKey partitionKey;
  private final HeldTuples tuples;
  private final Positions positions = new Positions();
  private final long openedAtMillis;
  private final ByteEstimates estimates;
  private long records;
  private long bytes;

  private OpenBatch(
      Table table, PartitionSpec spec, BatchRows<T> rows, FileFormat format, int partitionId, long taskId, long nowMillis,
      Path spillDirectory, long bytesLimit, long targetFileSize) {
    this.rows = rows;
    this.estimates = new ByteEstimates(bytesLimit);
    this.tuples = Holders.compact(spillDirectory);
    this.spec = spec;
    // The batch's spec, not the table's current one, names files that Iceberg's writers name by
    // partition alone (the streaming delta writer's): a pinned spec may no longer be the table's.
    OutputFileFactory fileFactory =
        OutputFileFactory.builderFor(table, partitionId, taskId)
            .defaultSpec(spec)
            .format(format)
            .operationId(UUID.randomUUID().toString())
            .build();
    // Built only if the batch streams changes into deletion vectors: Puffin files, named as such.
    Supplier<OutputFileFactory> dvFiles = () -> OutputFileFactory.builderFor(table, partitionId, taskId)
        .defaultSpec(spec)
        .format(FileFormat.PUFFIN)
        .operationId(UUID.randomUUID().toString())
        .build();
    this.files = rows.files(fileFactory, dvFiles, table.io(), targetFileSize);
    this.partitionKey = new PartitionKey(spec, rows.schema);
    this.openedAtMillis = nowMillis;
  }

  /**
   * Opens a batch against the table's current schema and spec (the caller has refreshed it), with
   * the rows the mapper and format choose ({@link BatchRows#choose}); the mapper is given {@code
   * mapperSchema}, the same schema with its former names. Its held ack ids spill into {@code
   * spillDirectory}. Its byte estimate is refreshed often enough near {@code bytesLimit} (the
   * smallest bytes threshold, {@link Long#MAX_VALUE} for none) to seal within about a record of it.
   */
  public static OpenBatch<?> open(
      Table table, FormerNamesSchema mapperSchema, RecordMapper mapper, FileFormatWriter format, int partitionId,
      long taskId, long nowMillis, Path spillDirectory, long bytesLimit) {
    long targetFileSize =
        PropertyUtil.propertyAsLong(
            table.properties(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    return open(table, mapperSchema, new RowCheck.ForSchema(table.schema(), false), mapper, null, null, format, partitionId,
        taskId, nowMillis, spillDirectory, bytesLimit, targetFileSize);
  }

  /**
   * As above, with the row checks of the table's current schema, which the caller keeps across
   * batches, rolling each partition's file at {@code targetFileSize} bytes instead of the table's;
   * {@code many}, when not null, maps each tuple to its rows instead of {@code mapper}; {@code
   * changes}, when not null, makes each tuple a change of the row of its key, written under the
   * spec the changes are pinned to ({@link RowChanges#spec}) rather than the table's current one.
   */
  static OpenBatch<?> open(
      Table table, FormerNamesSchema mapperSchema, RowCheck.ForSchema checks, RecordMapper mapper, MultiRecordMapper many,
      RowChanges changes, FileFormatWriter format, int partitionId, long taskId, long nowMillis, Path spillDirectory,
      long bytesLimit, long targetFileSize) {
    BatchRows<?> rows = BatchRows.choose(mapper, many, format, table, table.schema(), mapperSchema, checks, changes);
    PartitionSpec spec = changes == null ? table.spec() : changes.spec();
    return new OpenBatch<>(table, spec, rows, format.format(), partitionId, taskId, nowMillis, spillDirectory, bytesLimit,
        targetFileSize);
  }

  /**
   * The tuple's row, as the mapper builds it for this batch's schema.
   *
   * @throws RuntimeException when the mapper refuses the tuple; the batch is intact
   */
  public T map(ITuple tuple) {
    return rows.map(tuple);
  }

  /** Whether each tuple carries many rows ({@link #mapAll}, {@link #writeAll}) rather than one. */
  public boolean manyRecords() {
    return rows.manyRecords();
  }

  /**
   * The tuple's rows, when {@link #manyRecords}, as the multi-record mapper builds them.
   *
   * @throws RuntimeException when the mapper refuses the tuple; the batch is intact
   */
  public List<T> mapAll(ITuple tuple) {
    return rows.mapAll(tuple);
  }

  /**
   * Writes the row into its partition's open file and holds the tuple until the batch settles.
   *
   * @throws RecordRejectedException when the file writer would refuse the record ({@link RowCheck}) or
   *     its partition cannot be computed; nothing was written and the batch is intact
   * @throws RuntimeException any other failure: the batch is broken and must be abandoned, and the
   *     tuple is not held by it
   */
  public void write(T row, Tuple tuple) {
    write(row);
    tuples.hold(tuple);
  }

  /**
   * As {@link #write(Object, Tuple)}, for a tuple at a source position, which the batch then holds
   * (with its source's identity, when known).
   */
  public void write(T row, Tuple tuple, SourcePosition position, String sourceIdentity) {
    files.from(position);
    write(row, tuple);
    holdPosition(position, sourceIdentity);
  }

  /**
   * Writes one tuple's rows and holds the tuple once, until the batch settles: every row or none.
   *
   * @throws RecordRejectedException when the file writer would refuse any of the rows, naming which;
   *     nothing was written and the batch is intact
   * @throws RuntimeException any other failure, as {@link #write(Object, Tuple)}
   */
  public void writeAll(List<T> all, Tuple tuple) {
    writeAll(all);
    tuples.hold(tuple);
  }

  /** As {@link #writeAll(List, Tuple)}, for a tuple at a source position, as {@link #write(Object, Tuple, SourcePosition, String)}. */
  public void writeAll(List<T> all, Tuple tuple, SourcePosition position, String sourceIdentity) {
    writeAll(all, tuple);
    holdPosition(position, sourceIdentity);
  }

  private void holdPosition(SourcePosition position, String sourceIdentity) {
    positions.add(position);
    if (sourceIdentity != null && positions.identityOf(position.source()) == null) {
      positions.identify(position.source(), sourceIdentity);
    }
  }

  /** The source positions the batch holds (empty without source positions); the caller must not change them. */
  public Positions positions() {
    return positions;
  }

  /** Whether the batch holds a record at {@code position}. */
  public boolean holds(SourcePosition position) {
    return positions.contains(position);
  }

  /**
   * Holds a tuple whose record the batch holds already (from another tuple at the same source
   * position), without writing it again: it is acked or failed with the batch.
   */
  public void holdDuplicate(Tuple tuple) {
    tuples.hold(tuple);
  }

  /**
   * Writes the row into its partition's open file, holding no tuple: for a caller whose source
   * settles its tuples itself (a Trident batch). Throws as {@link #write(Object, Tuple)}.
   */
  public void write(T row) {
    verify(row);
    append(row);
  }

  /**
   * Writes one tuple's rows, holding no tuple (a Trident batch): checks every row before it writes
   * any. Throws as {@link #writeAll(List, Tuple)}.
   */
  public void writeAll(List<T> all) {
    for (int index = 0; index < all.size(); index++) {
      try {
        verify(all.get(index));
      } catch (RecordRejectedException e) {
        throw new RecordRejectedException(e.columnPath(), "record " + index + " of the tuple's " + all.size() + ": "
            + e.getMessage(), e);
      }
    }
    for (T row : all) {
      partitionKey.partition(rows.partitionSource(row));
      append(row);
    }
  }

  /** Checks what the file writer would refuse in the row, and computes its partition into {@link #partitionKey}. */
  private void verify(T row) {
    rows.verify(row);
    try {
      partitionKey.partition(rows.partitionSource(row));
    } catch (RuntimeException e) {
      throw new RecordRejectedException(null, "cannot compute the partition of the record: " + e, e);
    }
  }

  /** Writes a verified row into the file of the partition last computed. */
  private void append(T row) {
    files.write(row, spec, partitionKey);
    records++;
    if (estimates.due(records)) {
      bytes = files.bytesWritten();
      estimates.refreshed(records, bytes);
    }
  }

  public long openedAtMillis() {
    return openedAtMillis;
  }

  public boolean isEmpty() {
    return records == 0;
  }

  public BatchStats stats(long nowMillis) {
    return new BatchStats(
        records, bytes, nowMillis - openedAtMillis, files.filesOpened(), files.partitions(), nowMillis);
  }

  /** Closes every open file: they become durable and stay invisible until committed. */
  public SealedBatch seal() {
    BatchFiles.Written written = files.close();
    return new SealedBatch(written.dataFiles(), written.deleteFiles(), tuples, records, openedAtMillis, positions,
        written.changes());
  }

  /**
   * Closes every file the batch opened, each on its own so one failing close cannot leave the
   * others' streams open; the tuples are the caller's to fail. The files become orphans.
   */
  public HeldTuples abandon() {
    files.closeAllQuietly();
    return tuples;
  }
}
