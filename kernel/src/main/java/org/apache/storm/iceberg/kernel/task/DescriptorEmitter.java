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

package org.apache.storm.iceberg.kernel.task;

import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.batch.SealedBatch;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.apache.iceberg.Table;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Values;

/**
 * {@code IcebergWriterBolt}'s handling of a sealed batch, in this order: emit one descriptor tuple
 * holding the batch's data files ({@link DataFilesCodec} JSON; for row-level changes also its
 * equality-delete files and what the committer's tripwires read) and naming its table, anchored to
 * every tuple of the batch, then ack those tuples. Storm's anchoring keeps each source tuple pending until the
 * committer acks (or fails) the descriptor, so at-least-once holds across the split.
 */
public final class DescriptorEmitter implements SealedBatchHandler {
  /** The field of the descriptor tuples a writer emits and the committer reads. */
  public static final String DESCRIPTOR_FIELD = "iceberg_data_files";
  /**
   * The descriptor's second field: the table its files belong to, as the writer's options or router
   * named it ({@code db.events}), for a routing committer, or a fields grouping on it.
   */
  public static final String TABLE_FIELD = "iceberg_table";

  private final Table table;
  private final String identifier;
  private final TaskIdentity task;
  private final OutputCollector collector;
  private final LongSupplier clock;

  private final SinkMetrics metrics;
  private final ChangeFence fence;

  /**
   * @param identifier the table as the options or the router named it
   * @param fence the writer's intake fence (row-level changes with source positions), or null
   */
  DescriptorEmitter(Table table, String identifier, TaskEnvironment env, ChangeFence fence) {
    this.fence = fence;
    this.table = table;
    this.identifier = identifier;
    this.task = env.task();
    this.collector = env.collector();
    this.clock = env.clock();
    this.metrics = env.metrics();
  }

  /** The files leave this task with the descriptor: from here on they are the committer's to count. */
  @Override
  public void handle(SealedBatch batch) {
    try {
      emit(batch);
    } finally {
      batch.tuples().release();
    }
  }

  /**
   * What a routing writer's batch may claim beyond its own positions ({@code OffsetClaims}): the
   * offsets its task routed to other tables, for the committer, which alone learns what landed, to
   * record those its table's ledger lacks; null for none.
   */
  private static String elsewhere(SealedBatch batch) {
    if (batch.recorded() == batch.positions()) {
      return null;
    }
    org.apache.storm.iceberg.kernel.position.Positions others = new org.apache.storm.iceberg.kernel.position.Positions();
    others.addAllExcept(batch.recorded(), batch.positions());
    return others.isEmpty() ? null : others.encode();
  }

  private void emit(SealedBatch batch) {
    metrics.nothingPending();
    String batchId = task.component() + "-" + task.taskIndex() + "-" + UUID.randomUUID();
    DataFilesCodec.Entry descriptor =
        new DataFilesCodec.Entry(
            batchId, table.name(), task.component(), task.taskIndex(), clock.getAsLong(), batch.dataFiles(),
            batch.oldestTupleMillis(), batch.positions().isEmpty() ? null : batch.positions().encode(), batch.deleteFiles(),
            batch.changes() == null ? null : batch.changes().encode(table.specs()), elsewhere(batch));
    // table.specs() is the metadata the batch was written against: it was refreshed when the batch opened.
    String json = new String(DataFilesCodec.encode(descriptor, table.specs()), StandardCharsets.UTF_8);
    // Anchoring updates each tuple's ack value: the acks below settle the same materialized tuples.
    List<Integer> committers = collector.emit(batch.tuples().materialize(), new Values(json, identifier));
    if (committers.isEmpty()) {
      // Acking now would tell the spout these rows are safe while nothing will ever commit them.
      BatchFailures.failAll(
          collector,
          batch.tuples(),
          new IllegalStateException(
              "IcebergWriterBolt '" + task.component() + "' has no subscriber on its default stream: "
                  + "connect an IcebergCommitterBolt to it with globalGrouping"));
      return;
    }
    batch.tuples().ackAll(collector);
    if (fence != null) {
      // A writer never learns whether its batch landed: the committer's fence orders the commits.
      // The writer's own fence only orders intake, and for it a batch handed on in order is done;
      // otherwise a change it held back would keep its partition fenced until the wait ran out.
      fence.landed(batch.positions());
    }
  }
}
