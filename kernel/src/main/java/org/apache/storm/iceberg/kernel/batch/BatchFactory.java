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

package org.apache.storm.iceberg.kernel.batch;

import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.change.RowChanges;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import java.nio.file.Path;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.spi.FieldMatchingMapper;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.MultiRecordMapper;
import org.apache.storm.iceberg.spi.RecordMapper;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
/**
 * Opens batches for one task against the table's current metadata, with the task's record mapper,
 * in the format and with the write properties {@link FileFormats} chooses.
 *
 * <p>The mapper is handed the table's current schema with its columns' former names ({@link
 * FormerNamesSchema}), built once per schema, not per batch or record, so a column renamed from
 * outside keeps the values producers still send under its old name. A mapper that matches fields by
 * name ({@link FieldMatchingMapper}) reports the fields it writes nowhere to an {@link
 * UnmatchedFieldsLog}. With a multi-record mapper, that mapper maps every tuple instead.
 */
public final class BatchFactory {
  private static final Logger LOG = LoggerFactory.getLogger(BatchFactory.class);

  private final Table table;
  private final FileFormats formats;
  private final RecordMapper mapper;
  /** Null when each tuple is one record. */
  private final MultiRecordMapper many;
  /** Null in append mode. */
  private final RowChanges changes;
  private final TaskIdentity task;
  private final Path spillDirectory;
  private final long bytesLimit;
  private final SinkMetrics metrics;
  /** The table's spec last found to differ from the one row-level changes are pinned to, or -1. */
  private int specChangeSeen = -1;
  private FormerNamesSchema mapperSchema;
  private int mapperSchemaHistory;
  private RowCheck.ForSchema rowChecks;
  /** Benchmarks only ({@code bench/KernelVsLimit}): write rows unchecked, to measure what the checks cost. */
  private final boolean rowChecksOff = Boolean.getBoolean("storm.iceberg.bench.rowChecksOff");

  public BatchFactory(
      Table table,
      FileFormats formats,
      RecordMapper mapper,
      TaskIdentity task,
      Path spillDirectory,
      long bytesLimit,
      SinkMetrics metrics,
      MultiRecordMapper many,
      RowChanges changes) {
    this.table = table;
    this.metrics = metrics;
    this.changes = changes;
    this.many = many;
    this.bytesLimit = bytesLimit;
    this.spillDirectory = spillDirectory;
    this.formats = formats;
    this.mapper = mapper;
    this.task = task;
    if (mapper instanceof FieldMatchingMapper matching) {
      matching.onUnmatchedFields(
          new UnmatchedFieldsLog(table.name(), schema -> schema == mapperSchema, metrics,
              changes == null ? java.util.Set.of() : changes.fields().names()));
    }
  }

  /** Whether each tuple carries many records: the batches' {@link OpenBatch#manyRecords}. */
  public boolean manyRecords() {
    return many != null;
  }

  /** Opens a batch; the caller has refreshed the table. */
  public OpenBatch<?> open(long nowMillis) {
    if (changes != null && table.spec().specId() != changes.spec().specId() && table.spec().specId() != specChangeSeen) {
      specChangeSeen = table.spec().specId();
      metrics.specChange();
      LOG.warn("The partition spec of {} changed to spec {} ({}) while this task writes row-level changes: it keeps"
          + " writing under spec {} ({}), the one it started with, since an equality delete reaches only rows of its"
          + " own spec. A task that starts now refuses the table; to change the spec of a table fed by changes, stop"
          + " the stream, rewrite the table into one created with the new spec, and start the stream on it",
          table.name(), table.spec().specId(), table.spec(), changes.spec().specId(), changes.spec());
    }
    return OpenBatch.open(table, mapperSchema(), rowChecks(), mapper, many, changes, formats.writer(table), task.taskIndex(),
        task.taskId(), nowMillis, spillDirectory, bytesLimit, formats.targetFileSize(table));
  }

  /**
   * The current schema with its former names, built again only when the table's current schema or
   * its number of schemas changes: a rename adds a schema, and a rename undone makes an earlier
   * schema current again.
   */
  private FormerNamesSchema mapperSchema() {
    Schema current = table.schema();
    int history = table.schemas().size();
    if (mapperSchema == null || mapperSchema.schemaId() != current.schemaId() || mapperSchemaHistory != history) {
      mapperSchema = FormerNamesSchema.of(current, table.schemas().values());
      mapperSchemaHistory = history;
    }
    return mapperSchema;
  }

  /** What the writers would refuse, checked before each row is written: built once per schema. */
  private RowCheck.ForSchema rowChecks() {
    Schema current = table.schema();
    if (rowChecks == null || rowChecks.schemaId() != current.schemaId()) {
      rowChecks = new RowCheck.ForSchema(current, rowChecksOff);
    }
    return rowChecks;
  }
}
