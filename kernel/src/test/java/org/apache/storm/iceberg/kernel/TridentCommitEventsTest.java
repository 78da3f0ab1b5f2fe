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

package org.apache.storm.iceberg.kernel;

import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.Config;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.trident.TridentTask;
import org.apache.storm.iceberg.spi.CommitEventFields;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.Faults.CommitFault;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.ReportedFailedException;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.trident.tuple.TridentTupleView;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Trident state task's commit events, driven as Trident drives a state (the updater's emit, then
 * {@code beginCommit}, the batch's files, {@code commit}) on a Hadoop catalog: one event per
 * transaction whose commit landed, describing the snapshot the table holds for it, emitted at the
 * next batch; none for a transaction a replay finds committed, none for an opaque replay's second
 * commit of a transaction, one for a commit whose answer was lost but which landed.
 */
class TridentCommitEventsTest {
  static final Map<String, Object> CONF = Map.of(Config.TOPOLOGY_NAME, "orders");

  @TempDir Path dir;
  final Faults faults = Faults.create();
  final TridentTupleView.FreshOutputFactory tuples = new TridentTupleView.FreshOutputFactory(new Fields(TestTables.FIELDS));
  final Events events = new Events();
  Table table;
  Map<String, String> catalogProperties;

  /** What the state updater's collector received. */
  static final class Events implements TridentCollector {
    final List<List<Object>> emitted = new ArrayList<>();

    @Override
    public void emit(List<Object> values) {
      emitted.add(values);
    }

    @Override
    public void flush() {}

    @Override
    public void reportError(Throwable t) {
      throw new AssertionError("unexpected error report", t);
    }

    List<Long> snapshotIds() {
      int index = CommitEventFields.fields().fieldIndex(CommitEventFields.SNAPSHOT_ID);
      return emitted.stream().map(values -> (Long) values.get(index)).toList();
    }
  }

  void createTable() {
    Map<String, String> real = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(real);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    catalogProperties = FaultInjectingCatalog.properties(real, faults);
  }

  TridentTask open(StateType type, boolean commitEvents) {
    IcebergOptions.Builder builder = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withTridentStateType(type).withCommitRetryBackoffMillis(20);
    IcebergOptions options = (commitEvents ? builder.withCommitEvents("iceberg-commits") : builder).build();
    return TridentTask.openState(settings(options), CONF, SinkMetrics.detachedContext(new MetricRegistry()), 0, 1, "0");
  }

  List<TridentTuple> batch(long fromId, long toId) {
    return LongStream.range(fromId, toId).mapToObj(id -> (TridentTuple) tuples.create(java.util.Arrays.asList(id, "eu", null, "p" + id))).toList();
  }

  /** One transaction, as {@code partitionPersist}'s commit phase runs it with the Iceberg state updater. */
  void run(TridentTask task, long txid, List<TridentTuple> batch) {
    task.transactions().begin(txid);
    task.transactions().emitCommitEvents(events);
    if (task.transactions().wantsFiles()) {
      task.transactions().add(task.files().write(batch));
    }
    task.transactions().commit(txid);
  }

  List<Snapshot> snapshots() {
    table.refresh();
    return TestTables.snapshots(table);
  }

  @Test
  void eachLandedTransactionYieldsOneEventOfItsSnapshotAtTheNextBatchAndASkippedReplayNone() {
    createTable();
    TridentTask task = open(StateType.TRANSACTIONAL, true);
    run(task, 1, batch(0, 10));
    assertThat(events.emitted).as("nothing emitted before the next batch").isEmpty();
    run(task, 1, batch(0, 10));
    run(task, 2, batch(10, 25));
    run(task, 3, batch(25, 26));

    List<Snapshot> snapshots = snapshots();
    assertThat(snapshots).hasSize(3);
    // Transaction 3's event waits for the batch after it.
    assertThat(events.emitted).hasSize(2);
    assertDescribes(events.emitted.get(0), snapshots.get(0));
    assertDescribes(events.emitted.get(1), snapshots.get(1));
    run(open(StateType.TRANSACTIONAL, true), 3, batch(25, 26));
    assertThat(events.emitted).as("a new incarnation's skipped replay makes none").hasSize(2);
    run(task, 4, batch(26, 27));
    assertThat(events.snapshotIds()).containsExactly(snapshots.get(0).snapshotId(), snapshots.get(1).snapshotId(),
        snapshots.get(2).snapshotId());
  }

  @Test
  void anOpaqueReplayThatReplacesATransactionMakesNoSecondEvent() {
    createTable();
    TridentTask task = open(StateType.OPAQUE, true);
    run(task, 1, batch(0, 10));
    run(task, 2, batch(10, 20));
    // Transaction 2 fails after its commit and replays with other tuples: its event went with this
    // replay's batch, and the replacement it commits is not described again.
    run(task, 2, batch(10, 15));
    run(task, 3, batch(20, 21));
    run(task, 4, batch(21, 22));

    List<Snapshot> snapshots = snapshots();
    assertThat(snapshots).extracting(s -> s.summary().get("storm.iceberg.trident-txid")).containsExactly("1", "2", "2", "3", "4");
    assertThat(events.snapshotIds()).containsExactly(snapshots.get(0).snapshotId(), snapshots.get(1).snapshotId(),
        snapshots.get(3).snapshotId());
  }

  @Test
  void aCommitWhoseAnswerWasLostButLandedYieldsOneEvent() {
    createTable();
    TridentTask task = open(StateType.TRANSACTIONAL, true);
    faults.inject(CommitFault.UNKNOWN_AFTER, 1);
    run(task, 1, batch(0, 10));
    assertThat(faults.injected.get()).isEqualTo(1);
    run(task, 2, batch(10, 20));

    assertThat(events.snapshotIds()).containsExactly(snapshots().get(0).snapshotId());
  }

  @Test
  void aCommitThatDidNotLandYieldsNoEventAndItsReplayOne() {
    createTable();
    TridentTask task = open(StateType.TRANSACTIONAL, true);
    faults.inject(CommitFault.UNREACHABLE, 1);
    assertThatThrownBy(() -> run(task, 1, batch(0, 10))).isInstanceOf(ReportedFailedException.class);
    faults.clear();
    run(task, 1, batch(0, 10));
    run(task, 2, batch(10, 20));

    assertThat(events.snapshotIds()).containsExactly(snapshots().get(0).snapshotId());
  }

  /**
   * The one way a landed transaction goes without an event: the state could not confirm the landing
   * (the catalog went down behind it), so the batch replays and finds the transaction committed.
   */
  @Test
  void aLandingThatWentUnconfirmedAndIsSkippedOnItsReplayYieldsNoEvent() {
    createTable();
    TridentTask task = open(StateType.TRANSACTIONAL, true);
    faults.inject(CommitFault.UNKNOWN_AFTER, 1);
    faults.afterAppliedCommit = faults::takeDown;
    assertThatThrownBy(() -> run(task, 1, batch(0, 10))).isInstanceOf(ReportedFailedException.class);
    faults.clear();
    run(task, 1, batch(0, 10));
    run(task, 2, batch(10, 20));
    run(task, 3, batch(20, 30));

    List<Snapshot> snapshots = snapshots();
    assertThat(snapshots).hasSize(3);
    assertThat(events.snapshotIds()).containsExactly(snapshots.get(1).snapshotId());
  }

  @Test
  void withoutCommitEventsNothingIsEmitted() {
    createTable();
    TridentTask task = open(StateType.TRANSACTIONAL, false);
    run(task, 1, batch(0, 10));
    run(task, 2, batch(10, 20));

    assertThat(snapshots()).hasSize(2);
    assertThat(events.emitted).isEmpty();
  }

  /** Asserts that {@code event} describes {@code snapshot} of the sink's table as the table itself does. */
  void assertDescribes(List<Object> event, Snapshot snapshot) {
    long bytes = 0;
    int files = 0;
    for (var file : snapshot.addedDataFiles(table.io())) {
      bytes += file.fileSizeInBytes();
      files++;
    }
    Fields fields = CommitEventFields.fields();
    assertThat(event).hasSize(fields.size());
    assertThat(event.subList(0, fields.fieldIndex(CommitEventFields.DURATION_MILLIS)))
        .containsExactly("db.events", snapshot.snapshotId(), snapshot.sequenceNumber(), files, bytes, 0);
    assertThat(files).isPositive();
    // How long the commit took is the commit's own to say: only that it is a duration.
    assertThat((Long) event.get(fields.fieldIndex(CommitEventFields.DURATION_MILLIS))).isNotNegative();
  }
}
