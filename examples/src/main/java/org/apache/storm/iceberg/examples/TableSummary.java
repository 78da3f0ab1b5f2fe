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

package org.apache.storm.iceberg.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * What a table holds, read back the way a user would: rows (read through Iceberg's generic reader),
 * snapshots and live data files.
 *
 * @param rows rows readable in the current snapshot
 * @param snapshots snapshots in the table's history
 * @param dataFiles data files in the current snapshot
 */
public record TableSummary(long rows, int snapshots, int dataFiles) {

  public static TableSummary of(Table table) {
    table.refresh();
    long rows = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record ignored : records) {
        rows++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int snapshots = 0;
    for (Snapshot ignored : table.snapshots()) {
      snapshots++;
    }
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask ignored : tasks) {
        files++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new TableSummary(rows, snapshots, files);
  }

  /** What changed from {@code before} to this summary, for people. */
  public String describeSince(TableSummary before, String table) {
    return String.format(
        "committed to %s: %d rows in %d snapshots (%d data files); the table now holds %d rows, %d snapshots, %d data files",
        table, rows - before.rows, snapshots - before.snapshots, dataFiles - before.dataFiles, rows, snapshots, dataFiles);
  }
}
