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

import org.apache.storm.iceberg.kernel.batch.SealedBatch;

/**
 * What a writing task does with a batch once its files are closed: {@code IcebergBolt}'s commits
 * it, off the executor thread, and acks ({@link CommitPipeline}); {@code IcebergWriterBolt}'s emits
 * a descriptor of its files ({@link DescriptorEmitter}). One executor thread calls it.
 */
interface SealedBatchHandler {
  /**
   * Takes the batch, to settle it: ack or fail every one of its tuples (directly or through
   * anchors), now or at a later call, then release them.
   */
  void handle(SealedBatch batch);

  /** Settles the batches whose settling is done; cheap when there are none. */
  default void settleCompleted() {}

  /** Settles every batch handed over, waiting as long as it takes (unless interrupted). */
  default void settleAll() {}

  /** Whether {@link #handle} would now wait for an earlier batch first; settles those that ended. */
  default boolean atBound() {
    return false;
  }

  /** The task stops: settles what ends within {@code waitMillis}, leaves the rest un-acked. */
  default void close(long waitMillis) {}

  /** The task is abandoned under a call still running: settles nothing more. */
  default void abandon() {}
}
