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


package org.apache.storm.iceberg.kernel.task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.iceberg.DataFile;
import org.apache.storm.iceberg.kernel.ack.Holders;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.tuple.Tuple;

/**
 * The split sink committer's appended descriptors, gathered for one append: their files, their
 * source positions, the writer tasks they came from and their oldest tuple. Empty again once
 * committed.
 */
final class DescriptorGroup {
  private final List<Tuple> descriptors = new ArrayList<>();
  private final List<DataFile> files = new ArrayList<>();
  private final TreeSet<Integer> writerTasks = new TreeSet<>();
  private Positions positions = new Positions();
  private long oldestTupleMillis = Long.MAX_VALUE;

  /**
   * Adds a descriptor and what it carries; {@code recorded} the source positions its commit records
   * (its own, and what it claims: {@link RoundClaims}), or null for none.
   */
  void add(Tuple descriptor, DataFilesCodec.Entry entry, Positions recorded) {
    if (recorded != null) {
      positions.addAll(recorded);
    }
    descriptors.add(descriptor);
    files.addAll(entry.files());
    writerTasks.add(entry.taskIndex());
    oldestTupleMillis = Math.min(oldestTupleMillis, entry.oldestTupleMillis());
  }

  /** Commits the gathered files in one append and settles their descriptors; nothing when empty. */
  void commit(CommitThenAck committer) {
    if (descriptors.isEmpty()) {
      return;
    }
    committer.commit(files, summary(descriptors.size(), writerTasks), Holders.whole(List.copyOf(descriptors)),
        oldestTupleMillis, positions);
    descriptors.clear();
    files.clear();
    writerTasks.clear();
    positions = new Positions();
    oldestTupleMillis = Long.MAX_VALUE;
  }

  /** The committer's snapshot-summary keys: how many writer batches a commit holds, and from which writer tasks. */
  static Map<String, String> summary(int batches, java.util.Collection<Integer> writerTasks) {
    return Map.of(
        "writer-batches", String.valueOf(batches),
        "writer-tasks", String.join(",", writerTasks.stream().map(String::valueOf).toList()));
  }
}
