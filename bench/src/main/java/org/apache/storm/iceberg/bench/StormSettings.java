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

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.policy.WaitStrategyPark;

/**
 * Storm's own settings for a sink that acks in bursts (issue #34, item 2): the acking bolt and
 * IcebergBolt (unpartitioned, 5 columns, a commit every {@code batch} records) as {@link EndToEnd}
 * runs them, under Storm's defaults and under one setting changed at a time: the bolts' and the
 * spout's wait strategy ({@link WaitStrategyPark} at its default 100 µs against the default
 * WaitStrategyProgressive), {@code topology.producer.batch.size}, {@code topology.transfer.batch.size},
 * two ackers (the harnesses' default is one), and max spout pending at 1 and 4 times the batch (EndToEnd's is 2 times). Each
 * repetition runs every variant with both sinks, the variants in an order rotated by one each
 * repetition (and the two sinks' order alternating), so a variant's ratio to the defaults is
 * paired by repetition. Repetition 0 warms the JVM and is not reported.
 *
 * <p>Arguments: rows per run, records per batch, repetitions, and a regex the variant names must
 * match (defaults 200000 50000 2 .*; the defaults always run). The producer-batch variants size the
 * executor receive queues as the sinks require with a producer batch ({@link #producerBatch}).
 */
public final class StormSettings {
  /** A Config change, and max spout pending as a multiple of the batch. */
  record Variant(String name, double pendingBatches, Consumer<Config> settings) {}

  static final String DEFAULTS = "defaults";

  static final List<Variant> VARIANTS = List.of(
      new Variant(DEFAULTS, 2, conf -> {}),
      new Variant("bolt-wait=park-100us", 2, conf -> {
        conf.put(Config.TOPOLOGY_BOLT_WAIT_STRATEGY, WaitStrategyPark.class.getName());
        conf.put(Config.TOPOLOGY_BOLT_WAIT_PARK_MICROSEC, 100);
      }),
      new Variant("spout-wait=park-100us", 2, conf -> {
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY, WaitStrategyPark.class.getName());
        conf.put(Config.TOPOLOGY_SPOUT_WAIT_PARK_MICROSEC, 100);
      }),
      new Variant("producer-batch=100", 2, producerBatch(100)),
      new Variant("producer-batch=1000", 2, producerBatch(1_000)),
      // At most half of topology.transfer.buffer.size (1000).
      new Variant("transfer-batch=100", 2, conf -> conf.put(Config.TOPOLOGY_TRANSFER_BATCH_SIZE, 100)),
      new Variant("ackers=2", 2, conf -> conf.setNumAckers(2)),
      new Variant("max-pending=1x-batch", 1, conf -> {}),
      new Variant("max-pending=4x-batch", 4, conf -> {}));

  private static final String[] SINKS = {"acking-bolt", "iceberg-bolt"};

  /**
   * {@code topology.producer.batch.size} {@code size}, with executor receive queues above twice the
   * tuples pending (max spout pending, set before the variant's settings), as the sinks require with
   * a producer batch: under Storm's default 32,768-slot queues IcebergBolt's runs stalled (1000: every
   * run; 100: one of two, 56 of 200,000 rows never acked), tuples stranded in Storm's producer batches
   * once a commit's acks filled a queue (README, "Storm's own settings").
   */
  static Consumer<Config> producerBatch(int size) {
    return conf -> {
      conf.put(Config.TOPOLOGY_PRODUCER_BATCH_SIZE, size);
      long pending = ((Number) conf.get(Config.TOPOLOGY_MAX_SPOUT_PENDING)).longValue();
      conf.put(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, (int) (Long.highestOneBit(2 * pending) << 1));
    };
  }

  private StormSettings() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 200_000;
    int batch = args.length > 1 ? Integer.parseInt(args[1]) : 50_000;
    int reps = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    Pattern only = Pattern.compile(args.length > 3 ? args[3] : ".*");
    List<Variant> variants = new ArrayList<>();
    for (Variant v : VARIANTS) {
      if (v.name().equals(DEFAULTS) || only.matcher(v.name()).matches()) {
        variants.add(v);
      }
    }
    Results results = new Results();
    LocalCluster cluster = new LocalCluster();
    try {
      for (int rep = 0; rep <= reps; rep++) {
        measure(cluster, rep > 0 ? results : null, variants, rows, batch, rep);
      }
    } catch (Exception | Error e) {
      // Storm's uncaught-exception handler would log it to the bench's no-op logger, and its threads keep the JVM up.
      e.printStackTrace();
      System.exit(1);
    }
    // As EndToEnd: LocalCluster.close() can take minutes; every figure is written.
    System.exit(0);
  }

  /** One repetition: every variant with both sinks, in an order rotated by {@code rep}; reported unless {@code results} is null. */
  static void measure(LocalCluster cluster, Results results, List<Variant> variants, long rows, int batch, int rep)
      throws Exception {
    BenchData data = new BenchData(5, 1);
    String params = "columns=5 partitions=1 rows=" + rows + " batch=" + batch;
    for (int i = 0; i < variants.size(); i++) {
      Variant variant = variants.get((i + rep) % variants.size());
      for (int s = 0; s < SINKS.length; s++) {
        String sink = SINKS[(s + rep) % SINKS.length];
        CountingSpout.Run run = EndToEnd.run(cluster, sink, data, rows, batch,
            (int) Math.round(variant.pendingBatches() * batch), variant.settings());
        System.out.printf("rep %d %s %s: %.0f records/cpu-s, %.0f records/s%n", rep, sink, variant.name(),
            run.recordsPerCpuSecond(), run.recordsPerSecond());
        if (results != null) {
          String name = sink + " " + variant.name();
          results.add("StormSettings", params, name + " per-cpu-s", rep, run.recordsPerCpuSecond(), "records/cpu-s");
          results.add("StormSettings", params, name, rep, run.recordsPerSecond(), "records/s");
        }
      }
    }
  }
}
