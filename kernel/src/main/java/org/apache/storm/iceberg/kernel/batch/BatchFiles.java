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
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.storm.iceberg.kernel.change.ChangeSummary;
import org.apache.storm.iceberg.spi.SourcePosition;

/**
 * Where an open batch's verified rows go until it seals: straight into open data files (append),
 * or into a collapse by key that writes its files at the seal (row-level changes).
 *
 * @param <T> the row type
 */
interface BatchFiles<T> {
  /** Takes a verified row of {@code partition} (the caller's to reuse). */
  void write(T row, PartitionSpec spec, PartitionKey partition);

  /**
   * Where the row written next comes from: its source lane (a Kafka partition) and offset, for a
   * collapse that compares sequence numbers per lane and orders a key's changes by offset.
   */
  default void from(SourcePosition position) {}

  /** Bytes written so far, as the writers estimate them; 0 while nothing is written before the seal. */
  long bytesWritten();

  int filesOpened();

  int partitions();

  /**
   * Closes every file: they become durable, invisible until committed.
   *
   * @throws java.io.UncheckedIOException when a file cannot be written or closed
   */
  Written close();

  /** Closes every file opened, ignoring failures: the batch is abandoned and its files are orphans. */
  void closeAllQuietly();

  /**
   * What a sealed batch commits.
   *
   * @param changes what a batch of row-level changes holds; null for appended rows
   */
  record Written(List<DataFile> dataFiles, List<DeleteFile> deleteFiles, ChangeSummary changes) {}
}
