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

package org.apache.storm.iceberg.maintenance;

import java.util.List;
import org.apache.storm.iceberg.spi.WalEntry;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;

/** A WAL store that keeps entries per task but cannot list a whole table's: what maintenance refuses. */
final class NonListingWalStore implements WalStore {
  @Override
  public String put(WalScope scope, String commitId, byte[] payload) {
    return "nowhere";
  }

  @Override
  public List<WalEntry> list(WalScope scope) {
    return List.of();
  }

  @Override
  public void delete(WalScope scope, String commitId) {}
}
