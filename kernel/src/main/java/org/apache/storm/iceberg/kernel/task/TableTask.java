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
 * A task of one table, as a routing task holds one per open table: a {@link SinkTask} writing it,
 * or a {@link CommitterTask} committing the split sink's descriptors for it.
 */
public interface TableTask extends WritingTask {
  /**
   * Hands off what the task holds now, so it can be closed without losing a tuple it could settle:
   * a writing task seals its batch (and commits it, or emits its descriptor); a committer commits
   * its pending descriptors' files.
   */
  void sealNow();

  /**
   * Waits for the hand-offs that {@link #sealNow} and earlier seals started on other threads (a
   * writing task's commits on a commit thread), settling their tuples; a task that hands off on the
   * calling thread has none.
   */
  default void settleHandedOff() {}
}
