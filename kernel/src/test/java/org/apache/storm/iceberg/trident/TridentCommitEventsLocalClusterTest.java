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

package org.apache.storm.iceberg.trident;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.spi.CommitEventFields;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TransactionalIdsSpout;
import org.apache.storm.iceberg.testing.TridentLedger;
import org.apache.storm.iceberg.testing.TridentRuns;
import org.apache.storm.trident.TridentState;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.operation.Consumer;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-partition Trident state with {@code withCommitEvents} in Storm's LocalCluster: two state
 * partitions, a transactional spout, and one commit refused definitively right after the other
 * partition committed the same transaction, so that Trident replays a transaction one partition has
 * committed already. Every snapshot the sink made gets exactly one event, which names it, its
 * sequence number and the files it added as the table shows them; the partition that committed
 * before the replay skips it and sends no second event. Each partition's newest transaction still
 * waits for that partition's next batch with tuples, which never comes once the spout is done.
 */
@ExtendWith(SharedLocalCluster.class)
class TridentCommitEventsLocalClusterTest {
  static final long EVENTS = 240;
  static final int BATCH = 10;
  /** The transaction from which on the fault is armed: mid-run. */
  static final long FAULTED_FROM_TXID = 3;
  /** The events each run's downstream operation saw, by run key, in order. */
  static final Map<String, List<List<Object>>> SEEN = new ConcurrentHashMap<>();
  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }

  /** Records every commit event it sees under its run's key. */
  static final class Record implements Consumer {
    private static final long serialVersionUID = 1L;
    private final String key;

    Record(String key) {
      this.key = key;
    }

    @Override
    public void accept(TridentTuple event) {
      SEEN.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(new ArrayList<>(event.getValues()));
    }
  }

  @Test
  void eachLandedTransactionOfEachPartitionYieldsOneEventAndAReplayCommittedAlreadyNone() throws Exception {
    Faults faults = Faults.create();
    Map<String, String> real = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(real);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(
        TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(), TridentRuns.TABLE_PROPERTIES);
    // The first landing of a transaction from FAULTED_FROM_TXID on arms one refusal of the next commit
    // attempt, which Iceberg does not retry and the sink takes as definite: the other partition's commit of it.
    AtomicLong armedTxid = new AtomicLong(-1);
    AtomicLong refusedAtMillis = new AtomicLong();
    AtomicInteger refused = new AtomicInteger();
    faults.afterCommitLanded = metadata -> {
      String txid = metadata.currentSnapshot().summary().get(TridentRuns.TXID);
      if (txid != null && Long.parseLong(txid) >= FAULTED_FROM_TXID && armedTxid.compareAndSet(-1, Long.parseLong(txid))) {
        faults.duringCommit = () -> {
          faults.duringCommit = () -> {};
          refused.incrementAndGet();
          refusedAtMillis.set(System.currentTimeMillis());
          throw new ValidationException("injected: commit refused before it was sent");
        };
      }
    };
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test")
        .withCatalogProperties(FaultInjectingCatalog.properties(real, faults)).withTable("db.events")
        .withTridentStateType(StateType.TRANSACTIONAL).withCommitRetryBackoffMillis(50).withCommitEvents("iceberg-commits").build();

    String key = UUID.randomUUID().toString();
    TridentTopology trident = new TridentTopology();
    TridentState state = trident.newStream("tx-" + key, new TransactionalIdsSpout(key, EVENTS, TridentRuns.SPOUT_PARTITIONS, BATCH))
        .partitionBy(new Fields("id"))
        .partitionPersist(new IcebergStateFactory(options), new Fields(TestTables.FIELDS), new IcebergStateUpdater(),
            CommitEventFields.fields())
        .parallelismHint(TridentRuns.STATE_PARALLELISM);
    state.newValuesStream().peek(new Record(key));
    String name = "trident-events-" + key.substring(0, 8);
    cluster.submitTopology(name, TridentRuns.config(), trident.build());
    TridentLedger ledger = TridentLedger.of(key);
    try {
      TridentRuns.awaitEveryRowCommitted(ledger, EVENTS, Duration.ofSeconds(60));
      Deadline.await(Duration.ofSeconds(30), () -> unannounced(table, events(key)).size() <= TridentRuns.STATE_PARALLELISM,
          () -> "an event for every snapshot but each partition's newest; unannounced " + unannounced(table, events(key)));
    } finally {
      TridentRuns.kill(cluster, name);
    }

    List<Snapshot> snapshots = TridentRuns.assertExactlyOnce(table, ledger, EVENTS);
    assertThat(refused.get()).as("commits refused").isEqualTo(1);
    long replayed = armedTxid.get();
    assertThat(ledger.replayed(replayed)).as("transaction %s replayed", replayed).isTrue();
    List<Snapshot> ofReplayed = snapshots.stream().filter(s -> s.summary().get(TridentRuns.TXID).equals(Long.toString(replayed))).toList();
    assertThat(ofReplayed).as("transaction %s: one snapshot per partition", replayed).hasSize(TridentRuns.STATE_PARALLELISM);
    assertThat(ofReplayed).as("one partition committed it before its replay").anyMatch(s -> s.timestampMillis() <= refusedAtMillis.get());

    List<List<Object>> events = events(key);
    Map<Long, Long> eventsPerSnapshot = events.stream()
        .collect(Collectors.groupingBy(event -> (Long) event.get(1), Collectors.counting()));
    assertThat(eventsPerSnapshot).as("events per snapshot").allSatisfy((snapshot, count) -> assertThat(count).isEqualTo(1));
    Map<Long, Snapshot> byId = snapshots.stream().collect(Collectors.toMap(Snapshot::snapshotId, s -> s));
    table.refresh();
    List<Long> allSnapshotIds = new ArrayList<>();
    table.snapshots().forEach(s -> allSnapshotIds.add(s.snapshotId()));
    assertThat(allSnapshotIds).as("every snapshot in the table is the sink's").containsExactlyInAnyOrderElementsOf(byId.keySet());
    assertThat(events).as("events describe the table's snapshots").allSatisfy(event -> {
      Snapshot snapshot = byId.get((Long) event.get(1));
      assertThat(snapshot).as("snapshot %s of an event", event.get(1)).isNotNull();
      assertThat(event.subList(0, 6)).containsExactly("db.events", snapshot.snapshotId(), snapshot.sequenceNumber(),
          Integer.parseInt(snapshot.summary().get("added-data-files")), Long.parseLong(snapshot.summary().get("added-files-size")), 0);
    });
    assertThat(ofReplayed).as("both partitions' commits of the replayed transaction announced")
        .allSatisfy(s -> assertThat(eventsPerSnapshot).containsKey(s.snapshotId()));
    Set<Long> newestPerPartition = snapshots.stream()
        .collect(Collectors.groupingBy(s -> s.summary().get(TridentRuns.PARTITION),
            Collectors.maxBy(java.util.Comparator.comparingLong(Snapshot::sequenceNumber))))
        .values().stream().map(s -> s.orElseThrow().snapshotId()).collect(Collectors.toSet());
    assertThat(unannounced(table, events)).as("only each partition's newest transaction waits for its next batch")
        .isSubsetOf(newestPerPartition);
  }

  static List<List<Object>> events(String key) {
    return SEEN.getOrDefault(key, List.of());
  }

  /** The snapshots of the table no event named yet. */
  static Set<Long> unannounced(Table table, List<List<Object>> events) {
    table.refresh();
    Set<Long> announced = events.stream().map(event -> (Long) event.get(1)).collect(Collectors.toSet());
    Set<Long> unannounced = new java.util.TreeSet<>();
    table.snapshots().forEach(s -> {
      if (!announced.contains(s.snapshotId())) {
        unannounced.add(s.snapshotId());
      }
    });
    return unannounced;
  }
}
