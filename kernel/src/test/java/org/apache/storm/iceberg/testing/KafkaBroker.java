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

import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real Kafka broker in this JVM: one node that is both broker and KRaft controller, listening on
 * 127.0.0.1, with its logs under a directory the caller owns. Started once per test class (it takes
 * a few seconds); topics are named per test.
 */
public final class KafkaBroker implements AutoCloseable {
  private final KafkaRaftServer server;
  private final String bootstrapServers;

  private KafkaBroker(KafkaRaftServer server, String bootstrapServers) {
    this.server = server;
    this.bootstrapServers = bootstrapServers;
  }

  /**
   * Formats a log directory under {@code dir} and starts the broker on it. Its two ports were free a
   * moment before the broker binds them; if another process (the other test JVM of a two-fork run)
   * took one meanwhile, the broker is started again on other ports, twice at most.
   */
  public static KafkaBroker start(Path dir) throws Exception {
    for (int attempt = 0; ; attempt++) {
      try {
        return startOnce(dir.resolve("kafka-logs-" + attempt));
      } catch (Exception e) {
        if (attempt == 2 || !portTaken(e)) {
          throw e;
        }
      }
    }
  }

  private static boolean portTaken(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof java.net.BindException) {
        return true;
      }
    }
    return false;
  }

  private static KafkaBroker startOnce(Path logDir) throws Exception {
    int brokerPort = freePort();
    int controllerPort = freePort();
    Path logs = Files.createDirectories(logDir);
    Properties props = new Properties();
    props.put("process.roles", "broker,controller");
    props.put("node.id", "1");
    props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    props.put("controller.listener.names", "CONTROLLER");
    props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    props.put("inter.broker.listener.name", "PLAINTEXT");
    props.put("log.dirs", logs.toString());
    // One node: every internal topic has one replica, and a consumer group forms at once.
    props.put("offsets.topic.replication.factor", "1");
    props.put("offsets.topic.num.partitions", "1");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("share.coordinator.state.topic.replication.factor", "1");
    props.put("share.coordinator.state.topic.min.isr", "1");
    props.put("group.initial.rebalance.delay.ms", "0");
    props.put("num.partitions", "1");
    KafkaConfig config = KafkaConfig.fromProps(props, false);
    new Formatter()
        .setPrintStream(new PrintStream(java.io.OutputStream.nullOutputStream()))
        .setNodeId(1)
        .setClusterId(Uuid.randomUuid().toString())
        .setControllerListenerName("CONTROLLER")
        .setMetadataLogDirectory(config.metadataLogDir())
        .setReleaseVersion(MetadataVersion.latestProduction())
        .addDirectory(logs.toString())
        .run();
    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    try {
      server.startup();
    } catch (RuntimeException e) {
      server.shutdown();
      throw e;
    }
    KafkaBroker broker = new KafkaBroker(server, "127.0.0.1:" + brokerPort);
    broker.awaitReady();
    return broker;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private void awaitReady() throws Exception {
    try (Admin admin = admin()) {
      Deadline.await(Duration.ofSeconds(60), () -> {
        try {
          return !admin.describeCluster().nodes().get().isEmpty();
        } catch (Exception e) {
          return false;
        }
      }, () -> "the Kafka broker at " + bootstrapServers + " to serve");
    }
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  public Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
  }

  /**
   * Creates {@code topic} with {@code partitions} partitions of one replica each, and waits until
   * the broker serves every one: its metadata names a leader before the partition is ready there,
   * and an idempotent producer whose first send is refused can stay refused.
   */
  public void createTopic(String topic, int partitions) throws Exception {
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    }
    Deadline.await(Duration.ofSeconds(60), () -> {
      try {
        return records(topic, partitions) == 0;
      } catch (Exception e) {
        return false;
      }
    }, () -> "every partition of " + topic + " served");
  }

  /** How many records {@code topic} holds: the sum of its partitions' end offsets. */
  public long records(String topic, int partitions) throws Exception {
    try (Admin admin = admin()) {
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (int partition = 0; partition < partitions; partition++) {
        latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
      }
      return admin.listOffsets(latest).all().get().values().stream().mapToLong(info -> info.offset()).sum();
    }
  }

  /**
   * Produces the ids {@code 0..count-1} as the records' values (Long), with no key, id {@code i} to
   * partition {@code i % partitions}, waits until every one is acknowledged, and checks that the
   * topic holds exactly that many (the producer is idempotent: a retried send is not written twice).
   */
  public void produceIds(String topic, int partitions, long count) throws Exception {
    produceIds(topic, partitions, count, 0);
  }

  /**
   * As {@link #produceIds(String, int, long)}, with key {@code id % keys} (none when {@code keys} is
   * 0): a keyed topic whose key's records all share one partition, since {@code keys} must be a
   * multiple of {@code partitions} ({@code id % partitions} is then {@code key % partitions}).
   */
  public void produceIds(String topic, int partitions, long count, long keys) throws Exception {
    if (keys != 0 && keys % partitions != 0) {
      throw new IllegalArgumentException(keys + " keys over " + partitions + " partitions: one key's records would land in"
          + " several partitions; use a multiple of " + partitions);
    }
    Properties props = producerProperties();
    try (KafkaProducer<Long, Long> producer = new KafkaProducer<>(props, new LongSerializer(), new LongSerializer())) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (long id = 0; id < count; id++) {
        sent.add(producer.send(new ProducerRecord<>(topic, (int) (id % partitions), keys == 0 ? null : id % keys, id)));
      }
      producer.flush();
      for (Future<RecordMetadata> future : sent) {
        future.get();
      }
    }
    long held = records(topic, partitions);
    if (held != count) {
      throw new IllegalStateException(topic + " holds " + held + " records after " + count + " were produced");
    }
  }

  /**
   * Produces {@code values} (JSON text) keyed by their row keys, each to partition {@code key %
   * partitions}, as a keyed topic does (Debezium's default), in order, waiting until every one is
   * acknowledged.
   */
  public void produceKeyed(String topic, int partitions, List<Map.Entry<Long, String>> values) throws Exception {
    Properties props = producerProperties();
    try (KafkaProducer<Long, String> producer =
        new KafkaProducer<>(props, new LongSerializer(), new org.apache.kafka.common.serialization.StringSerializer())) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (Map.Entry<Long, String> value : values) {
        sent.add(producer.send(new ProducerRecord<>(topic, (int) (value.getKey() % partitions), value.getKey(), value.getValue())));
      }
      producer.flush();
      for (Future<RecordMetadata> future : sent) {
        future.get();
      }
    }
  }

  /** An idempotent producer's settings: every send acknowledged by the broker, none written twice. */
  private Properties producerProperties() {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
    props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    return props;
  }

  /**
   * Sets what consumer group {@code group} has committed to exactly {@code offsets} (none at all
   * when empty), as if no later commit had happened. The group must have no live consumer.
   */
  public void resetGroupOffsets(String group, Map<TopicPartition, Long> offsets) throws Exception {
    try (Admin admin = admin()) {
      try {
        admin.deleteConsumerGroups(List.of(group)).all().get();
      } catch (java.util.concurrent.ExecutionException e) {
        if (!(e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException)) {
          throw e;
        }
      }
      if (!offsets.isEmpty()) {
        Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
        offsets.forEach((partition, offset) -> committed.put(partition, new OffsetAndMetadata(offset)));
        admin.alterConsumerGroupOffsets(group, committed).all().get();
      }
    }
  }

  @Override
  public void close() {
    server.shutdown();
    server.awaitShutdown();
  }
}
