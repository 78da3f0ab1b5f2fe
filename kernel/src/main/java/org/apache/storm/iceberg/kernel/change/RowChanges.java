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

package org.apache.storm.iceberg.kernel.change;

import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.kernel.options.SinkSettings.RowLevel;
import org.apache.storm.iceberg.spi.RecordMapper;

/**
 * A task's row-level changes to one table: the key they apply by, where each tuple's operation and
 * sequence number are read, whether update-before images are dropped (upsert) or delete
 * (changelog), how many keys a batch holds collapsed before it streams ({@link KeyedChanges#stream}),
 * whether a removing change is read whole, as a row (with schema evolution on: its values may add
 * or widen columns too), rather than for its key alone, and the partition spec every batch writes
 * under: the table's when the task opened it. An equality delete reaches only rows of its own spec,
 * so a spec changed from outside would leave rows written under the old one undeletable; the task
 * keeps writing under the spec it started with instead (a task that starts after the change
 * refuses the table, {@link ChangeKey#of}).
 */
public record RowChanges(
    ChangeKey key, ChangeFields fields, boolean upsert, int maxHeldKeys, boolean removalsReadWhole, PartitionSpec spec) {
  /**
   * The row-level changes {@code rowLevel} makes to {@code table}, read through {@code mapper}, or
   * null in append mode.
   *
   * @param schemaEvolution whether the task evolves the schema: then a removal is read whole, since
   *     the mapper reports every value a key-only schema has no column for
   * @throws IllegalStateException when the table cannot take them ({@link ChangeKey#of})
   */
  public static RowChanges of(RowLevel rowLevel, Table table, RecordMapper mapper, boolean schemaEvolution) {
    if (!rowLevel.byKey()) {
      return null;
    }
    return new RowChanges(ChangeKey.of(table, rowLevel),
        new ChangeFields(mapper, rowLevel.operationField(), rowLevel.sequenceField()), rowLevel.mode() == RowLevel.Mode.UPSERT,
        rowLevel.maxHeldKeys(), schemaEvolution, table.spec());
  }

  /** The collapse of one batch written against {@code schema}, its rows held as {@code model} holds them. */
  public <R extends StructLike> KeyedChanges<R> newBatch(Schema schema, RowModel<R> model) {
    return new KeyedChanges<>(schema, key, upsert, model);
  }
}
