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

package org.apache.storm.iceberg.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.CloseableIterable;

/** The examples' events table as a reader sees it: which of the ids 0..n-1 it holds, how often. */
final class EventsTable {
  private final Catalog catalog;
  private final TableIdentifier identifier;

  EventsTable(Catalog catalog, TableIdentifier identifier) {
    this.catalog = catalog;
    this.identifier = identifier;
  }

  /** What the table holds of ids 0..expected-1; all zero while the table does not exist yet. */
  Count count(long expected) throws IOException {
    Table table;
    try {
      table = catalog.loadTable(identifier);
    } catch (NoSuchTableException e) {
      return new Count(expected, 0, 0, 0, List.of(), List.of());
    }
    BitSet present = new BitSet((int) expected);
    long rows = 0;
    long outOfRange = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).select("id").build()) {
      for (Record record : records) {
        rows++;
        long id = (Long) record.getField("id");
        if (id < 0 || id >= expected) {
          outOfRange++;
        } else {
          present.set((int) id);
        }
      }
    }
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    List<Long> firstMissing = new ArrayList<>();
    for (int id = present.nextClearBit(0); id < expected && firstMissing.size() < 10; id = present.nextClearBit(id + 1)) {
      firstMissing.add((long) id);
    }
    return new Count(expected, rows, present.cardinality(), outOfRange, firstMissing, snapshots);
  }

  /** One reading of the table. */
  record Count(long expected, long rows, long distinctIds, long outOfRange, List<Long> firstMissing, List<Snapshot> snapshots) {
    boolean complete() {
      return distinctIds == expected;
    }

    /** Rows beyond one per id: what replays wrote twice. */
    long duplicates() {
      return rows - distinctIds - outOfRange;
    }

    @Override
    public String toString() {
      return rows + " rows, " + distinctIds + " of " + expected + " ids, " + duplicates() + " duplicates, "
          + snapshots.size() + " snapshots" + (complete() ? "" : "; first missing ids " + firstMissing);
    }
  }
}
