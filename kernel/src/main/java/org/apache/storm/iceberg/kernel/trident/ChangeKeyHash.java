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

package org.apache.storm.iceberg.kernel.trident;

import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.util.StructLikeWrapper;
import org.apache.storm.iceberg.kernel.change.ChangeKey;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.tuple.ITuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A hash of each change's key, by which {@code IcebergTrident.persist} partitions a row-level
 * stream: every change of a key then reaches one writing partition, whose batch collapses them, so
 * the transaction's one row delta holds one delete and at most one row per key. The key is read by
 * the record mapper against the key columns (former names included) and hashed in Iceberg's
 * internal representation, so that equal keys hash alike whatever Java form the mapper gave them.
 *
 * <p>A tuple whose key cannot be read is read again once the table was refreshed (a key column may
 * have been renamed), at most every {@value #REFRESH_MILLIS} ms; if it still cannot be, it hashes to
 * 0, with a warning the first time: the writer meets it too and reports the mapping error as it does
 * for any tuple. Not thread-safe: one Trident function instance owns it.
 */
public final class ChangeKeyHash implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ChangeKeyHash.class);
  static final long REFRESH_MILLIS = 10_000;

  private final OpenedTable opened;
  private final SinkSettings.RowLevel rowLevel;
  private final RecordMapper mapper;
  private int schemaId = -1;
  private Schema keySchema;
  private InternalRecordWrapper internal;
  private StructLikeWrapper hashed;
  private long refreshedAtMillis;
  private boolean warned;

  private ChangeKeyHash(OpenedTable opened, SinkSettings.RowLevel rowLevel, RecordMapper mapper) {
    this.opened = opened;
    this.rowLevel = rowLevel;
    this.mapper = mapper;
    readKey();
  }

  /**
   * Opens the table, to read its key; {@link #close} closes its catalog.
   *
   * @throws IllegalStateException when the table cannot take row-level changes, naming why
   */
  public static ChangeKeyHash open(SinkSettings settings) {
    return OpenedTable.open(settings.target()).build(opened -> new ChangeKeyHash(
        opened, settings.rowLevel(), settings.providers().recordMapper().resolve(opened.loader())));
  }

  private void readKey() {
    Table table = opened.table();
    if (table.schema().schemaId() == schemaId) {
      return;
    }
    ChangeKey key = ChangeKey.of(table, rowLevel);
    keySchema = key.mapperSchema(table.schema(), table.schemas().values());
    internal = new InternalRecordWrapper(keySchema.asStruct());
    hashed = StructLikeWrapper.forType(keySchema.asStruct());
    schemaId = table.schema().schemaId();
  }

  /** The hash of {@code tuple}'s key, or 0 when its key cannot be read. */
  public int hash(ITuple tuple) {
    Record key = keyOf(tuple);
    if (key == null && System.currentTimeMillis() - refreshedAtMillis >= REFRESH_MILLIS) {
      refreshedAtMillis = System.currentTimeMillis();
      try {
        opened.table().refresh();
        readKey();
      } catch (RuntimeException e) {
        LOG.warn("Cannot refresh table {} to read a change's key again", opened.table().name(), Redaction.of(e));
      }
      key = keyOf(tuple);
    }
    if (key == null) {
      if (!warned) {
        warned = true;
        LOG.warn("A change's key cannot be read for table {}: it goes to the first writing partition, whose writer"
            + " reports why (logged once)", opened.table().name());
      }
      return 0;
    }
    return hashed.set(internal.wrap(key)).hashCode();
  }

  private Record keyOf(ITuple tuple) {
    try {
      return mapper.map(tuple, keySchema);
    } catch (RuntimeException unreadable) {
      return null;
    }
  }

  @Override
  public void close() {
    OpenedTable.closeCatalog(opened.catalog());
  }
}
