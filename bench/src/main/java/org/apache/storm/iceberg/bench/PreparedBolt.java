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

package org.apache.storm.iceberg.bench;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.apache.storm.Config;
import org.apache.storm.Constants;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.SpoutSpec;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;

/**
 * An {@link IcebergBolt} prepared as a worker would prepare it, without a cluster: a real {@link
 * TopologyContext} (one spout task, one bolt task, a real metrics registry) and an {@link
 * OutputCollector} that only counts acks and fails (and passes on what the bolt emits), so what is
 * measured is the bolt, not a recorder.
 */
final class PreparedBolt implements AutoCloseable {
  static final String BOLT = "iceberg";
  static final String MAINTENANCE = "maintenance";

  final IcebergBolt bolt;
  final CountingCollector counts = new CountingCollector();
  private final Tuple tick;

  PreparedBolt(IcebergOptions options, Fields fields) {
    this(options, fields, (stream, values) -> { });
  }

  /**
   * As a worker prepares it; what the bolt emits (its commit events, when the options ask for
   * them) goes to {@code emitted}, on the thread that emits it.
   */
  PreparedBolt(IcebergOptions options, Fields fields, BiConsumer<String, List<Object>> emitted) {
    bolt = new IcebergBolt(options);
    counts.emitted = emitted;
    Map<String, Object> conf = workerConf(bolt.getComponentConfiguration());
    TopologyContext context = context(conf, Map.of(BenchData.SOURCE, Map.of("default", fields)), BOLT, 2, new StormMetricRegistry());
    bolt.prepare(conf, context, new OutputCollector(counts));
    tick = tick(context);
  }

  /** The configuration a worker gives a bolt: the bench's, then the bolt's own (the ticks it asks for) over it. */
  static Map<String, Object> workerConf(Map<String, Object> component) {
    Map<String, Object> conf = new HashMap<>(BenchData.WORKER_CONF);
    if (component != null) {
      conf.putAll(component);
    }
    conf.put(Config.TOPOLOGY_NAME, "bench");
    conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 600);
    conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, Integer.MAX_VALUE);
    return conf;
  }

  /**
   * A real context of task {@code taskId} of {@code component}, in a topology of the spout (task 1),
   * this bolt (task 2) and the maintenance bolt (task 3), whose components emit {@code streams}, its
   * metrics registered in {@code metrics}.
   */
  static TopologyContext context(Map<String, Object> conf, Map<String, Map<String, Fields>> streams, String component, int taskId,
      StormMetricRegistry metrics) {
    StormTopology topology = new StormTopology();
    topology.set_spouts(Map.of(BenchData.SOURCE, new SpoutSpec()));
    topology.set_bolts(Map.of(BOLT, new Bolt(), MAINTENANCE, new Bolt()));
    topology.set_state_spouts(Map.of());
    Map<String, Map<String, Fields>> allStreams = new HashMap<>(streams);
    allStreams.put(Constants.SYSTEM_COMPONENT_ID, Map.of(Constants.SYSTEM_TICK_STREAM_ID, new Fields("rate_secs")));
    return new TopologyContext(
        topology, conf, Map.of(1, BenchData.SOURCE, 2, BOLT, 3, MAINTENANCE),
        Map.of(BenchData.SOURCE, List.of(1), BOLT, List.of(2), MAINTENANCE, List.of(3)),
        allStreams, new HashMap<>(), "bench-1", null, null, taskId, 6700,
        List.of(1, 2, 3), new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashMap<>(), new AtomicBoolean(false),
        metrics);
  }

  /** A tick tuple, as Storm sends one to a task of {@code context}. */
  static Tuple tick(TopologyContext context) {
    return new TupleImpl(context, List.of(1), Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID,
        Constants.SYSTEM_TICK_STREAM_ID);
  }

  /**
   * Sends tick tuples, as Storm does every second, until {@code expected} tuples were acked or
   * failed (or a minute passed): {@code IcebergBolt} commits on a thread of its own and acks a
   * commit that ended there at its next tuple or tick.
   */
  void settle(long expected) {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (counts.acked + counts.failed < expected && System.nanoTime() < deadline) {
      bolt.execute(tick);
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    bolt.cleanup();
  }

  /** Counts acks and fails; emits nothing anywhere. */
  static final class CountingCollector implements IOutputCollector {
    long acked;
    long failed;
    Throwable lastError;
    BiConsumer<String, List<Object>> emitted = (stream, values) -> { };

    @Override
    public void ack(Tuple input) {
      acked++;
    }

    @Override
    public void fail(Tuple input) {
      failed++;
    }

    @Override
    public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
      emitted.accept(streamId, tuple);
      return List.of();
    }

    @Override
    public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {}

    @Override
    public void resetTimeout(Tuple input) {}

    @Override
    public void flush() {}

    @Override
    public void reportError(Throwable error) {
      lastError = error;
    }
  }
}
