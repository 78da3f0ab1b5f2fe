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

import java.util.Objects;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;

/**
 * Refuses a transaction's commit when the newest snapshot of its scope is no longer the one its plan
 * was made against: another commit of the same partition (an earlier attempt that landed late, or
 * a second incarnation of the task) got there first, so the plan must be made again.
 */
final class HeadUnchanged implements SnapshotAncestryValidator {
  private final TransactionScope scope;
  private final String expectedCommitId;
  private volatile boolean refused;

  /** @param expectedCommitId the commit id of the scope's newest snapshot, or null for none */
  HeadUnchanged(TransactionScope scope, String expectedCommitId) {
    this.scope = scope;
    this.expectedCommitId = expectedCommitId;
  }

  @Override
  public boolean validate(Iterable<Snapshot> baseSnapshots) {
    LastTransaction head = LastTransaction.in(baseSnapshots, scope);
    refused = !Objects.equals(expectedCommitId, head == null ? null : head.commitId());
    return !refused;
  }

  boolean refused() {
    return refused;
  }

  @Override
  public String errorMessage() {
    return "Trident state " + scope.state() + " partition " + scope.partition()
        + " committed another transaction since this one was planned";
  }
}
