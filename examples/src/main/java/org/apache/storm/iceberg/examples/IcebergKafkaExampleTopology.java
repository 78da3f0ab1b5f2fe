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
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.storm.StormSubmitter;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.WriteMode;
import org.apache.storm.kafka.spout.FirstPollOffsetStrategy;
import org.apache.storm.kafka.spout.KafkaSpout;
import org.apache.storm.kafka.spout.KafkaSpoutConfig;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Exactly-once from Kafka: storm-kafka-client's {@link KafkaSpout} (at-least-once) into {@link
 * IcebergBolt} (4 tasks, grouped by topic and partition) with source positions, writing {@code
 * examples.kafka_events}: one row per Kafka record, whatever the spout replays. The topic's records
 * carry longs (key and value); the row holds the fields the spout's default record translator
 * emits. It reads a topic, so it runs on a cluster only:
 *
 * <pre>
 *   storm jar storm-iceberg-examples-…-topology.jar org.apache.storm.iceberg.examples.IcebergKafkaExampleTopology \
 *     cluster /shared/warehouse --bootstrap-servers broker1:9092 --topic events [--at-least-once | --changelog] \
 *     [--catalog-property key=value]...
 * </pre>
 *
 * <p>{@code --at-least-once} leaves source positions out, to compare (into {@code
 * examples.kafka_events_at_least_once}): a replay then writes its rows again. The warehouse and {@code --catalog-property} are as {@link ExampleMain} describes.
 *
 * <p>{@code --changelog} adds a second output: the same records, read as a change stream, kept by
 * a second {@code IcebergBolt} ({@link #CHANGES_SINK}, 2 tasks, also grouped by topic and partition,
 * with source positions) in changelog mode in {@code examples.kafka_changes}, a table of one row
 * per key, format version 2. A record's key is the row's key, its value the key's new value, and
 * its offset the change's sequence number; a made-up rule stands in for a real change feed's
 * operation: a value divisible by 7 deletes its key ({@link #operation(long)}). The topic must be
 * keyed (each key's records in one partition, in order), as a change feed is.
 */
public final class IcebergKafkaExampleTopology {
  public static final String NAME = "iceberg-kafka-example";
  public static final String TABLE = "examples.kafka_events";
  /** Where {@code --at-least-once} writes, so the two modes never share a table. */
  public static final String AT_LEAST_ONCE_TABLE = "examples.kafka_events_at_least_once";
  public static final String SPOUT = "kafka";
  public static final String SINK = "iceberg";
  /** The changelog sink of {@code --changelog}. */
  public static final String CHANGES_SINK = "iceberg-changes";
  public static final String CHANGES_TABLE = "examples.kafka_changes";
  /** The consumer group; the table, not the group's offsets, records what landed. */
  public static final String GROUP = "iceberg-kafka-example";
  static final String BOOTSTRAP_SERVERS = "--bootstrap-servers";
  static final String TOPIC = "--topic";
  static final String AT_LEAST_ONCE = "--at-least-once";
  static final String CHANGELOG = "--changelog";
  /** One column per field of KafkaSpout's default record translator. */
  public static final Schema SCHEMA = new Schema(
      required(1, "topic", Types.StringType.get()),
      required(2, "partition", Types.IntegerType.get()),
      required(3, "offset", Types.LongType.get()),
      optional(4, "key", Types.LongType.get()),
      required(5, "value", Types.LongType.get()));
  /** {@code --changelog}'s table: each key's newest value; the key is the identifier field. */
  public static final Schema CHANGES_SCHEMA = new Schema(
      List.of(required(1, "key", Types.LongType.get()), required(2, "value", Types.LongType.get())), Set.of(1));

  private IcebergKafkaExampleTopology() {}

  public static void main(String[] args) {
    try {
      CommandLine line = CommandLine.parse(args);
      IcebergOptions options = options(line.shared().catalogProperties(), line.bootstrapServers(), line.positions());
      IcebergOptions changes = line.changelog() ? changelogOptions(line.shared().catalogProperties(), line.bootstrapServers()) : null;
      StormSubmitter.submitTopology(NAME, LocalExampleRun.Pipeline.BOLTS.config(),
          topology(line.bootstrapServers(), line.topic(), options, changes));
      System.out.println("submitted " + NAME + ": topic " + line.topic() + " into " + table(line.positions())
          + (line.changelog() ? " and, as a changelog, " + CHANGES_TABLE : "") + " under " + line.shared().warehouse
          + (line.positions() ? ", with source positions" : ", at-least-once"));
      System.exit(0);
    } catch (Exception e) {
      e.printStackTrace();
      System.exit(1);
    }
  }

  /** The command line: the Kafka flags, then what {@link ExampleMain.CommandLine} parses. */
  record CommandLine(String bootstrapServers, String topic, boolean positions, boolean changelog, ExampleMain.CommandLine shared) {
    static CommandLine parse(String[] args) {
      List<String> rest = new ArrayList<>(List.of(args));
      String bootstrapServers = take(rest, BOOTSTRAP_SERVERS);
      String topic = take(rest, TOPIC);
      boolean positions = !rest.remove(AT_LEAST_ONCE);
      boolean changelog = rest.remove(CHANGELOG);
      if (changelog && !positions) {
        throw new IllegalArgumentException(CHANGELOG + " needs source positions (a replayed change could undo a newer one):"
            + " leave out " + AT_LEAST_ONCE);
      }
      ExampleMain.CommandLine shared = ExampleMain.CommandLine.parse(rest.toArray(String[]::new), 0);
      if (!shared.cluster) {
        throw new IllegalArgumentException(NAME + " reads a Kafka topic and runs on a cluster only: start its command line with 'cluster'");
      }
      return new CommandLine(bootstrapServers, topic, positions, changelog, shared);
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

  /**
   * {@code --changelog}'s sink: changelog mode, keyed by {@code key}, the operation in the tuple's
   * {@code op} field and the sequence number in its {@code offset} (growing per key, since a key's
   * records share a partition).
   */
  static IcebergOptions changelogOptions(Map<String, String> catalog, String bootstrapServers) {
    return new IcebergOptions.Builder()
        .withCatalogProperties(catalog)
        .withTable(CHANGES_TABLE)
        .withAutoCreate(CHANGES_SCHEMA, PartitionSpec.unpartitioned())
        .withWriteMode(WriteMode.CHANGELOG)
        .withKeyColumns("key")
        .withChangeFields("op", "offset")
        .withSourcePositions("kafka", Map.of("bootstrap.servers", bootstrapServers))
        .withCommitIntervalRecords(5_000)
        .withCommitIntervalMillis(1_000)
        .withTickIntervalSecs(1)
        .build();
  }

  /**
   * The made-up operation of {@code --changelog}: a value divisible by 7 deletes its key ({@code
   * d}), any other value updates it ({@code u}: inserts the row, or replaces the key's row).
   */
  public static String operation(long value) {
    return value % 7 == 0 ? "d" : "u";
  }

  static StormTopology topology(String bootstrapServers, String topic, IcebergOptions options) {
    return topology(bootstrapServers, topic, options, null);
  }

  /** With {@code changes} (null for none), the records' changelog too, into a second sink. */
  static StormTopology topology(String bootstrapServers, String topic, IcebergOptions options, IcebergOptions changes) {
    KafkaSpoutConfig.Builder<Long, Long> spoutConfig = new KafkaSpoutConfig.Builder<Long, Long>(bootstrapServers, topic)
        .setProp(ConsumerConfig.GROUP_ID_CONFIG, GROUP)
        .setProp(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class)
        .setProp(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class)
        // Acks decide what is committed to Kafka; the default retry service retries without limit.
        .setProcessingGuarantee(KafkaSpoutConfig.ProcessingGuarantee.AT_LEAST_ONCE)
        .setFirstPollOffsetStrategy(FirstPollOffsetStrategy.UNCOMMITTED_EARLIEST)
        // Sets only how much a restarted spout reads again: the sink skips what the table holds.
        .setOffsetCommitPeriodMs(10_000);
    if (changes != null) {
      // The default translator's fields, and each record's operation for the changelog sink (the
      // append sink has no column for it, and leaves it out).
      spoutConfig.setRecordTranslator(
          record -> new Values(record.topic(), record.partition(), record.offset(), record.key(), record.value(), operation(record.value())),
          new Fields("topic", "partition", "offset", "key", "value", "op"));
    }
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout(SPOUT, new KafkaSpout<>(spoutConfig.build()), 1);
    builder.setBolt(SINK, new IcebergBolt(options), 4).fieldsGrouping(SPOUT, new Fields("topic", "partition"));
    if (changes != null) {
      // Each partition to one task, in order: a key's changes with it.
      builder.setBolt(CHANGES_SINK, new IcebergBolt(changes), 2).fieldsGrouping(SPOUT, new Fields("topic", "partition"));
    }
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
