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

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.iceberg.mappers.FieldNameRecordMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.iceberg.kernel.metrics.RegistryCapture;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.ITuple;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Poison tuples in a running topology with a dead-letter stream: the bolt reading the stream fails
 * each dead letter the first time, so its tuple replays (the sink acked it only after the emit, and
 * the anchor carries the failure back to the spout), and is dead-lettered again; every id is acked
 * at the spout, every good one is in the table once, every poison one reached the consumer once.
 * Long tier only: the LocalCluster's start costs the quick tier more than it has left.
 */
@ExtendWith(SharedLocalCluster.class)
// Long tier, checked before the class starts its cluster. The quick tier proves it on the kernel:
// DeadLetterStreamTest (emit, then ack, anchored) and RandomFaultSchedulesTest's dead-letter schedules
// (a consumer failing a third of the dead letters).
@EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
class DeadLetterLocalClusterTest {
  static final long EVENTS = 600;
  /** The consumer's deliveries per poison id, by ledger key (the cluster runs in this JVM). */
  static final Map<String, Map<Long, Integer>> DELIVERIES = new ConcurrentHashMap<>();
  static final Map<String, Set<Long>> ACCEPTED = new ConcurrentHashMap<>();

  @TempDir Path dir;

  static boolean poison(long id) {
    return id % 20 == 7;
  }

  /** Maps by field name, but refuses every twentieth id as a producer's bad record. */
  static final class PoisonRefusingMapper implements RecordMapper {
    private final FieldNameRecordMapper fieldName = new FieldNameRecordMapper();

    @Override
    public Record map(ITuple tuple, Schema schema) {
      if (poison(tuple.getLongByField("id"))) {
        throw new RecordMappingException("payload", "poison payload from a bad producer");
      }
      return fieldName.map(tuple, schema);
    }
  }

  /** Reads the dead letters: fails each one the first time it sees its id, acks it the second. */
  public static final class FlakyDeadLetterBolt extends BaseRichBolt {
    private final String key;
    private transient OutputCollector collector;

    FlakyDeadLetterBolt(String key) {
      this.key = key;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
      this.collector = collector;
    }

    @Override
    public void execute(Tuple letter) {
      long id = (Long) ((List<?>) letter.getValueByField(DeadLetterFields.VALUES)).get(0);
      if (DELIVERIES.get(key).merge(id, 1, Integer::sum) == 1) {
        collector.fail(letter);
        return;
      }
      ACCEPTED.get(key).add(id);
      collector.ack(letter);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {}
  }

  @Test
  void deadLettersTheConsumerFailsReplayAndNoneIsLost(LocalCluster cluster) throws Exception {
    Map<String, String> catalogProperties = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withRecordMapper(new PoisonRefusingMapper()).withDeadLetterStream("dead-letters")
        .withCommitIntervalRecords(200).withCommitIntervalMillis(1_000).withTickIntervalSecs(1).build();
    String key = UUID.randomUUID().toString();
    DELIVERIES.put(key, new ConcurrentHashMap<>());
    ACCEPTED.put(key, ConcurrentHashMap.newKeySet());
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(key, EVENTS), 1);
    // One sink task: two on a HadoopCatalog contend for its commit lock and back off for seconds.
    builder.setBolt("iceberg", new IcebergBolt(options), 1).shuffleGrouping("events");
    builder.setBolt("dead-letter-reader", new FlakyDeadLetterBolt(key), 1).shuffleGrouping("iceberg", "dead-letters");
    ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(key);
    String name = "dead-letters-" + key.substring(0, 8);
    Set<Long> poisonIds = LongStream.range(0, EVENTS).filter(DeadLetterLocalClusterTest::poison).boxed().collect(Collectors.toSet());

    cluster.submitTopology(name, LocalClusterRuns.config(), builder.createTopology());
    long deadLettered;
    try {
      Deadline.await(Duration.ofSeconds(90), () -> ledger.acked.size() == EVENTS,
          () -> "all " + EVENTS + " ids acked; acked " + ledger.acked.size() + ", fails " + ledger.failCount.get());
      deadLettered = RegistryCapture.sumOfCounters(name, "iceberg-records-dead-lettered");
    } finally {
      KillOptions kill = new KillOptions();
      kill.set_wait_secs(0);
      cluster.killTopologyWithOpts(name, kill);
    }

    assertThat(ledger.failedIds).as("the ids whose dead letter the consumer failed, replayed").isEqualTo(poisonIds);
    assertThat(ACCEPTED.get(key)).as("every poison id reached the consumer").isEqualTo(poisonIds);
    assertThat(new TreeMap<>(DELIVERIES.get(key))).as("each twice: failed once, accepted once; never more")
        .allSatisfy((id, n) -> assertThat(n).as("deliveries of id " + id).isEqualTo(2));
    assertThat(deadLettered).isEqualTo(2L * poisonIds.size());
    List<Long> ids = TestTables.ids(table);
    assertThat(ids).as("every good id once, no poison id")
        .containsExactlyElementsOf(LongStream.range(0, EVENTS).filter(id -> !poison(id)).boxed().collect(Collectors.toList()));
  }
}
