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

package org.apache.storm.iceberg.testing;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.kafka.spout.FirstPollOffsetStrategy;
import org.apache.storm.kafka.spout.KafkaSpoutConfig;
import org.apache.storm.kafka.spout.KafkaSpoutRetryExponentialBackoff;
import org.apache.storm.kafka.spout.KafkaSpoutRetryExponentialBackoff.TimeInterval;

/**
 * What the Kafka tests share: the table the records land in (the fields storm-kafka-client's default
 * record translator emits, the record's value being its id), the spout config, and the counts a
 * user would check.
 */
public final class KafkaTopologies {
  /** One column per field of KafkaSpout's default record translator; {@code value} holds the record's id. */
  public static final Schema SCHEMA = new Schema(
      required(1, "topic", Types.StringType.get()),
      required(2, "partition", Types.IntegerType.get()),
      required(3, "offset", Types.LongType.get()),
      optional(4, "key", Types.LongType.get()),
      required(5, "value", Types.LongType.get()));

  private KafkaTopologies() {}

  /**
   * A KafkaSpout config for source positions: at-least-once, the first poll from the group's
   * committed offsets (the earliest when none), retries without a cap (a capped retry drops a
   * record for good), quick ones here so replays come within the test; a {@link KafkaLedger} under
   * {@code ledgerKey} and an {@link OffsetCommits} interceptor watching.
   */
  public static KafkaSpoutConfig.Builder<Long, Long> spoutConfig(
      String bootstrapServers, String topic, String group, String ledgerKey) {
    return new KafkaSpoutConfig.Builder<Long, Long>(bootstrapServers, topic)
        .setGroupId(group)
        .setProp(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class)
        .setProp(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class)
        .setProp(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, OffsetCommits.Interceptor.class.getName())
        // A test stops its broker before the shared LocalCluster shuts the last topology's worker down:
        // the spout's closing offset commit must give up well within Storm's 60 s slot shutdown, not
        // after the consumer's default 60 s (a request timeout may not exceed the API timeout).
        .setProp(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000)
        .setProp(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000)
        .setProcessingGuarantee(KafkaSpoutConfig.ProcessingGuarantee.AT_LEAST_ONCE)
        .setFirstPollOffsetStrategy(FirstPollOffsetStrategy.UNCOMMITTED_EARLIEST)
        .setRetry(new KafkaSpoutRetryExponentialBackoff(
            TimeInterval.milliSeconds(0), TimeInterval.milliSeconds(10), Integer.MAX_VALUE, TimeInterval.seconds(1)))
        .setTupleListener(KafkaLedger.listener(ledgerKey));
  }

  /** As {@link #spoutConfig}, for a topic of Long keys and String (JSON) values. */
  public static KafkaSpoutConfig.Builder<Long, String> jsonSpoutConfig(
      String bootstrapServers, String topic, String group, String ledgerKey) {
    return new KafkaSpoutConfig.Builder<Long, String>(bootstrapServers, topic)
        .setGroupId(group)
        .setProp(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, LongDeserializer.class)
        .setProp(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, org.apache.kafka.common.serialization.StringDeserializer.class)
        .setProp(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, OffsetCommits.Interceptor.class.getName())
        .setProp(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000)
        .setProp(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000)
        .setProcessingGuarantee(KafkaSpoutConfig.ProcessingGuarantee.AT_LEAST_ONCE)
        .setFirstPollOffsetStrategy(FirstPollOffsetStrategy.UNCOMMITTED_EARLIEST)
        .setRetry(new KafkaSpoutRetryExponentialBackoff(
            TimeInterval.milliSeconds(0), TimeInterval.milliSeconds(10), Integer.MAX_VALUE, TimeInterval.seconds(1)))
        .setTupleListener(KafkaLedger.listener(ledgerKey));
  }

  /** How many times each record value (id) is in the table, counting every row: no distinct(). */
  public static Map<Long, Long> copiesById(Table table) {
    table.refresh();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).select("value").build()) {
      Map<Long, Long> copies = new TreeMap<>();
      records.forEach(record -> copies.merge((Long) record.getField("value"), 1L, Long::sum));
      return copies;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The ids in the table more than once, with their counts. */
  public static Map<Long, Long> duplicates(Map<Long, Long> copies) {
    return copies.entrySet().stream().filter(e -> e.getValue() > 1)
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
  }

  /** The rows in the table's current snapshot, from its summary (no data file read). */
  public static long rowsInTable(Table table) {
    table.refresh();
    Snapshot current = table.currentSnapshot();
    return current == null ? 0 : Long.parseLong(current.summary().getOrDefault("total-records", "0"));
  }

  /** Kills {@code name} at once and waits until the cluster no longer lists it. */
  public static void kill(LocalCluster cluster, String name) throws Exception {
    KillOptions kill = new KillOptions();
    kill.set_wait_secs(0);
    cluster.killTopologyWithOpts(name, kill);
    Deadline.await(Duration.ofSeconds(60), () -> {
      try {
        return cluster.getTopologySummaries().stream().noneMatch(summary -> summary.get_name().equals(name));
      } catch (Exception e) {
        return false;
      }
    }, () -> "topology " + name + " gone");
  }
}
