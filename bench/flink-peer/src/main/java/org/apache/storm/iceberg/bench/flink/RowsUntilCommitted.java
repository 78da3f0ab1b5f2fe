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

package org.apache.storm.iceberg.bench.flink;

import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.source.RichSourceFunction;

/**
 * Emits the numbers 0 to {@code rows - 1}, then stays up until a checkpoint taken after the last one
 * has completed, so every row is committed while the job still runs. A bounded source would end the
 * job right after its last row, and IcebergSink (Sink V2) then drops what its final checkpoint
 * holds: in short jobs, most of the rows. Both sinks are fed by this source, so both wait alike.
 *
 * <p>Checkpoint calls and emits share the checkpoint lock, so a checkpoint sees either some rows
 * still to come or all of them emitted.
 */
final class RowsUntilCommitted extends RichSourceFunction<Long> implements CheckpointedFunction, CheckpointListener {
  private static final long serialVersionUID = 1L;
  private static final long NONE = Long.MAX_VALUE;

  private final long rows;
  private volatile boolean running = true;
  private boolean allEmitted;
  /** The first checkpoint that saw every row emitted; its completion means every row is committed. */
  private volatile long lastCheckpointNeeded = NONE;
  private volatile boolean committed;

  RowsUntilCommitted(long rows) {
    this.rows = rows;
  }

  @Override
  public void run(SourceContext<Long> context) throws InterruptedException {
    Object lock = context.getCheckpointLock();
    for (long row = 0; row < rows && running; row++) {
      synchronized (lock) {
        context.collect(row);
      }
    }
    synchronized (lock) {
      allEmitted = true;
    }
    while (running && !committed) {
      Thread.sleep(5);
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) {
    if (allEmitted && lastCheckpointNeeded == NONE) {
      lastCheckpointNeeded = context.getCheckpointId();
    }
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    if (checkpointId >= lastCheckpointNeeded) {
      committed = true;
    }
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {}

  @Override
  public void cancel() {
    running = false;
  }
}
