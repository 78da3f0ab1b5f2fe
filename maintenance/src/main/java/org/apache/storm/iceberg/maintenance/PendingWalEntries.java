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
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.spi.WalEntry;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreListing;

/**
 * Every pending write-ahead-log entry of a table, of any task of any sink: what expiry and orphan
 * removal must not take from. A store that cannot list them makes the step refuse, since what it
 * cannot see it would not protect.
 */
final class PendingWalEntries {
  private PendingWalEntries() {}

  /**
   * @param step what refuses, as its message starts ("Cannot expire snapshots")
   * @param risk what could be lost without the listing ("the files a pending entry names could be deleted")
   */
  static List<WalEntry> of(WalStore walStore, Table table, String step, String risk) {
    if (!(walStore instanceof WalStoreListing listing)) {
      throw new IllegalStateException(step + " of " + table.name() + ": its WAL store " + walStore.getClass().getName()
          + " cannot list its entries, so " + risk + "; use a WAL store that lists (the default, table FileIO, does)");
    }
    return listing.listAll(table);
  }
}
