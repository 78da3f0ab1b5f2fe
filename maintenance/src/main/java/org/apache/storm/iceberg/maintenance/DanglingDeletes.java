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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Removes the delete files that no live data file needs any more: equality deletes older than every
 * data file of their partition (after a compaction, all of those it covered), and deletion vectors
 * or position deletes whose data file is gone. Which deletes apply to which data file is Iceberg's
 * own scan planning's answer (sequence numbers, partitions, referenced data files): a live delete
 * file that no planned task carries applies to nothing.
 *
 * <p>Deletes the sink commits meanwhile are newer than the snapshot read, so none of them is
 * removed; and a data file committed later has a higher sequence number than every delete removed,
 * which therefore would not have applied to it either.
 */
final class DanglingDeletes {
  private DanglingDeletes() {}

  /** Removes the dangling delete files of {@code branch}'s head, in one commit; how many. The caller refreshed the table. */
  static int remove(Table table, String branch) {
    Snapshot head = table.snapshot(branch);
    if (head == null) {
      return 0;
    }
    Set<String> applied = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(head.snapshotId()).planFiles()) {
      for (FileScanTask task : tasks) {
        task.deletes().forEach(delete -> applied.add(delete.location()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan " + table.name() + " to find its dangling deletes", e);
    }
    List<DeleteFile> dangling = new ArrayList<>();
    for (ManifestFile manifest : head.deleteManifests(table.io())) {
      try (ManifestReader<DeleteFile> deletes = ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (DeleteFile delete : deletes) {
          if (!applied.contains(delete.location())) {
            dangling.add(delete.copyWithoutStats());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read a delete manifest of " + table.name(), e);
      }
    }
    if (dangling.isEmpty()) {
      return 0;
    }
    RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(head.snapshotId()).toBranch(branch)
        .set(DataCompaction.SUMMARY_KEY, "dangling-deletes");
    dangling.forEach(rewrite::deleteFile);
    rewrite.commit();
    return dangling.size();
  }
}
