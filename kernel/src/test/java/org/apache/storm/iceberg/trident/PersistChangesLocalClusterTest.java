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
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.WriteMode;
import org.apache.storm.iceberg.testing.OpaqueIdsSpout;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.iceberg.testing.TransactionalIdsSpout;
import org.apache.storm.iceberg.testing.TridentLedger;
import org.apache.storm.iceberg.testing.TridentRuns;
import org.apache.storm.trident.Stream;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code IcebergTrident.persist} in upsert mode in Storm's LocalCluster: four spout partitions emit
 * ids, each an update of its key (a day), whose sequence number is the id; the stream is
 * partitioned by key to two writing partitions and committed in one row delta per transaction. At the end the table
 * read back (deletes applied) equals the model built from the transactions the spout's final
 * attempts emitted, key for key: per transaction in order, the highest id of each key.
 */
@ExtendWith(SharedLocalCluster.class)
class PersistChangesLocalClusterTest {
  static final long EVENTS = 400;
  static final int BATCH = 10;
  static final int WRITERS = 2;
  /**
   * The table: one row per day, holding the id of its newest update. Every spout partition updates
   * every day, so without the key partitioning two writers would hold changes of one key.
   */
  static final Schema SCHEMA = new Schema(
      List.of(
          Types.NestedField.optional(1, "region", Types.StringType.get()),
          Types.NestedField.required(2, "event_time", Types.TimestampType.withZone()),
          Types.NestedField.optional(3, "id", Types.LongType.get()),
          Types.NestedField.optional(4, "payload", Types.StringType.get())),
      java.util.Set.of(2));
  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }

  @ParameterizedTest
  @EnumSource(value = StateType.class, names = {"TRANSACTIONAL", "OPAQUE"})
  void everyKeyHoldsItsNewestUpdateAfterEveryTransactionCommitsOnce(StateType type) throws Exception {
    if (type == StateType.OPAQUE) {
      TestTiers.longTierOnly("the quick tier runs the transactional spout; WholeStreamChangesTest replays opaque transactions");
    }
    Map<String, String> catalogProperties = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), SCHEMA, PartitionSpec.builderFor(SCHEMA).day("event_time").build(),
        TridentRuns.TABLE_PROPERTIES);
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withTridentStateType(type).withCommitRetryBackoffMillis(50)
        .withWriteMode(WriteMode.UPSERT).withChangeFields(null, "id")
        .build();

    String key = UUID.randomUUID().toString();
    TridentTopology trident = new TridentTopology();
    Stream stream = type == StateType.TRANSACTIONAL
        ? trident.newStream("tx-" + key, new TransactionalIdsSpout(key, EVENTS, TridentRuns.SPOUT_PARTITIONS, BATCH))
        : trident.newStream("tx-" + key, new OpaqueIdsSpout(key, EVENTS, TridentRuns.SPOUT_PARTITIONS, BATCH, 3));
    IcebergTrident.persist(stream.parallelismHint(TridentRuns.STATE_PARALLELISM), new Fields(TestTables.FIELDS), options, WRITERS);
    String name = "persist-changes-" + key.substring(0, 8);
    cluster.submitTopology(name, TridentRuns.config(), trident.build());
    TridentLedger ledger = TridentLedger.of(key);
    try {
      TridentRuns.awaitEveryRowCommitted(ledger, EVENTS, Duration.ofSeconds(120));
    } finally {
      TridentRuns.kill(cluster, name);
    }

    assertThat(rows(table)).isEqualTo(model(ledger));
    table.refresh();
    List<Snapshot> snapshots = new java.util.ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    assertThat(snapshots).allSatisfy(s -> assertThat(s.summary()).containsKey(TridentRuns.TXID));
    List<String> txids = snapshots.stream().map(s -> s.summary().get(TridentRuns.TXID)).toList();
    if (type == StateType.TRANSACTIONAL) {
      assertThat(txids).as("each transaction committed once").doesNotHaveDuplicates();
    } else {
      assertThat(snapshots.stream().filter(s -> txids.indexOf(s.summary().get(TridentRuns.TXID)) != snapshots.indexOf(s)))
          .as("a transaction committed again only to replace its earlier commit")
          .allSatisfy(s -> assertThat(s.summary().get(TridentRuns.COMMIT_ID)).contains("replaces-"));
    }
    assertThat(snapshots.stream().mapToLong(s -> Long.parseLong(s.summary().getOrDefault("added-equality-deletes", "0"))).sum())
        .as("equality deletes committed").isPositive();
  }

  /** Per transaction, in order, each key's highest id: what upsert by sequence number leaves. */
  static Map<String, Long> model(TridentLedger ledger) {
    Map<String, Long> model = new TreeMap<>();
    ledger.finalIdsByTxid().forEach((txid, ids) -> {
      Map<String, Long> newest = new TreeMap<>();
      for (long id : ids) {
        newest.merge(keyOf(ReplayingSpout.values(id)), id, Math::max);
      }
      model.putAll(newest);
    });
    return model;
  }

  static String keyOf(Values values) {
    return String.valueOf(values.get(2));
  }

  static Map<String, Long> rows(Table table) {
    Map<String, Long> rows = new TreeMap<>();
    for (Record record : TestTables.rows(table)) {
      long millis = ((OffsetDateTime) record.getField("event_time")).toInstant().toEpochMilli();
      Long previous = rows.put(String.valueOf(millis), (Long) record.getField("id"));
      assertThat(previous).as("key %s twice", millis).isNull();
    }
    return rows;
  }
}
