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
 * A Trident transaction whose txid is older than the newest one its partition committed: the state
 * was reset, or the topology was redeployed with a reset transaction coordinator. Its batch is never
 * skipped silently.
 */
public final class TransactionRegressionException extends IllegalStateException {
  TransactionRegressionException(String table, TransactionScope scope, long txid, long committedTxid) {
    super(
        "Trident transaction " + txid + " of state " + scope.state() + " partition " + scope.partition()
            + " is older than transaction " + committedTxid + ", which table " + table + " already holds: the"
            + " transaction ids went backwards (the coordinator's state was reset, or the topology was"
            + " redeployed with a new one). Nothing is written; to start over on purpose, give the state a new"
            + " name (withTridentStateName)");
  }
}
