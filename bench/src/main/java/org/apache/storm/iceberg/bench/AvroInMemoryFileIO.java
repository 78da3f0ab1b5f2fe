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

package org.apache.storm.iceberg.bench;

import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * Hadoop's FileIO, but with Avro files (manifests and manifest lists) kept in memory: building a
 * history of thousands of snapshots then writes only table metadata to disk, where Hadoop's local
 * file system would fork {@code chmod} for every manifest list. For {@link SnapshotHistory} only,
 * whose walks read snapshot summaries, never manifests.
 */
public class AvroInMemoryFileIO extends HadoopFileIO {
  private final InMemoryFileIO memory = new InMemoryFileIO();

  @Override
  public InputFile newInputFile(String path) {
    return path.endsWith(".avro") ? memory.newInputFile(path) : super.newInputFile(path);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    return path.endsWith(".avro") ? memory.newOutputFile(path) : super.newOutputFile(path);
  }

  @Override
  public void deleteFile(String path) {
    if (path.endsWith(".avro")) {
      memory.deleteFile(path);
    } else {
      super.deleteFile(path);
    }
  }
}
