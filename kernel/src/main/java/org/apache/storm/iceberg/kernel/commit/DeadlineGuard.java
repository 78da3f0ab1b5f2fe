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

package org.apache.storm.iceberg.kernel.commit;

import java.util.function.LongSupplier;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;

/**
 * Refuses a commit attempt that would start at or after its batch's deadline. Iceberg asks it at
 * every attempt, its own conflict retries included, before the catalog is reached, so a refusal is a
 * definite "not applied" for that attempt, however many retries the table's {@code commit.retry.*}
 * properties allow. Those properties are shared with every other writer of the table; this bounds
 * the sink's commits without changing them.
 */
final class DeadlineGuard implements SnapshotAncestryValidator {
  private final long deadlineMillis;
  private final LongSupplier clock;
  private volatile boolean refused;

  DeadlineGuard(long deadlineMillis, LongSupplier clock) {
    this.deadlineMillis = deadlineMillis;
    this.clock = clock;
  }

  /** Whether the deadline has come. */
  boolean passed() {
    return deadlineMillis != Long.MAX_VALUE && clock.getAsLong() >= deadlineMillis;
  }

  /** Whether the deadline is at most {@code millis} away. */
  boolean within(long millis) {
    return deadlineMillis != Long.MAX_VALUE && deadlineMillis - clock.getAsLong() <= millis;
  }

  @Override
  public boolean validate(Iterable<Snapshot> baseSnapshots) {
    if (passed()) {
      refused = true;
      return false;
    }
    return true;
  }

  /** Whether this guard refused an attempt. */
  boolean refused() {
    return refused;
  }

  @Override
  public String errorMessage() {
    return "the batch reached its commit deadline (epoch ms " + deadlineMillis
        + "): its tuples are about to time out in Storm and replay";
  }
}
