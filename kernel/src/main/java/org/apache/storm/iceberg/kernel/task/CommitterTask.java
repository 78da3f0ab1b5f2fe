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

import org.apache.storm.iceberg.kernel.seal.TopologyChecks;
import org.apache.storm.iceberg.kernel.table.HadoopCatalogWarning;
import org.apache.storm.iceberg.kernel.table.TableLifecycle;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.commit.CommitProtocol;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.iceberg.kernel.commit.PositionsLedger;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the {@code IcebergCommitterBolt} task does: accumulate the writers' descriptors and commit
 * all their files in one append, through the same {@link CommitProtocol} as {@code IcebergBolt},
 * when the first of the group thresholds is crossed (data files pending, or time since the first
 * pending descriptor; checked on every descriptor and tick). Then it acks every descriptor, or fails
 * them all if the append did not land. A descriptor of row-level changes is never merged: it
 * commits alone, in arrival order, behind a fence that keeps each source partition's changes in
 * order ({@link ChangeDescriptors}). Each commit records in the positions ledger its descriptors'
 * own positions and, from a routing writer's, the offsets routed to other tables it may claim
 * ({@link RoundClaims}).
 *
 * <p>Assumptions: one committer task per table and WAL namespace (the bolt warns otherwise); writers
 * and committer name the same table in the same catalog; commit ids are never reused. A routing
 * committer holds one of these per open table.
 *
 * <p>A descriptor it cannot use (corrupt, unknown version, a spec the table does not have even
 * after a refresh, another table) fails on its own with a clear error; the group goes on.
 */
public final class CommitterTask implements TableTask {
  private static final Logger LOG = LoggerFactory.getLogger(CommitterTask.class);

  private final Catalog catalog;
  private final Table table;
  private final CommitThenAck committer;
  private final OutputCollector collector;
  private final LongSupplier clock;
  private final SinkMetrics metrics;
  private final long intervalMillis;
  private final int maxDataFiles;
  private final CommitProtocol protocol;
  private final List<Pending> pending = new ArrayList<>();
  private int pendingFileCount;
  private long firstPendingAtMillis;

  private final PositionsLedger ledger;
  private final ChangeDescriptors changes;

  /** A descriptor waiting for the group's commit, with what it carries. */
  private record Pending(Tuple descriptor, DataFilesCodec.Entry entry) {}

  private CommitterTask(OpenedTable opened, CommitProtocol protocol, TaskEnvironment env, SinkSettings settings) {
    this.catalog = opened.catalog();
    this.table = opened.table();
    this.protocol = protocol;
    ChangeFence fence = new ChangeFence(opened.table().name(), env.clock(), TaskParts.orderWaitMillis(settings, env));
    this.committer = new CommitThenAck(protocol, TableLifecycle.of(opened, settings.target(), env.metrics()), env, fence,
        CommitEvents.of(settings, protocol));
    this.changes = new ChangeDescriptors(fence, committer, opened.table());
    this.collector = env.collector();
    this.clock = env.clock();
    this.metrics = env.metrics();
    this.intervalMillis = settings.splitSink().groupCommitIntervalMillis();
    this.maxDataFiles = settings.splitSink().groupCommitMaxDataFiles();
    this.ledger = new PositionsLedger(settings.commits().walNamespace(), settings.commits().branch());
  }

  public static CommitterTask open(SinkSettings settings, TaskEnvironment env) {
    TopologyChecks.forCommitter(settings, env);
    return OpenedTable.open(settings.target())
        .build(
            opened -> {
              HadoopCatalogWarning.warnIfCommitsMayRace(
                  opened.catalog(), opened.table(), settings.target().catalogProperties(), env);
              CommitProtocol protocol = TaskCommitProtocol.open(opened.table(), settings, env, opened.loader());
              return new CommitterTask(opened, protocol, env, settings);
            });
  }

  public static CommitterTask open(SinkSettings settings, TaskIdentity task, OutputCollector collector, LongSupplier clock) {
    return open(settings, TaskEnvironment.detached(task, collector, clock));
  }

  /** This task's metrics. */
  public SinkMetrics metrics() {
    return metrics;
  }

  @Override
  public void execute(Tuple tuple) {
    if (!TupleUtils.isTick(tuple)) {
      accept(tuple);
    }
    commitIfDue();
  }

  private void accept(Tuple descriptor) {
    DataFilesCodec.Entry entry;
    try {
      entry = decode(descriptor);
    } catch (RuntimeException e) {
      IllegalArgumentException error =
          new IllegalArgumentException("Committer of " + table.name() + " cannot use a descriptor: " + e.getMessage(), e);
      LOG.error(Redaction.redact(error.getMessage()), Redaction.of(error));
      collector.reportError(error);
      collector.fail(descriptor);
      return;
    }
    if (pending.isEmpty()) {
      firstPendingAtMillis = clock.getAsLong();
    }
    pending.add(new Pending(descriptor, entry));
    pendingFileCount += entry.files().size();
    metrics.pending(pendingFileCount, firstPendingAtMillis);
  }

  private DataFilesCodec.Entry decode(Tuple descriptor) {
    Object value = descriptor.getValueByField(DescriptorEmitter.DESCRIPTOR_FIELD);
    byte[] payload = value instanceof byte[] ? (byte[]) value : String.valueOf(value).getBytes(StandardCharsets.UTF_8);
    String origin =
        "descriptor from component '" + descriptor.getSourceComponent() + "' task " + descriptor.getSourceTask()
            + " (message id " + descriptor.getMessageId() + ")";
    DataFilesCodec.Entry entry;
    try {
      entry = DataFilesCodec.decode(payload, origin, table.specs());
    } catch (DataFilesCodec.UnknownSpecException e) {
      // A writer may have seen a spec change this task has not: look again once.
      table.refresh();
      entry = DataFilesCodec.decode(payload, origin, table.specs());
    }
    if (!entry.table().equals(table.name())) {
      throw new IllegalArgumentException(
          origin + " is for table " + entry.table() + "; writers and committer must name the same table");
    }
    return entry;
  }

  private void commitIfDue() {
    if (pending.isEmpty()) {
      return;
    }
    boolean due =
        pendingFileCount >= maxDataFiles || clock.getAsLong() - firstPendingAtMillis >= intervalMillis;
    if (due) {
      commitPending();
    }
  }

  /**
   * Commits the pending descriptors' files in one append; a descriptor of row-level changes commits
   * alone instead ({@link ChangeDescriptors}), after the appended ones that came before it. A
   * descriptor whose batch has passed its commit deadline is failed instead, alone: Storm is about
   * to replay its tuples.
   */
  private void commitPending() {
    List<Pending> taken = List.copyOf(pending);
    pending.clear();
    pendingFileCount = 0;
    metrics.nothingPending();
    DescriptorGroup group = new DescriptorGroup();
    Positions round = new Positions();
    Positions committed = committedPositions(taken);
    RoundClaims claims = new RoundClaims(committed);
    for (Pending waiting : taken) {
      Positions held = waiting.entry().positions() == null ? null : Positions.decode(waiting.entry().positions());
      boolean byKey = ChangeDescriptors.holds(waiting.entry());
      if (!usable(waiting, held, committed, round)) {
        if (byKey) {
          changes.failed(held);
        }
      } else if (byKey) {
        group.commit(committer);
        changes.commit(waiting.descriptor(), waiting.entry(), held, committed, claims.recording(waiting.entry(), held));
      } else {
        group.add(waiting.descriptor(), waiting.entry(), claims.recording(waiting.entry(), held));
      }
    }
    group.commit(committer);
  }

  /**
   * Whether a descriptor may commit in this round: it has not expired, and its source positions
   * ({@code held}, or null) are new; they join {@code round}. Otherwise it is failed.
   */
  private boolean usable(Pending waiting, Positions held, Positions committed, Positions round) {
    if (protocol.expired(waiting.entry().oldestTupleMillis())) {
      failExpired(waiting);
      return false;
    }
    if (held == null) {
      return true;
    }
    if (!admitted(waiting, held, committed, round)) {
      return false;
    }
    round.addAll(held);
    return true;
  }

  /** What the sink committed, read only when a pending descriptor carries source positions. */
  private Positions committedPositions(List<Pending> pending) {
    if (pending.stream().noneMatch(waiting -> waiting.entry().positions() != null)) {
      return new Positions();
    }
    table.refresh();
    return ledger.committed(table).positions();
  }

  /**
   * Whether a descriptor's positions are new: none committed, none in an earlier descriptor of the
   * group. Two writers held one source partition (as during a rebalance) otherwise, and the
   * descriptor is failed alone: its tuples replay, and the writers skip what is committed.
   */
  private boolean admitted(Pending waiting, Positions held, Positions committed, Positions group) {
    SourcePosition shared = committed.firstShared(held);
    if (shared == null) {
      shared = group.firstShared(held);
    }
    if (shared == null) {
      return true;
    }
    IllegalStateException error = new IllegalStateException(
        "Committer of " + table.name() + " fails the descriptor of batch " + waiting.entry().id() + " from task "
            + waiting.entry().taskIndex() + ": it holds " + shared.source() + " partition " + shared.partition() + " offset "
            + shared.offset() + ", which the sink committed or another writer holds; its tuples replay and the"
            + " committed ones are skipped");
    LOG.warn(Redaction.redact(error.getMessage()));
    collector.reportError(error);
    collector.fail(waiting.descriptor());
    return false;
  }

  private void failExpired(Pending waiting) {
    IllegalStateException error =
        new IllegalStateException(
            "Committer of " + table.name() + " fails the descriptor of batch " + waiting.entry().id() + " from task "
                + waiting.entry().taskIndex() + " without committing it: its oldest tuple is older than"
                + " topology.message.timeout.secs less the commit deadline margin, so Storm replays it");
    LOG.warn(Redaction.redact(error.getMessage()));
    metrics.batchExpired();
    collector.fail(waiting.descriptor());
  }

  /** Commits the pending descriptors now, whatever the thresholds: a routing committer closing this table. */
  @Override
  public void sealNow() {
    if (!pending.isEmpty()) {
      commitPending();
    }
  }

  /** Leaves pending descriptors to time out and replay, and closes the catalog. */
  @Override
  public void close() {
    OpenedTable.closeCatalog(catalog);
  }

  /** As {@link #close}: the committer holds nothing but the catalog to close. */
  @Override
  public void abandon() {
    close();
  }
}
