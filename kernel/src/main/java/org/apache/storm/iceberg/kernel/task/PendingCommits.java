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

/**
 * The commits a writing task has handed over and not yet settled, as a routing task sees them: it
 * settles every table's ended commits on each call, waits for a table's commits before it closes
 * the table, and leaves a table at its bound out of a seal that covers every table. Executor thread
 * only.
 */
public interface PendingCommits {
  /** Acks or fails the tuples of every commit that ended; cheap when none did. */
  void settleCompleted();

  /** Waits for every commit handed over, and settles it. */
  void settleAll();

  /**
   * Whether sealing now would make the executor wait for this task's oldest commit first ({@code
   * withMaxPendingCommits} of them pending, after settling those that ended).
   */
  boolean atBound();
}
