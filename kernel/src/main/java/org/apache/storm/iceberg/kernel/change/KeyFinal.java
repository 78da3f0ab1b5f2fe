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
 * A key's final state in a batch ({@link KeyedChanges}); its fields are the batch's to update.
 *
 * @param <R> the row type ({@link RowModel})
 */
public final class KeyFinal<R extends StructLike> {
  final R key;
  final StructLike internalKey;
  final StructLike partition;
  ChangeRow<R> winner;
  long winnerArrival;
  /** Whether any change of the batch wrote the key's row (an insert or an after-image), in any order. */
  boolean written;
  /** Whether the key is counted among the batch's keys removed without being written. */
  boolean counted;
  /** Once the batch streams: whether the batch's files hold a live row of the key (its winner sets it). */
  boolean live;

  KeyFinal(R key, StructLike internalKey, StructLike partition) {
    this.key = key;
    this.internalKey = internalKey;
    this.partition = partition;
  }

  /** The key's columns, as the equality delete holds them. */
  public R key() {
    return key;
  }

  /** The partition the key's row is in. */
  public StructLike partition() {
    return partition;
  }

  /** The key's final row, or null when its final change removes it (or the batch streams: it holds no rows). */
  public R row() {
    return winner.op().removes() ? null : winner.row();
  }

  /** The winning change's sequence number, or null without a sequence field. */
  public Long sequence() {
    return winner.sequence();
  }
}
