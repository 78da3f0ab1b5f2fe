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

import org.apache.storm.iceberg.kernel.position.Positions;

/**
 * A fenced source partition: what failed, what of it landed since, what of it is back in a batch,
 * and until when the fence waits for the rest without a sign of it.
 * Part of {@link ChangeFence}'s state, used under its lock only.
 */
final class FencedLane {
  final Positions failed = new Positions();
  final Positions landed = new Positions();
  /** What landed, and what was written into a batch again since this task's last failure of the partition. */
  Positions back = new Positions();
  long smallest = Long.MAX_VALUE;
  long waitsUntilMillis;

  void fail(Positions positions, long smallestOffset) {
    failed.addAll(positions);
    smallest = Math.min(smallest, smallestOffset);
    // What was back in a batch may be in the one that failed: only what landed is surely back.
    back = landed.copy();
  }

  /** Whether every failed change before {@code offset} landed or is back in a batch of the task. */
  boolean backBefore(long offset) {
    return back.covers(failed.upTo(offset - 1));
  }
}
