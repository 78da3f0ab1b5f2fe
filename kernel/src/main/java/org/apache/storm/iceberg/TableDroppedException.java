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

package org.apache.storm.iceberg;

/**
 * The sink's table was dropped while the topology ran, or dropped and recreated under the same
 * name (the name then holds another table, with another UUID). Every batch the task cannot commit
 * because of it is failed, so the source replays its tuples; nothing is acked.
 *
 * <p>A dropped table is looked for again at every batch: once a table with the UUID the task
 * opened is back (its last metadata file registered again), the sink goes on. A recreated table is
 * refused until the topology is restarted: a running task never switches tables.
 */
public class TableDroppedException extends IllegalStateException {
  private final String table;
  private final String openedUuid;
  private final String currentUuid;

  private TableDroppedException(String message, String table, String openedUuid, String currentUuid, Throwable cause) {
    super(message, cause);
    this.table = table;
    this.openedUuid = openedUuid;
    this.currentUuid = currentUuid;
  }

  /** The table is gone from the catalog. */
  public static TableDroppedException dropped(String table, String catalog, String openedUuid, Throwable cause) {
    return new TableDroppedException(
        "Table "
            + table
            + " (UUID "
            + openedUuid
            + ") was dropped from catalog '"
            + catalog
            + "' while the topology ran: its batches are failed and replayed, and their WAL entries kept,"
            + " until it is back. The sink never recreates a table while running, even with withAutoCreate:"
            + " register the dropped table's last metadata file again, or create a new table and restart"
            + " the topology to write into it",
        table,
        openedUuid,
        null,
        cause);
  }

  /** The name now holds another table than the one the task opened. */
  public static TableDroppedException recreated(
      String table, String catalog, String openedUuid, String currentUuid, Throwable cause) {
    return new TableDroppedException(
        "Table "
            + table
            + " was dropped and recreated in catalog '"
            + catalog
            + "' while the topology ran: this task opened UUID "
            + openedUuid
            + ", the name now holds UUID "
            + currentUuid
            + ". A running task never switches tables (its open batch, WAL entries and commit ids belong to"
            + " the old one, and the new one may have another schema, partition spec or location), so its"
            + " batches are failed and replayed: restart the topology to write into the new table",
        table,
        openedUuid,
        currentUuid,
        cause);
  }

  /** The table's name in its catalog. */
  public String table() {
    return table;
  }

  /** The UUID of the table the task opened at prepare. */
  public String openedUuid() {
    return openedUuid;
  }

  /** The UUID of the table the name holds now, or null when the name holds none (dropped). */
  public String currentUuid() {
    return currentUuid;
  }

  /** Whether another table now has the name. */
  public boolean recreated() {
    return currentUuid != null;
  }
}
