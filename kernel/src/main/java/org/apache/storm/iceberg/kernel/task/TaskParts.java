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

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.apache.storm.iceberg.kernel.batch.BatchFactory;
import org.apache.storm.iceberg.kernel.batch.FileFormats;
import org.apache.storm.iceberg.kernel.change.RowChanges;
import org.apache.storm.iceberg.kernel.commit.PositionsLedger;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.evolve.SchemaEvolver;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.kernel.seal.SealPolicies;
import org.apache.storm.iceberg.kernel.seal.ThresholdSealPolicy;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.kernel.table.TableLifecycle;
import org.apache.storm.iceberg.spi.MultiRecordMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.SealPolicy;

/**
 * What a writing task ({@link SinkTask}) is made of, opened on its worker: the table, its
 * lifecycle, the batches and their seal policies, the deduplication (null without source positions)
 * the schema evolver (null when schema evolution is off), the dead-letter stream (null when
 * there is none) and the fence that keeps row-level changes in source order (null unless a row-level
 * mode reads source positions).
 */
record TaskParts(
    OpenedTable opened, TableLifecycle lifecycle, BatchFactory batches, List<SealPolicy> policies,
    Deduplication dedup, SchemaEvolver evolver, DeadLetters deadLetters, ChangeFence fence) {

  /**
   * Checks the topology configuration, opens the table (auto-creating it when configured), resolves
   * the providers on this worker's classpath, and builds the task from the parts. A table of a
   * routing task ({@code routedTable}) skips the table-free checks: its task ran them at prepare, and
   * running them again would repeat their warnings at every table open.
   */
  static <T> T open(SinkSettings settings, TaskEnvironment env, boolean routedTable, Function<TaskParts, T> task) {
    Path spillDirectory = routedTable
        ? org.apache.storm.iceberg.kernel.ack.Holders.requireSpillDirectory(settings.spillPath())
        : WriterChecks.beforeAnyTable(settings, env);
    return OpenedTable.open(settings.target()).build(opened -> {
      TableLifecycle lifecycle = TableLifecycle.of(opened, settings.target(), env.metrics());
      List<SealPolicy> policies = SealPolicies.of(settings, opened.loader());
      RecordMapper mapper = settings.providers().recordMapper().resolve(opened.loader());
      RowChanges changes = RowChanges.of(settings.rowLevel(), opened.table(), mapper, settings.schemaEvolution());
      BatchFactory batches = new BatchFactory(opened.table(), FileFormats.of(settings.providers(), opened.loader()), mapper,
          env.task(), spillDirectory,
          ThresholdSealPolicy.smallestLimit(policies, ThresholdSealPolicy.Measure.BYTES), env.metrics(),
          many(settings, opened.loader()), changes);
      SchemaEvolver evolver = settings.schemaEvolution()
          ? SchemaEvolver.enable(opened.table(), mapper, changes == null ? java.util.Set.of() : changes.fields().names())
          : null;
      ChangeFence fence = settings.rowLevel().byKey() && settings.sourcePositions() != null
          ? new ChangeFence(opened.table().name(), env.clock(), orderWaitMillis(settings, env))
          : null;
      return task.apply(new TaskParts(opened, lifecycle, batches, policies, deduplication(settings, opened.loader(), env),
          evolver, DeadLetters.of(settings, opened.table().name(), env), fence));
    });
  }

  /**
   * How long a row-level task waits for failed or missing changes at most: as set, or twice the
   * message timeout (a tuple times out between one and two timeouts after its emit) plus 30 s for the
   * spout's retry backoff (KafkaSpout's default caps it at 10 s).
   */
  static long orderWaitMillis(SinkSettings settings, TaskEnvironment env) {
    long set = settings.rowLevel().orderWaitMillis();
    return set > 0 ? set : 2_000L * org.apache.storm.utils.ObjectReader.getInt(
        env.topologyConfig().get(org.apache.storm.Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS), 30) + 30_000;
  }

  /** The multi-record mapper, or null when each tuple is one record. */
  static MultiRecordMapper many(SinkSettings settings, ClassLoader loader) {
    return settings.providers().multiRecordMapper() == null ? null : settings.providers().multiRecordMapper().resolve(loader);
  }

  private static Deduplication deduplication(SinkSettings settings, ClassLoader loader, TaskEnvironment env) {
    SinkSettings.SourcePositions positions = settings.sourcePositions();
    return positions == null ? null : new Deduplication(positions.extractor().resolve(loader),
        new PositionsLedger(settings.commits().walNamespace(), settings.commits().branch()), positions.resetAccepted(), env.metrics());
  }
}
