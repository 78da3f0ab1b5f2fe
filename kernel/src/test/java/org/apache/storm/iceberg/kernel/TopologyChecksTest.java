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

package org.apache.storm.iceberg.kernel;

import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.kernel.task.CommitterTask;
import org.apache.storm.iceberg.kernel.seal.ThresholdSealPolicy;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import static org.apache.storm.iceberg.OptionsInternals.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.Config;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The footgun checks a task runs at prepare against the configuration it runs with. */
class TopologyChecksTest {
  @TempDir Path dir;
  Map<String, String> catalogProperties;

  @BeforeEach
  void createTable() {
    catalogProperties = TestCatalogs.hadoop(dir);
    var catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
  }

  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties).withTable("db.events");
  }

  static Map<String, Object> conf(Object... keyValues) {
    Map<String, Object> conf = new HashMap<>();
    conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 30);
    for (int i = 0; i < keyValues.length; i += 2) {
      conf.put((String) keyValues[i], keyValues[i + 1]);
    }
    return conf;
  }

  TaskEnvironment env(Map<String, Object> conf, int spoutTasks) {
    return env(conf, spoutTasks, 1);
  }

  TaskEnvironment env(Map<String, Object> conf, int spoutTasks, int sinkTasks) {
    return env(conf, new TaskIdentity("topology", "iceberg", 1, 0, sinkTasks, spoutTasks));
  }

  TaskEnvironment env(Map<String, Object> conf, TaskIdentity task) {
    RecordingCollector recorder = new RecordingCollector();
    TaskEnvironment detached = TaskEnvironment.detached(task, recorder.collector(), System::currentTimeMillis);
    return new TaskEnvironment(detached.task(), detached.collector(), detached.clock(), detached.metrics(), conf);
  }

  @Test
  void aCommitIntervalNotBelowTheMessageTimeoutFails() {
    assertThatThrownBy(() -> SinkTasks.open(settings(options().withCommitIntervalMillis(60_000).build()),
            env(conf(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 30), 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("commit interval 60000 ms is not below topology.message.timeout.secs (30 s): tuples would time out"
            + " and replay before they commit; lower withCommitIntervalMillis or raise the timeout");
  }

  @Test
  void anAgeThresholdWithNoTickAnywhereFails() {
    assertThatThrownBy(() -> SinkTasks.open(settings(options().withCommitIntervalMillis(5_000).build()), env(conf(), 1)))
        .hasMessage("an age threshold (commit interval 5000 ms) needs tick tuples to seal a batch when the"
            + " stream goes quiet, but neither the bolt nor the topology asks for them (topology.tick.tuple.freq.secs);"
            + " set withTickIntervalSecs, or leave it unset so the bolt declares half the threshold");
  }

  @Test
  void anAgePolicyNotBelowTheMessageTimeoutFails() {
    assertThatThrownBy(() -> SinkTasks.open(settings(options().withSealPolicy("age", Map.of("limit", "30000")).build()),
            env(conf(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 15), 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("seal policy 'age' limit 30000 ms is not below topology.message.timeout.secs (30 s): tuples would"
            + " time out and replay before they commit; lower the limit of withSealPolicy(\"age\", …) or raise the"
            + " timeout");
  }

  @Test
  void anAgePolicyGivenAsAnInstanceIsCheckedToo() {
    assertThatThrownBy(() -> SinkTasks.open(settings(options()
                .withSealPolicy(new ThresholdSealPolicy(ThresholdSealPolicy.Measure.AGE_MILLIS, 45_000)).build()),
            env(conf(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 15), 1)))
        .hasMessageStartingWith("seal policy 'age' limit 45000 ms is not below topology.message.timeout.secs (30 s)");
  }

  @Test
  void aWallClockPolicyNotBelowTheMessageTimeoutFails() {
    assertThatThrownBy(() -> SinkTasks.open(settings(options().withSealPolicy("wall-clock", Map.of("every-ms", "60000")).build()),
            env(conf(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 5), 1)))
        .hasMessage("seal policy 'wall-clock' every-ms 60000 ms is not below topology.message.timeout.secs (30 s):"
            + " tuples would time out and replay before they commit; lower the every-ms of"
            + " withSealPolicy(\"wall-clock\", …) or raise the timeout");
  }

  @Test
  void anAgePolicyWithNoTickAnywhereFails() {
    assertThatThrownBy(() -> SinkTasks.open(settings(options().withSealPolicy("age", Map.of("limit", "5000")).build()),
            env(conf(), 1)))
        .hasMessageStartingWith("an age threshold (seal policy 'age' limit 5000 ms) needs tick tuples to seal a batch");
  }

  @Test
  void timePoliciesBelowTheMessageTimeoutPass() {
    assertThatCode(() -> SinkTasks.open(settings(options().withSealPolicy("age", Map.of("limit", "20000"))
                .withSealPolicy("wall-clock", Map.of("every-ms", "10000")).build()),
            env(conf(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 5), 1)).close())
        .doesNotThrowAnyException();
  }

  @Test
  void tooFewPendingTuplesForTheRecordThresholdFails() {
    assertThatThrownBy(() -> SinkTasks.open(settings(options().withCommitIntervalRecords(1_000).build()),
            env(conf(Config.TOPOLOGY_MAX_SPOUT_PENDING, 300), 2)))
        .hasMessage("topology.max.spout.pending (300 per spout task, 600 in all) is below the 1000 tuples component"
            + " 'iceberg' needs pending to fill its batches: 1000 records a batch (withCommitIntervalRecords) × 1 task,"
            + " so a batch can never fill and the topology stalls; raise topology.max.spout.pending to at least 500 per"
            + " spout task or lower withCommitIntervalRecords to at most 600");
  }

  /**
   * Each sink task holds about its share of the pending tuples, so the spouts must let through a
   * batch's records for every task: 2 spout tasks × 2,000 pending fill one task's 1,000-record
   * batches four times over, four tasks' exactly, and eight tasks' only half.
   */
  @ParameterizedTest
  @CsvSource({"1, true", "4, true", "8, false"})
  void pendingTuplesMustFillABatchForEverySinkTask(int sinkTasks, boolean accepted) {
    Map<String, Object> conf = conf(Config.TOPOLOGY_MAX_SPOUT_PENDING, 2_000);
    IcebergOptions options = options().withCommitIntervalRecords(1_000).build();
    if (accepted) {
      assertThatCode(() -> SinkTasks.open(settings(options), env(conf, 2, sinkTasks)).close()).doesNotThrowAnyException();
    } else {
      assertThatThrownBy(() -> SinkTasks.open(settings(options), env(conf, 2, sinkTasks)))
          .hasMessage("topology.max.spout.pending (2000 per spout task, 4000 in all) is below the 8000 tuples"
              + " component 'iceberg' needs pending to fill its batches: 1000 records a batch"
              + " (withCommitIntervalRecords) × 8 tasks, each holding about its share of the pending tuples, so a"
              + " batch can never fill and the topology stalls; raise topology.max.spout.pending to at least 4000"
              + " per spout task or lower withCommitIntervalRecords to at most 500");
    }
  }

  @Test
  void theWriterOfTheSplitSinkIsCheckedPerTaskToo() {
    assertThatThrownBy(() -> SinkTasks.openWriter(settings(options().withCommitIntervalRecords(1_000).build()),
            env(conf(Config.TOPOLOGY_MAX_SPOUT_PENDING, 1_000), 1, 4)))
        .hasMessageStartingWith("topology.max.spout.pending (1000 per spout task, 1000 in all) is below the 4000"
            + " tuples component 'iceberg' needs pending");
  }

  @Test
  void tooFewPendingTuplesForEverySinkTaskOnlyWarnsWhenAnotherThresholdSeals() {
    try (LogCapture log = new LogCapture()) {
      SinkTasks.open(settings(options().withCommitIntervalRecords(1_000).withCommitIntervalMillis(5_000).build()),
          env(conf(Config.TOPOLOGY_MAX_SPOUT_PENDING, 2_000, Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 2), 1, 4)).close();
      assertThat(log.lines).contains("WARN topology.max.spout.pending (2000 per spout task, 2000 in all) is below the"
          + " 4000 tuples component 'iceberg' needs pending to fill its batches: 1000 records a batch"
          + " (withCommitIntervalRecords) × 4 tasks, each holding about its share of the pending tuples, so batches"
          + " will seal on their other thresholds, never on their record count; raise topology.max.spout.pending to"
          + " at least 4000 per spout task or lower withCommitIntervalRecords to at most 500");
    }
  }

  @Test
  void tooFewPendingTuplesOnlyWarnsWhenAnotherThresholdSeals() {
    assertThatCode(() -> SinkTasks.open(settings(options().withCommitIntervalRecords(1_000).withCommitIntervalMillis(5_000).build()),
            env(conf(Config.TOPOLOGY_MAX_SPOUT_PENDING, 300, Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 2), 2)).close())
        .doesNotThrowAnyException();
  }

  @Test
  void aSoundConfigurationPasses() {
    assertThatCode(() -> SinkTasks.open(settings(options().withCommitIntervalRecords(1_000).withCommitIntervalMillis(10_000).build()),
            env(conf(Config.TOPOLOGY_MAX_SPOUT_PENDING, 5_000, Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 5), 1)).close())
        .doesNotThrowAnyException();
  }

  /**
   * With a producer batch, a receive queue that fills loses tuples in Storm's batches (the bench's
   * StormSettings stalled): 8,000 pending tuples need queues above 16,000 (an init and an ack each at
   * the acker), not 4,096.
   */
  @Test
  void aProducerBatchWithReceiveQueuesThatCanFillFails() {
    assertThatThrownBy(() -> SinkTasks.open(settings(options().withCommitIntervalRecords(4_000).build()),
            env(conf(Config.TOPOLOGY_MAX_SPOUT_PENDING, 8_000, Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 1_000,
                Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, 4_000), 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("topology.producer.batch.size 1000 can stall this topology: with topology.max.spout.pending 8000"
            + " (8000 tuples pending in all, over 1 spout task) an executor receive queue"
            + " (topology.executor.receive.buffer.size 4096) can fill when a commit acks its tuples at once, and Storm"
            + " then leaves tuples unsent in a producer batch; raise topology.executor.receive.buffer.size to at least"
            + " 16384 (above twice the pending tuples: each can have an init and an ack waiting at the acker), lower"
            + " topology.max.spout.pending (and withCommitIntervalRecords with it), or keep"
            + " topology.producer.batch.size at 1");
  }

  @Test
  void aProducerBatchCountsThePendingTuplesOfEverySpoutTask() {
    Map<String, Object> conf = conf(Config.TOPOLOGY_MAX_SPOUT_PENDING, 5_000, Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 100,
        Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, 16_384);
    assertThatCode(() -> SinkTasks.open(settings(options().withCommitIntervalRecords(4_000).build()), env(conf, 1)).close())
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> SinkTasks.open(settings(options().withCommitIntervalRecords(4_000).build()), env(conf, 2)))
        .hasMessageStartingWith("topology.producer.batch.size 100 can stall this topology: with"
            + " topology.max.spout.pending 5000 (10000 tuples pending in all, over 2 spout tasks)")
        .hasMessageContaining("raise topology.executor.receive.buffer.size to at least 32768 ");
  }

  /** A parser bolt before the sink acks every tuple too: an init and two acks each at the acker. */
  @Test
  void aProducerBatchCountsAnAckFromEveryBoltOnATuplesWay() {
    Map<String, Object> conf = conf(Config.TOPOLOGY_MAX_SPOUT_PENDING, 6_000, Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 100,
        Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, 16_384);
    assertThatCode(() -> SinkTasks.open(settings(options().withCommitIntervalRecords(4_000).build()),
            env(conf, new TaskIdentity("topology", "iceberg", 1, 0, 1, 1, 1))).close())
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> SinkTasks.open(settings(options().withCommitIntervalRecords(4_000).build()),
            env(conf, new TaskIdentity("topology", "iceberg", 1, 0, 1, 1, 2))))
        .hasMessageContaining("raise topology.executor.receive.buffer.size to at least 32768 (above 3 times the pending"
            + " tuples: each can have an init and an ack from each of the 2 bolts on its way waiting at the acker)");
  }

  @Test
  void aProducerBatchAboveHalfTheReceiveQueueFails() {
    assertThatThrownBy(() -> SinkTasks.open(settings(options().withCommitIntervalRecords(100).build()),
            env(conf(Config.TOPOLOGY_MAX_SPOUT_PENDING, 200, Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 1_000,
                Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, 1_024), 1)))
        .hasMessage("topology.producer.batch.size 1000 is more than half of topology.executor.receive.buffer.size"
            + " (1024): Storm's worker refuses to start (in LocalCluster it halts the JVM); raise"
            + " topology.executor.receive.buffer.size or lower topology.producer.batch.size");
  }

  @Test
  void aProducerBatchWithoutAPendingLimitFails() {
    assertThatThrownBy(() -> SinkTasks.open(settings(options().withCommitIntervalRecords(4_000).build()),
            env(conf(Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 100), 1)))
        .hasMessage("topology.producer.batch.size 100 needs topology.max.spout.pending: without it the spouts' pending"
            + " tuples are unbounded, an executor receive queue can fill, and Storm then leaves tuples unsent in a"
            + " producer batch and the topology stalls; set topology.max.spout.pending and"
            + " topology.executor.receive.buffer.size above twice the pending tuples, or keep"
            + " topology.producer.batch.size at 1");
  }

  @Test
  void withoutAProducerBatchTheReceiveQueuesAreNotChecked() {
    assertThatCode(() -> SinkTasks.open(settings(options().withCommitIntervalRecords(4_000).build()),
            env(conf(Config.TOPOLOGY_MAX_SPOUT_PENDING, 8_000, Config.TOPOLOGY_PRODUCER_BATCH_SIZE, 1,
                Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, 4_096), 1)).close())
        .doesNotThrowAnyException();
  }

  @Test
  void aGroupCommitIntervalNotBelowTheMessageTimeoutFails() {
    assertThatThrownBy(() -> CommitterTask.open(settings(options().withGroupCommitIntervalMillis(45_000).build()), env(conf(), 1)))
        .hasMessage("group commit interval 45000 ms is not below topology.message.timeout.secs (30 s): tuples would"
            + " time out and replay before they commit; lower withGroupCommitIntervalMillis or raise the timeout");
  }
}
