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

package org.apache.storm.iceberg;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight IcebergBolt tasks, each with a batch open, meet a new top-level field ({@code score}) and a
 * new nested one ({@code address.zip}) at once (the spout emits every event at once; each task's
 * batches seal on time only, so each has old rows open when the first new value reaches it), on JdbcCatalog over SQLite: each column is added
 * once, in one schema change, every tuple is acked without a replay, and no value sent after the
 * change is lost.
 */
@ExtendWith(SharedLocalCluster.class)
// Long tier: eight tasks racing appends and schema commits on SQLite take 10-30 s on two cores. Checked
// before the class starts its cluster. The quick tier's proofs: SchemaEvolutionTest's two sinks, lost
// race and ambiguous schema commits.
@EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
class SchemaEvolutionLocalClusterTest {
  static final long EVENTS = 400;
  /** The first id whose event carries the new fields. */
  static final long FIRST_EVOLVED = 200;
  static final Schema SCHEMA = new Schema(
      required(1, "id", Types.LongType.get()),
      optional(2, "payload", Types.StringType.get()),
      optional(3, "address", Types.StructType.of(optional(4, "city", Types.StringType.get()))));

  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }

  /** Events whose {@code score} and {@code address.zip} are null before {@link #FIRST_EVOLVED}. */
  static class EvolvingSpout extends ReplayingSpout {
    EvolvingSpout(String ledgerKey, long count) {
      super(ledgerKey, count);
    }

    @Override
    protected Values event(long id) {
      Map<String, Object> address = new TreeMap<>();
      address.put("city", "city-" + id % 7);
      if (id >= FIRST_EVOLVED) {
        address.put("zip", "zip-" + id);
      }
      return new Values(id, "payload-" + id, address, id >= FIRST_EVOLVED ? id + 0.5 : null);
    }

    @Override
    protected Fields eventFields() {
      return new Fields("id", "payload", "address", "score");
    }
  }

  @Test
  void eightTasksMeetingNewFieldsAtOnceAddEachColumnOnceAndLoseNoValue() throws Exception {
    Map<String, String> catalogProperties = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    // Eight tasks' appends and schema commits race for one table: let each retry patiently.
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.COMMIT_NUM_RETRIES, "100", TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "10",
            TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "500", TableProperties.COMMIT_TOTAL_RETRY_TIME_MS, "120000"));
    String ledgerKey = UUID.randomUUID().toString();
    String name = "evolve-" + ledgerKey.substring(0, 8);
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withCommitIntervalRecords(10_000).withCommitIntervalMillis(2_000).withTickIntervalSecs(1)
        .withSchemaEvolution(SchemaEvolution.ADD_AND_WIDEN).build();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new EvolvingSpout(ledgerKey, EVENTS), 1);
    builder.setBolt("iceberg", new IcebergBolt(options), 8).shuffleGrouping("events");
    LocalClusterRuns.runUntilAllAcked(cluster, name, builder.createTopology(), ledgerKey, EVENTS);

    assertThat(ReplayingSpout.ledger(ledgerKey).failCount.get()).as("nothing failed or replayed").isZero();
    table.refresh();
    assertThat(table.schemas()).as("one schema change, adding both columns").hasSize(2);
    assertThat(table.schema().findType("score")).isEqualTo(Types.DoubleType.get());
    assertThat(table.schema().findType("address.zip")).isEqualTo(Types.StringType.get());
    List<Record> rows = TestTables.rows(table);
    assertThat(rows.stream().map(r -> (Long) r.getField("id")).sorted().collect(Collectors.toList()))
        .as("one row per id").containsExactlyElementsOf(LongStream.range(0, EVENTS).boxed().collect(Collectors.toList()));
    Map<Long, Object> scores = new TreeMap<>();
    Map<Long, Object> zips = new TreeMap<>();
    for (Record row : rows) {
      scores.put((Long) row.getField("id"), row.getField("score"));
      zips.put((Long) row.getField("id"), ((Record) row.getField("address")).getField("zip"));
    }
    assertThat(scores.values().stream().filter(Objects::nonNull).count()).as("non-null scores")
        .isEqualTo(EVENTS - FIRST_EVOLVED);
    assertThat(zips.values().stream().filter(Objects::nonNull).count()).as("non-null zips")
        .isEqualTo(EVENTS - FIRST_EVOLVED);
    LongStream.range(FIRST_EVOLVED, EVENTS).forEach(id -> {
      assertThat(scores.get(id)).as("score of %d", id).isEqualTo(id + 0.5);
      assertThat(zips.get(id)).as("zip of %d", id).isEqualTo("zip-" + id);
    });
  }
}
