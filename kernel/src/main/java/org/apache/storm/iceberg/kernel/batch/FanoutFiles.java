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
import java.util.List;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;

/** Rows written as they arrive, one open data file per partition (Iceberg's fanout writer): append. */
final class FanoutFiles<T> implements BatchFiles<T> {
  private final TrackingWriterFactory<T> files;
  private final FanoutDataWriter<T> writer;

  FanoutFiles(FileWriterFactory<T> writers, OutputFileFactory fileFactory, FileIO io, long targetFileSize) {
    this.files = new TrackingWriterFactory<>(writers);
    this.writer = new FanoutDataWriter<>(files, fileFactory, io, targetFileSize);
  }

  @Override
  public void write(T row, PartitionSpec spec, PartitionKey partition) {
    writer.write(row, spec, partition);
  }

  @Override
  public long bytesWritten() {
    return files.bytesWritten();
  }

  @Override
  public int filesOpened() {
    return files.filesOpened();
  }

  @Override
  public int partitions() {
    return files.partitions();
  }

  @Override
  public Written close() {
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot close the batch's data files", e);
    }
    return new Written(writer.result().dataFiles(), List.of(), null);
  }

  @Override
  public void closeAllQuietly() {
    files.closeAllQuietly();
  }
}
