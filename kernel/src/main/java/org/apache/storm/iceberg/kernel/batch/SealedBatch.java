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

import java.util.List;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.storm.iceberg.kernel.change.ChangeSummary;
import org.apache.storm.iceberg.kernel.ack.HeldTuples;

/**
 * A closed batch: its data files are durable but not yet visible, its tuples not yet acked.
 *
 * @param dataFiles the files to commit in one append (or row delta)
 * @param deleteFiles the delete files of a batch of row-level changes, committed with {@code
 *     dataFiles} in one row delta: equality deletes, and the position-delete files or deletion vectors
 *     of a batch that streamed beyond its held keys; empty for an append
 * @param tuples the tuples whose records the files hold, to ack or fail together
 * @param records the number of records in the files
 * @param oldestTupleMillis when the batch's first tuple reached the task: its commit deadline counts from here
 * @param positions the source positions whose records the files hold (empty without source positions)
 * @param changes what a batch of row-level changes holds; null for appended rows
 * @param recorded the source positions its commit records in the table's positions ledger: {@code
 *     positions}, plus, for a table of a routing task, the offsets it claims that the task routed to
 *     other tables ({@link org.apache.storm.iceberg.kernel.position.OffsetClaims})
 */
public record SealedBatch(
    List<DataFile> dataFiles, List<DeleteFile> deleteFiles, HeldTuples tuples, long records, long oldestTupleMillis,
    Positions positions, ChangeSummary changes, Positions recorded) {
  /** A batch whose commit records the positions it holds. */
  public SealedBatch(List<DataFile> dataFiles, List<DeleteFile> deleteFiles, HeldTuples tuples, long records,
      long oldestTupleMillis, Positions positions, ChangeSummary changes) {
    this(dataFiles, deleteFiles, tuples, records, oldestTupleMillis, positions, changes, positions);
  }

  /** This batch, its commit recording {@code claimed} (which holds its own positions) instead. */
  public SealedBatch recording(Positions claimed) {
    return new SealedBatch(dataFiles, deleteFiles, tuples, records, oldestTupleMillis, positions, changes, claimed);
  }

  /** A batch of appended rows only. */
  public SealedBatch(List<DataFile> dataFiles, HeldTuples tuples, long records, long oldestTupleMillis, Positions positions) {
    this(dataFiles, List.of(), tuples, records, oldestTupleMillis, positions, null);
  }

  /** The bytes {@code files} hold on storage. */
  public static long bytesOf(List<DataFile> files) {
    long bytes = 0;
    for (DataFile file : files) {
      bytes += file.fileSizeInBytes();
    }
    return bytes;
  }
}
