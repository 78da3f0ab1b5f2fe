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

package org.apache.storm.iceberg.kernel.trident;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.kernel.change.ChangeSummary;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;

/**
 * The descriptors a Trident writer partition sends the whole-stream committer: the data files it
 * wrote for one batch, and in a row-level write mode its equality deletes, in the split sink's
 * {@link DataFilesCodec} JSON. A partition with no records
 * sends one with no files, so the committer sees every transaction, even one replayed empty.
 */
public final class TridentDescriptors {
  private TridentDescriptors() {}

  /** Encodes a batch's {@code files}, written against the table's current specs. */
  public static String encode(Table table, int partitionIndex, TridentFiles.Files files, long nowMillis) {
    DataFilesCodec.Entry entry =
        new DataFilesCodec.Entry("trident-" + partitionIndex + "-" + UUID.randomUUID(), table.name(), "trident-writer",
            partitionIndex, nowMillis, files.dataFiles(), nowMillis, null, files.deleteFiles(),
            files.changes() == null ? null : files.changes().encode(table.specs()));
    return new String(DataFilesCodec.encode(entry, table.specs()), StandardCharsets.UTF_8);
  }

  /** Decodes a descriptor, refreshing the table once if a file's spec is newer than the metadata held. */
  public static TridentFiles.Files decode(Table table, String descriptor) {
    byte[] payload = descriptor.getBytes(StandardCharsets.UTF_8);
    DataFilesCodec.Entry entry;
    try {
      entry = DataFilesCodec.decode(payload, "a Trident descriptor", table.specs());
    } catch (DataFilesCodec.UnknownSpecException e) {
      table.refresh();
      entry = DataFilesCodec.decode(payload, "a Trident descriptor", table.specs());
    }
    return new TridentFiles.Files(entry.files(), entry.deleteFiles(),
        entry.changes() == null ? null : ChangeSummary.decode(entry.changes(), table.specs()));
  }
}
