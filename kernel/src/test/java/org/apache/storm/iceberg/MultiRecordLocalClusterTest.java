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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
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
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kafka-like messages holding JSON arrays of {@value #PER_TUPLE} events, through {@code IcebergBolt}
 * and through the split sink, with the {@code "json-array"} mapper and a dead-letter stream: every
 * tuple is acked at the spout, every record of a good tuple is in the table once, and no record of
 * the one poison tuple (one bad element among good ones) is; it reached the dead letters once.
 */
@ExtendWith(SharedLocalCluster.class)
class MultiRecordLocalClusterTest {
  static final long TUPLES = 40;
  static final int PER_TUPLE = 10;
  static final long POISON = 7;

  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }

  /** Emits, for tuple {@code id}, a JSON array of records {@code id × 10 .. id × 10 + 9}; in tuple 7 one of them is bad. */
  public static final class JsonArraySpout extends ReplayingSpout {
    public JsonArraySpout(String ledgerKey, long count) {
      super(ledgerKey, count);
    }

    @Override
    protected Values event(long id) {
      String array = LongStream.range(id * PER_TUPLE, (id + 1) * PER_TUPLE)
          .mapToObj(record -> id == POISON && record % PER_TUPLE == 5
              ? "{\"id\": \"not a number\"}"
              : "{\"id\": " + record + ", \"region\": \"r" + (record % 3) + "\", \"payload\": \"p" + record + "\"}")
          .collect(Collectors.joining(",", "[", "]"));
      return new Values(array);
    }

    @Override
    protected Fields eventFields() {
      return new Fields("value");
    }
  }

  /** Acks every dead letter and keeps its error, by ledger key (the cluster runs in this JVM). */
  public static final class DeadLetterRecorder extends BaseRichBolt {
    static final Map<String, List<String>> ERRORS = new ConcurrentHashMap<>();
    private final String key;
    private transient OutputCollector collector;

    DeadLetterRecorder(String key) {
      this.key = key;
      ERRORS.put(key, new CopyOnWriteArrayList<>());
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
      this.collector = collector;
    }

    @Override
    public void execute(Tuple letter) {
      ERRORS.get(key).add(letter.getStringByField(DeadLetterFields.ERROR));
      collector.ack(letter);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {}
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"iceberg-bolt", "split-sink"})
  void everyRecordOfEachGoodTupleLandsOnceAndThePoisonTupleNotAtAll(String sink) throws Exception {
    Map<String, String> catalogProperties = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA,
        PartitionSpec.builderFor(TestTables.SCHEMA).identity("region").build());
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withMultiRecordMapper("json-array").withDeadLetterStream("dead-letters")
        .withCommitIntervalRecords(100).withCommitIntervalMillis(1_000).withTickIntervalSecs(1)
        .withGroupCommitIntervalMillis(1_000).build();
    String ledgerKey = UUID.randomUUID().toString();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new JsonArraySpout(ledgerKey, TUPLES), 1);
    String writer = sink.equals("iceberg-bolt") ? "iceberg" : "iceberg-writer";
    if (sink.equals("iceberg-bolt")) {
      builder.setBolt(writer, new IcebergBolt(options), 1).shuffleGrouping("events");
    } else {
      builder.setBolt(writer, new IcebergWriterBolt(options), 2).shuffleGrouping("events");
      builder.setBolt("iceberg-committer", new IcebergCommitterBolt(options), 1).globalGrouping(writer);
    }
    builder.setBolt("dead-letters", new DeadLetterRecorder(ledgerKey), 1).shuffleGrouping(writer, "dead-letters");

    LocalClusterRuns.runUntilAllAcked(cluster, "many-" + ledgerKey.substring(0, 8), builder.createTopology(), ledgerKey, TUPLES);

    List<Long> expected = LongStream.range(0, TUPLES * PER_TUPLE)
        .filter(record -> record / PER_TUPLE != POISON).boxed().collect(Collectors.toList());
    assertThat(TestTables.ids(table)).as("every record of a good tuple once, none of the poison one's")
        .containsExactlyElementsOf(expected);
    assertThat(ReplayingSpout.ledger(ledgerKey).failCount.get()).as("nothing failed: the poison tuple was dead-lettered").isZero();
    assertThat(DeadLetterRecorder.ERRORS.get(ledgerKey)).singleElement().asString()
        .startsWith("Cannot map tuple to table test.db.events: element 5 of 10 in the JSON array in field 'value': column 'id'"
            + " expects long but got JSON string (com.fasterxml.jackson.databind.node.TextNode)");
  }
}
