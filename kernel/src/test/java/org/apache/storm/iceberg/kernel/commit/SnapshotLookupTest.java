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

package org.apache.storm.iceberg.kernel.commit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.Faults.CommitFault;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit's resolution walks only the snapshots committed since the commit was attempted, however
 * long the table's history: the walk stops at the branch's head the attempt read ({@link
 * SnapshotLookup.Window}). Every table here has {@value #HISTORY} snapshots of another writer, all
 * seconds old, so a bound by time alone would cut none of them.
 */
class SnapshotLookupTest {
  private static final int HISTORY = 20;

  @TempDir Path dir;
  private final Faults faults = Faults.create();
  private Table table;
  private final AtomicInteger snapshotReads = new AtomicInteger();
  /** The same table, counting the snapshots the sink reads through it (each ancestry step reads one). */
  private Table counting;

  @BeforeEach
  void tableWithHistory() {
    Catalog real = TestCatalogs.load(TestCatalogs.hadoop(dir));
    ((SupportsNamespaces) real).createNamespace(Namespace.of("db"));
    Table created = real.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    Transaction history = created.newTransaction();
    for (int i = 0; i < HISTORY; i++) {
      history.newFastAppend().set(SummaryKeys.COMMIT_ID, "other-writer-" + i).commit();
    }
    history.commitTransaction();
    table = TestCatalogs.load(FaultInjectingCatalog.properties(TestCatalogs.hadoop(dir), faults)).loadTable(TableIdentifier.of("db", "events"));
    counting = new BaseTable(((HasTableOperations) table).operations(), table.name()) {
      @Override
      public Snapshot snapshot(long snapshotId) {
        snapshotReads.incrementAndGet();
        return super.snapshot(snapshotId);
      }
    };
  }

  @Test
  void anAmbiguousCommitIsSettledReadingOnlyTheHeadItWasAttemptedOn() {
    WalStore wal = ProviderRegistry.find(WalStoreFactory.class, "table-fileio", getClass().getClassLoader()).create(Map.of());
    CommitProtocol protocol =
        new CommitProtocol(counting, wal, new WalScope(counting, "default", "topology", "iceberg", 0), Map.of(),
            new CommitSettler.Retries(3, 1), CommitDeadline.NONE, null, CommitBranch.MAIN);
    faults.inject(CommitFault.UNKNOWN_NOT_APPLIED, 1);
    snapshotReads.set(0);

    CommitOutcome outcome = protocol.commit(List.of(dataFile()), Map.of(), System.currentTimeMillis());

    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.COMMITTED_AFTER_ERROR);
    assertThat(faults.injected).hasValue(1);
    table.refresh();
    List<String> commitIds = new ArrayList<>();
    TestTables.snapshots(table).forEach(snapshot -> commitIds.add(snapshot.summary().get(SummaryKeys.COMMIT_ID)));
    assertThat(commitIds).hasSize(HISTORY + 1).containsOnlyOnce(outcome.commitId());
    // The lookup after the lost answer read the head the attempt was made on and stopped there;
    // before the bound it read all 20 snapshots of the other writer.
    assertThat(snapshotReads).as("snapshots read to settle the commit").hasValueLessThanOrEqualTo(2);
  }

  @Test
  void theLookupAndTheRetrysValidatorStopAtTheAttemptsBaseAndStillFindWhatLandedSince() {
    SnapshotLookup.Window window = SnapshotLookup.Window.attemptedOn(table, CommitBranch.MAIN, System.currentTimeMillis());
    table.newFastAppend().set(SummaryKeys.COMMIT_ID, "landed-after-the-attempt").commit();
    table.newFastAppend().set(SummaryKeys.COMMIT_ID, "another-after-it").commit();
    snapshotReads.set(0);

    assertThat(SnapshotLookup.find(counting, CommitBranch.MAIN, "landed-after-the-attempt", window))
        .isEqualTo(TestTables.snapshots(table).get(HISTORY).snapshotId());
    assertThat(SnapshotLookup.find(counting, CommitBranch.MAIN, "never-landed", window)).isNull();
    // Two walks: 2 snapshots to the commit, 3 to the base (the 2 since and the base itself).
    assertThat(snapshotReads).hasValue(5);

    CommitSettler.AbsentCommitId absent = new CommitSettler.AbsentCommitId("never-landed", window);
    assertThat(absent.validate(CommitBranch.MAIN.ancestry(counting))).isTrue();
    assertThat(snapshotReads).hasValue(8);
    CommitSettler.AbsentCommitId landed = new CommitSettler.AbsentCommitId("landed-after-the-attempt", window);
    assertThat(landed.validate(CommitBranch.MAIN.ancestry(counting))).isFalse();
    assertThat(landed.refused()).isTrue();
  }

  @Test
  void withoutAKnownBaseTheWalkFallsBackToTheTimeBound() {
    // A restart's WAL entry records when it was written, not the head; a rolled-back branch loses it.
    long now = System.currentTimeMillis();
    for (Long base : new Long[] {null, -1L}) {
      SnapshotLookup.Window window = new SnapshotLookup.Window(base, now);
      assertThat(SnapshotLookup.find(table, CommitBranch.MAIN, "other-writer-0", window))
          .isEqualTo(TestTables.snapshots(table).get(0).snapshotId());
      assertThat(SnapshotLookup.find(table, CommitBranch.MAIN, "other-writer-0",
          new SnapshotLookup.Window(base, now + SnapshotLookup.CLOCK_SKEW_ALLOWANCE_MS + 60_000))).isNull();
    }
  }

  @Test
  void readingTheCommittedPositionsAgainWalksOnlyTheSnapshotsSinceTheLastRead() {
    PositionsLedger ledger = new PositionsLedger("wal", CommitBranch.MAIN.name());
    // A sink that has not committed yet walks the whole history once.
    assertThat(ledger.committed(counting).snapshotId()).isNull();
    assertThat(snapshotReads).hasValue(HISTORY);

    table.newFastAppend().set(SummaryKeys.COMMIT_ID, "other-writer-after").commit();
    table.newFastAppend().set(PositionsLedger.SCOPE_KEY, "wal").set(PositionsLedger.POSITIONS_KEY, "events@t|0=0-99").commit();
    long sinkCommit = table.currentSnapshot().snapshotId();
    table.newFastAppend().set(SummaryKeys.COMMIT_ID, "other-writer-later").commit();
    snapshotReads.set(0);
    PositionsLedger.Committed committed = ledger.committed(counting);
    assertThat(committed.snapshotId()).isEqualTo(sinkCommit);
    assertThat(committed.positions().encode()).isEqualTo("events@t|0=0-99");
    assertThat(snapshotReads).as("snapshots read: the one since, then the sink's commit").hasValue(2);

    table.newFastAppend().set(SummaryKeys.COMMIT_ID, "other-writer-last").commit();
    snapshotReads.set(0);
    assertThat(ledger.committed(counting).snapshotId()).isEqualTo(sinkCommit);
    // The new head, then the head the last read started from, whose answer holds for good; before
    // the reads remembered it, a sink whose own commit lay behind N other commits read N + 1 each time.
    assertThat(snapshotReads).hasValue(2);

    table.newFastAppend().set(SummaryKeys.COMMIT_ID, "other-writer-very-last").commit();
    PositionsLedger fresh = new PositionsLedger("other-wal", CommitBranch.MAIN.name());
    snapshotReads.set(0);
    assertThat(fresh.committed(counting).snapshotId()).isNull();
    assertThat(snapshotReads).hasValue(HISTORY + 5);
    snapshotReads.set(0);
    assertThat(fresh.committed(counting).snapshotId()).isNull();
    assertThat(snapshotReads).as("a second read of a sink without commits, nothing committed since").hasValue(1);
  }

  private DataFile dataFile() {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(dir.resolve("data-0.parquet").toString())
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(100)
        .withRecordCount(1)
        .build();
  }
}
