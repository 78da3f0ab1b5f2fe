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

package org.apache.storm.iceberg.bench.rows;

import java.io.Serializable;
import java.util.Random;

/**
 * The keys of a row-level benchmark's changes, in order: each change either brings a new key (keys
 * are numbered 0, 1, 2, ... as they first appear) or, with probability {@code updatePercent}%,
 * repeats a key already written, drawn uniformly from those. The row of a change is {@link
 * BenchRows#values BenchRows.values(key, columns)}; its first column is the key. The sequence is a
 * function of the update share alone (a fixed seed), so every harness that draws the same number of
 * keys writes the same changes and ends with the same number of distinct keys.
 *
 * <p>Not thread-safe: one instance draws one run's keys in order. Serializable so that a Flink
 * source can carry it.
 */
public final class UpsertKeys implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final long SEED = 42;

  private final int updatePercent;
  private final Random random = new Random(SEED);
  private long written;

  /** Keys of which {@code updatePercent}% (0 to 100) repeat an earlier key. */
  public UpsertKeys(int updatePercent) {
    if (updatePercent < 0 || updatePercent > 100) {
      throw new IllegalArgumentException("update percent " + updatePercent + " is not between 0 and 100");
    }
    this.updatePercent = updatePercent;
  }

  /** The key of the next change. */
  public long next() {
    // The first change has nothing to update; a change that is not an update brings the next new key.
    if (written > 0 && random.nextInt(100) < updatePercent) {
      return random.nextLong(written);
    }
    return written++;
  }

  /** How many distinct keys the changes drawn so far hold. */
  public long distinctKeys() {
    return written;
  }
}
