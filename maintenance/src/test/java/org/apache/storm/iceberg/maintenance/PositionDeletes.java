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

package org.apache.storm.iceberg.maintenance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.FanoutPositionOnlyDeleteWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.PartitioningDVWriter;
import org.apache.iceberg.io.PartitioningWriter;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.PartitionUtil;

/**
 * Deletes one row by its position, as another engine's merge-on-read delete does: a deletion vector
 * on format v3 (Iceberg's {@link PartitioningDVWriter}, merged with the data file's previous vector,
 * which the commit replaces), a position-delete file on v2 ({@link FanoutPositionOnlyDeleteWriter}),
 * committed in a {@link RowDelta} validated from the snapshot the row was found in.
 */
final class PositionDeletes {
  /**
   * A delete written, not yet committed.
   *
   * @param dataFile the data file that holds the row
   * @param readSnapshotId the snapshot the row was found in
   */
  record Written(Table table, String dataFile, long readSnapshotId, DeleteWriteResult result) {
    /** The deletion vector or position-delete file that deletes the row. */
    DeleteFile deleteFile() {
      return result.deleteFiles().get(0);
    }

    /** Commits it as an engine does: refused if the data file is gone or was changed since the read. */
    Written commit() {
      RowDelta delta = table.newRowDelta()
          .validateFromSnapshot(readSnapshotId)
          .validateDataFilesExist(List.of(dataFile))
          .validateDeletedFiles();
      result.deleteFiles().forEach(delta::addDeletes);
      result.rewrittenDeleteFiles().forEach(delta::removeDeletes);
      delta.commit();
      return this;
    }

    /** Commits it without any validation, as a careless engine might: it lands even if its data file is gone. */
    Written commitUnvalidated() {
      RowDelta delta = table.newRowDelta();
      result.deleteFiles().forEach(delta::addDeletes);
      delta.commit();
      return this;
    }
  }

  private PositionDeletes() {}

  /** Deletes, in one validated commit, the live row whose {@code keyColumn} is {@code key} in {@code table}'s current snapshot. */
  static Written deleteRow(Table table, String keyColumn, Object key) {
    return write(table, keyColumn, key).commit();
  }

  /** Writes the delete of the live row whose {@code keyColumn} is {@code key} in {@code table}'s current snapshot; fails if there is none. */
  static Written write(Table table, String keyColumn, Object key) {
    table.refresh();
    Snapshot head = table.currentSnapshot();
    Schema withPosition = TypeUtil.join(table.schema(), new Schema(MetadataColumns.ROW_POSITION));
    try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(head.snapshotId()).planFiles()) {
      for (FileScanTask task : tasks) {
        Long position = livePosition(table, task, withPosition, keyColumn, key);
        if (position != null) {
          return new Written(table, task.file().location(), head.snapshotId(), write(table, task, position));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new AssertionError("no live row with " + keyColumn + " = " + key + " in " + table.name());
  }

  private static Long livePosition(Table table, FileScanTask task, Schema withPosition, String keyColumn, Object key) throws IOException {
    GenericDeleteFilter deletes = new GenericDeleteFilter(table.io(), task, table.schema(), withPosition);
    Map<Integer, ?> constants = PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
    CloseableIterable<Record> read = FormatModelRegistry.<Record, Schema>readBuilder(task.file().format(), Record.class,
            table.io().newInputFile(task.file()))
        .project(deletes.requiredSchema())
        .idToConstant(constants)
        .build();
    try (CloseableIterable<Record> rows = deletes.filter(read)) {
      for (Record row : rows) {
        if (key.equals(row.getField(keyColumn))) {
          return (Long) row.getField(MetadataColumns.ROW_POSITION.name());
        }
      }
    }
    return null;
  }

  private static DeleteWriteResult write(Table table, FileScanTask task, long position) throws IOException {
    boolean dv = TableUtil.formatVersion(table) >= 3;
    OutputFileFactory files = OutputFileFactory.builderFor(table, 1, 1)
        .format(dv ? FileFormat.PUFFIN : FileFormat.PARQUET).operationId("another-engine-" + UUID.randomUUID()).build();
    List<DeleteFile> previous = new ArrayList<>();
    task.deletes().stream().filter(ContentFileUtil::isDV).forEach(previous::add);
    BaseDeleteLoader loader = new BaseDeleteLoader(delete -> table.io().newInputFile(delete));
    PartitioningWriter<PositionDelete<Record>, DeleteWriteResult> writer = dv
        ? new PartitioningDVWriter<>(files, path -> loader.loadPositionDeletes(previous, path))
        : new FanoutPositionOnlyDeleteWriter<>(new GenericFileWriterFactory.Builder(table).build(), files, table.io(), Long.MAX_VALUE);
    try (writer) {
      writer.write(PositionDelete.<Record>create().set(task.file().location(), position), table.specs().get(task.file().specId()),
          task.file().partition());
    }
    return writer.result();
  }
}
