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
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.tuple.ITuple;

/**
 * A hash of each change's key, by which {@code IcebergTrident.persist} partitions a row-level
 * stream: every change of a key then reaches one writing partition, whose batch collapses them, so
 * the transaction's one row delta holds one delete and at most one row per key. The key is read as
 * the writer reads it (the record mapper against the key columns, former names included) and hashed
 * in Iceberg's internal representation, so that equal keys hash alike whatever Java form the mapper
 * gave them.
 *
 * <p>A tuple whose key cannot be read hashes to 0: the writer meets it too and reports the mapping
 * error as it does for any tuple.
 */
public final class ChangeKeyHash {
  private final RecordMapper mapper;
  private final Schema keySchema;
  private final InternalRecordWrapper internal;
  private final StructLikeWrapper hashed;

  private ChangeKeyHash(RecordMapper mapper, Schema keySchema) {
    this.mapper = mapper;
    this.keySchema = keySchema;
    this.internal = new InternalRecordWrapper(keySchema.asStruct());
    this.hashed = StructLikeWrapper.forType(keySchema.asStruct());
  }

  /**
   * Opens the table once, to read its key, and closes the catalog again.
   *
   * @throws IllegalStateException when the table cannot take row-level changes, naming why
   */
  public static ChangeKeyHash open(SinkSettings settings) {
    return OpenedTable.open(settings.target()).build(opened -> {
      try {
        Table table = opened.table();
        ChangeKey key = ChangeKey.of(table, settings.rowLevel());
        FormerNamesSchema mapperSchema = FormerNamesSchema.of(table.schema(), table.schemas().values());
        RecordMapper mapper = settings.providers().recordMapper().resolve(opened.loader());
        return new ChangeKeyHash(mapper, key.mapperSchema(mapperSchema, table.schemas().values()));
      } finally {
        OpenedTable.closeCatalog(opened.catalog());
      }
    });
  }

  /** The hash of {@code tuple}'s key, or 0 when its key cannot be read. */
  public int hash(ITuple tuple) {
    Record key;
    try {
      key = mapper.map(tuple, keySchema);
    } catch (RuntimeException unreadable) {
      return 0;
    }
    return key == null ? 0 : hashed.set(internal.wrap(key)).hashCode();
  }
}
