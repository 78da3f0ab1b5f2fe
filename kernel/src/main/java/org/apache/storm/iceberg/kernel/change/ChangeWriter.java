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

package org.apache.storm.iceberg.kernel.change;

import org.apache.iceberg.StructLike;

/**
 * Where a batch that holds too many keys to collapse writes each change as it arrives ({@link
 * KeyedChanges#stream}): Iceberg's equality delta writer, one per partition.
 *
 * @param <R> the row type ({@link RowModel})
 */
public interface ChangeWriter<R extends StructLike> {
  /**
   * Removes the row of {@code key} (the key columns only) in {@code partition}: the row this batch
   * wrote for it, by position, or else every row earlier commits hold for it, by an equality delete.
   *
   * @throws java.io.UncheckedIOException when a file cannot be written
   */
  void deleteKey(R key, StructLike partition);

  /**
   * Writes {@code row} into {@code partition}, first removing by position the row this batch wrote
   * for its key, if any. The caller has removed what earlier commits hold for the key ({@link #deleteKey}).
   *
   * @throws java.io.UncheckedIOException when a file cannot be written
   */
  void write(R row, StructLike partition);
}
