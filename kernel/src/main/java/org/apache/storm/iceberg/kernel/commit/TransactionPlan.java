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

/**
 * What one Trident transaction needs, decided before its files are written.
 *
 * @param txid the transaction id, or null for a batch without one (at-least-once)
 * @param action what its commit does
 * @param head the scope's newest transaction in the table when the plan was made, or null
 */
public record TransactionPlan(Long txid, Action action, LastTransaction head) {

  /** What a transaction's commit does. */
  public enum Action {
    /** The table already holds this transaction: write nothing, commit nothing. */
    SKIP,
    /** Append the files in one snapshot. */
    APPEND,
    /** An opaque replay of the newest transaction: replace the files its snapshot added, in one overwrite. */
    REPLACE
  }

  /** Whether the transaction's tuples need writing. */
  public boolean writes() {
    return action != Action.SKIP;
  }
}
