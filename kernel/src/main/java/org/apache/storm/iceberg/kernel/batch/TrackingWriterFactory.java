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

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.FileWriterFactory;

/**
 * Wraps a format's writer factory to see the files a batch opens, which Iceberg's fanout writer
 * keeps to itself: how many, across how many partitions, and how many bytes they hold. The fanout
 * writer hands every file of one partition the same partition object, so partitions are counted by
 * identity, without hashing on the write path.
 */
final class TrackingWriterFactory<T> implements FileWriterFactory<T> {
  private final FileWriterFactory<T> delegate;
  private final List<DataWriter<T>> writers = new ArrayList<>();
  private final Set<StructLike> partitions = Collections.newSetFromMap(new IdentityHashMap<>());
  // Counted here, not read from the collections: the seal check reads them after every record.
  private int filesOpened;
  private int partitionCount;

  TrackingWriterFactory(FileWriterFactory<T> delegate) {
    this.delegate = delegate;
  }

  @Override
  public DataWriter<T> newDataWriter(
      EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
    DataWriter<T> writer = delegate.newDataWriter(file, spec, partition);
    writers.add(writer);
    filesOpened++;
    if (partitions.add(partition == null ? NO_PARTITION : partition)) {
      partitionCount++;
    }
    return writer;
  }

  @Override
  public EqualityDeleteWriter<T> newEqualityDeleteWriter(
      EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
    throw new UnsupportedOperationException("storm-iceberg is append-only");
  }

  @Override
  public PositionDeleteWriter<T> newPositionDeleteWriter(
      EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
    throw new UnsupportedOperationException("storm-iceberg is append-only");
  }

  int filesOpened() {
    return filesOpened;
  }

  int partitions() {
    return partitionCount;
  }

  /** Closes every writer opened, ignoring each one's failure: used only when a batch is abandoned. */
  void closeAllQuietly() {
    for (DataWriter<T> writer : writers) {
      try {
        writer.close();
      } catch (java.io.IOException | RuntimeException e) {
        // The batch is abandoned; its files are orphans whether or not they close cleanly.
      }
    }
  }

  /** Bytes written so far, as the format writers estimate them (buffered rows included). */
  long bytesWritten() {
    long bytes = 0;
    for (DataWriter<T> writer : writers) {
      bytes += writer.length();
    }
    return bytes;
  }

  private static final StructLike NO_PARTITION =
      new StructLike() {
        @Override
        public int size() {
          return 0;
        }

        @Override
        public <T> T get(int pos, Class<T> javaClass) {
          throw new IndexOutOfBoundsException();
        }

        @Override
        public <T> void set(int pos, T value) {
          throw new IndexOutOfBoundsException();
        }
      };
}
