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

package org.apache.storm.iceberg.examples;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.storm.StormSubmitter;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.kafka.spout.FirstPollOffsetStrategy;
import org.apache.storm.kafka.spout.KafkaSpout;
import org.apache.storm.kafka.spout.KafkaSpoutConfig;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * Exactly-once from Kafka: storm-kafka-client's {@link KafkaSpout} (at-least-once) into {@link
 * IcebergBolt} (4 tasks, grouped by topic and partition) with source positions, writing {@code
 * examples.kafka_events}: one row per Kafka record, whatever the spout replays. The topic's records
 * carry longs (key and value); the row holds the fields the spout's default record translator
 * emits. It reads a topic, so it runs on a cluster only:
 *
 * <pre>
 *   storm jar storm-iceberg-examples-…-topology.jar org.apache.storm.iceberg.examples.IcebergKafkaExampleTopology \
 *     cluster /shared/warehouse --bootstrap-servers broker1:9092 --topic events [--at-least-once] \
 *     [--catalog-property key=value]...
 * </pre>
 *
 * <p>{@code --at-least-once} leaves source positions out, to compare (into {@code
 * examples.kafka_events_at_least_once}): a replay then writes its rows again. The warehouse and {@code --catalog-property} are as {@link ExampleMain} describes.
 */
public final class IcebergKafkaExampleTopology {
  public static final String NAME = "iceberg-kafka-example";
  public static final String TABLE = "examples.kafka_events";
  /** Where {@code --at-least-once} writes, so the two modes never share a table. */
  public static final String AT_LEAST_ONCE_TABLE = "examples.kafka_events_at_least_once";
  public static final String SPOUT = "kafka";
  public static final String SINK = "iceberg";
  /** The consumer group; the table, not the group's offsets, records what landed. */
  public static final String GROUP = "iceberg-kafka-example";
  static final String BOOTSTRAP_SERVERS = "--bootstrap-servers";
  static final String TOPIC = "--topic";
  static final String AT_LEAST_ONCE = "--at-least-once";
  /** One column per field of KafkaSpout's default record translator. */
  public static final Schema SCHEMA = new Schema(
      required(1, "topic", Types.StringType.get()),
      required(2, "partition", Types.IntegerType.get()),
      required(3, "offset", Types.LongType.get()),
      optional(4, "key", Types.LongType.get()),
      required(5, "value", Types.LongType.get()));

  private IcebergKafkaExampleTopology() {}

  public static void main(String[] args) {
    try {
      CommandLine line = CommandLine.parse(args);
      IcebergOptions options = options(line.shared().catalogProperties(), line.bootstrapServers(), line.positions());
      StormSubmitter.submitTopology(NAME, LocalExampleRun.Pipeline.BOLTS.config(), topology(line.bootstrapServers(), line.topic(), options));
      System.out.println("submitted " + NAME + ": topic " + line.topic() + " into " + table(line.positions()) + " under "
          + line.shared().warehouse + (line.positions() ? ", with source positions" : ", at-least-once"));
      System.exit(0);
    } catch (Exception e) {
      e.printStackTrace();
      System.exit(1);
    }
  }

  /** The command line: the Kafka flags, then what {@link ExampleMain.CommandLine} parses. */
  record CommandLine(String bootstrapServers, String topic, boolean positions, ExampleMain.CommandLine shared) {
    static CommandLine parse(String[] args) {
      List<String> rest = new ArrayList<>(List.of(args));
      String bootstrapServers = take(rest, BOOTSTRAP_SERVERS);
      String topic = take(rest, TOPIC);
      boolean positions = !rest.remove(AT_LEAST_ONCE);
      ExampleMain.CommandLine shared = ExampleMain.CommandLine.parse(rest.toArray(String[]::new), 0);
      if (!shared.cluster) {
        throw new IllegalArgumentException(NAME + " reads a Kafka topic and runs on a cluster only: start its command line with 'cluster'");
      }
      return new CommandLine(bootstrapServers, topic, positions, shared);
    }
  }

  static IcebergOptions options(Map<String, String> catalog, String bootstrapServers, boolean positions) {
    IcebergOptions.Builder options = new IcebergOptions.Builder()
        .withCatalogProperties(catalog)
        .withTable(table(positions))
        .withAutoCreate(SCHEMA, PartitionSpec.unpartitioned())
        .withCommitIntervalRecords(5_000)
        .withCommitIntervalMillis(1_000)
        .withTickIntervalSecs(1);
    if (positions) {
      options.withSourcePositions("kafka", Map.of("bootstrap.servers", bootstrapServers));
    }
    return options.build();
  }

  static StormTopology topology(String bootstrapServers, String topic, IcebergOptions options) {
    KafkaSpoutConfig<Long, Long> spoutConfig = new KafkaSpoutConfig.Builder<Long, Long>(bootstrapServers, topic)
        .setProp(ConsumerConfig.GROUP_ID_CONFIG, GROUP)
        .setProp(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class)
        .setProp(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class)
        // Acks decide what is committed to Kafka; the default retry service retries without limit.
        .setProcessingGuarantee(KafkaSpoutConfig.ProcessingGuarantee.AT_LEAST_ONCE)
        .setFirstPollOffsetStrategy(FirstPollOffsetStrategy.UNCOMMITTED_EARLIEST)
        // Sets only how much a restarted spout reads again: the sink skips what the table holds.
        .setOffsetCommitPeriodMs(10_000)
        .build();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout(SPOUT, new KafkaSpout<>(spoutConfig), 1);
    builder.setBolt(SINK, new IcebergBolt(options), 4).fieldsGrouping(SPOUT, new Fields("topic", "partition"));
    return builder.createTopology();
  }

  /** The table a run writes: {@link #TABLE} with source positions, {@link #AT_LEAST_ONCE_TABLE} without. */
  public static String table(boolean positions) {
    return positions ? TABLE : AT_LEAST_ONCE_TABLE;
  }

  /** Removes {@code flag} and its value from {@code args}; returns the value. */
  private static String take(List<String> args, String flag) {
    int at = args.indexOf(flag);
    if (at < 0 || at + 1 >= args.size()) {
      throw new IllegalArgumentException(NAME + " needs " + flag + " <value>");
    }
    String value = args.get(at + 1);
    args.subList(at, at + 2).clear();
    return value;
  }
}
