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

import java.util.List;
import java.util.function.LongSupplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.TupleMappingException;
import org.apache.storm.iceberg.kernel.batch.BatchFactory;
import org.apache.storm.iceberg.kernel.batch.OpenBatch;
import org.apache.storm.iceberg.kernel.batch.RecordRejectedException;
import org.apache.storm.iceberg.kernel.batch.SealedBatch;
import org.apache.storm.iceberg.kernel.change.ChangeSummary;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.table.TableLifecycle;
import org.apache.storm.tuple.ITuple;

/**
 * Writes the tuples of Trident batches into new data files of the table, through the kernel's map
 * and write stages: the same record mapper, file format and writers as the bolts. The files are
 * durable and invisible until a transaction commits them. Not thread-safe.
 */
public final class TridentFiles {
  private final Table table;
  private final BatchFactory batches;
  private final TableLifecycle lifecycle;
  private final SinkMetrics metrics;
  private final LongSupplier clock;
  private final boolean manyRecords;

  public TridentFiles(Table table, BatchFactory batches, TableLifecycle lifecycle, SinkMetrics metrics, LongSupplier clock) {
    this.manyRecords = batches.manyRecords();
    this.table = table;
    this.batches = batches;
    this.lifecycle = lifecycle;
    this.metrics = metrics;
    this.clock = clock;
  }

  /**
   * A written batch's files: its data files and, in a row-level write mode, its equality deletes and
   * what its changes hold for the tripwires (null in append mode).
   */
  public record Files(List<DataFile> dataFiles, List<DeleteFile> deleteFiles, ChangeSummary changes) {
    /** A batch that wrote nothing. */
    public static Files none() {
      return new Files(List.of(), List.of(), null);
    }
  }

  /** Writes every tuple's record and closes the files; throws as {@link Writing#add} and {@link Writing#finish}. */
  public Files write(Iterable<? extends ITuple> tuples) {
    Writing writing = start();
    for (ITuple tuple : tuples) {
      writing.add(tuple);
    }
    return writing.finish();
  }

  /** Starts writing one batch against the table's current schema and spec. */
  public Writing start() {
    lifecycle.refresh(table);
    return new Writing(batches.open(clock.getAsLong()));
  }

  /** One batch being written. A method that throws has abandoned it: nothing of it is kept. */
  public final class Writing {
    private final OpenBatch<?> batch;

    private Writing(OpenBatch<?> batch) {
      this.batch = batch;
    }

    /**
     * Maps the tuple and writes its record.
     *
     * @throws TupleMappingException when the tuple cannot be mapped or partitioned
     */
    public void add(ITuple tuple) {
      try {
        write(batch, tuple);
      } catch (RuntimeException e) {
        abandon();
        throw e;
      }
    }

    /** Closes the files; none is visible until a transaction commits it. */
    public Files finish() {
      try {
        long started = System.nanoTime();
        SealedBatch sealed = batch.seal();
        metrics.sealed(sealed.dataFiles().size(), System.nanoTime() - started);
        return new Files(sealed.dataFiles(), sealed.deleteFiles(), sealed.changes());
      } catch (RuntimeException e) {
        abandon();
        throw e;
      } finally {
        metrics.publishRecordsWritten();
      }
    }

    /** Closes the files, which become orphans. */
    public void abandon() {
      batch.abandon().release();
    }
  }

  private <T> void write(OpenBatch<T> batch, ITuple tuple) {
    if (manyRecords) {
      writeAll(batch, tuple);
      return;
    }
    T row;
    try {
      row = batch.map(tuple);
    } catch (RuntimeException e) {
      throw new TupleMappingException(table.name(), tuple, e);
    }
    try {
      batch.write(row);
    } catch (RecordRejectedException e) {
      throw new TupleMappingException(table.name(), tuple, e);
    }
    metrics.recordWritten();
  }

  /** {@link #write} for a tuple that carries many records: all of them or none, else the transaction fails. */
  private <T> void writeAll(OpenBatch<T> batch, ITuple tuple) {
    List<T> rows;
    try {
      rows = batch.mapAll(tuple);
    } catch (RuntimeException e) {
      throw new TupleMappingException(table.name(), tuple, e);
    }
    try {
      batch.writeAll(rows);
    } catch (RecordRejectedException e) {
      throw new TupleMappingException(table.name(), tuple, e);
    }
    metrics.recordsWritten(rows.size());
  }
}
