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

import java.nio.file.Path;
import org.apache.storm.ILocalCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.trident.IcebergStateFactory;
import org.apache.storm.iceberg.trident.IcebergStateUpdater;
import org.apache.storm.iceberg.trident.IcebergTrident;
import org.apache.storm.trident.Stream;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.tuple.Fields;

/**
 * Trident, exactly once: a transactional spout ({@link EventTridentSpout}, 4 partitions) writing
 * {@code examples.events_trident} in a local Hadoop catalog, in one of two ways:
 *
 * <ul>
 *   <li>{@code --variant whole-stream} (the default): {@link IcebergTrident#persist}, one snapshot
 *       per transaction for the whole stream;
 *   <li>{@code --variant per-partition}: {@code partitionBy(region)} into {@code
 *       partitionPersist(new IcebergStateFactory(options), fields, new IcebergStateUpdater())}, one
 *       snapshot per state partition and transaction.
 * </ul>
 *
 * <p>The spout is transactional (a replayed transaction brings the same events), so the state type
 * is {@code TRANSACTIONAL}. Each run of the example is a new stream of ids {@code 0..events-1}, so
 * its Trident stream and its state take their names from the run's id: a production topology keeps
 * both names across redeploys (the state name's default, {@code trident}, is stable), which is how
 * a redeployed topology finds the transactions it committed. See {@link ExampleMain} for the rest
 * of the command line.
 */
public final class IcebergTridentExampleTopology {
  static final String NAME = "iceberg-trident-example";
  static final String TABLE = "examples.events_trident";
  static final String VARIANT = "--variant";
  static final Fields EVENT_FIELDS = new Fields("id", "region", "event_time", "payload");

  private IcebergTridentExampleTopology() {}

  /** Which of the two Trident sinks a run uses. */
  public enum Variant {
    /** {@link IcebergTrident#persist}. */
    WHOLE_STREAM,
    /** {@link IcebergStateFactory} in {@code partitionPersist}. */
    PER_PARTITION;

    /** The variant {@code --variant whole-stream|per-partition} names; whole-stream without it. */
    static Variant of(String[] args) {
      for (int i = 0; i < args.length; i++) {
        if (args[i].equals(VARIANT)) {
          String name = i + 1 < args.length ? args[i + 1] : "";
          for (Variant variant : values()) {
            if (variant.flag().equals(name)) {
              return variant;
            }
          }
          throw new IllegalArgumentException(VARIANT + " takes whole-stream or per-partition; got '" + name + "'");
        }
      }
      return WHOLE_STREAM;
    }

    String flag() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }

  public static void main(String[] args) {
    Variant variant = Variant.of(args);
    ExampleMain.run(NAME, TABLE, 20_000, withoutVariant(args), LocalExampleRun.Pipeline.TRIDENT,
        catalog -> (runId, events) -> topology(runId, events, variant, options(catalog, runId)));
  }

  /** The arguments ExampleMain reads: all but {@code --variant NAME}. */
  static String[] withoutVariant(String[] args) {
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals(VARIANT)) {
        i++;
      } else {
        rest.add(args[i]);
      }
    }
    return rest.toArray(new String[0]);
  }

  static IcebergOptions options(Map<String, String> catalog, String runId) {
    return ExampleEvents.options(catalog, TABLE, PartitionSpec.unpartitioned())
        .withTridentStateType(StateType.TRANSACTIONAL)
        .withTridentStateName("events-" + runId)
        .build();
  }

  static StormTopology topology(String runId, long events, Variant variant, IcebergOptions options) {
    TridentTopology trident = new TridentTopology();
    // Trident keeps the stream's transactions (and the spout's positions) in ZooKeeper under this name.
    Stream stream = trident.newStream("events-" + runId, new EventTridentSpout(events, 4, 1_000, System.currentTimeMillis()))
        .parallelismHint(2);
    if (variant == Variant.PER_PARTITION) {
      // The per-partition state needs each replay to bring every partition the same events: partitionBy, never shuffle.
      stream.partitionBy(new Fields("region"))
          .partitionPersist(new IcebergStateFactory(options), EVENT_FIELDS, new IcebergStateUpdater())
          .parallelismHint(2);
    } else {
      IcebergTrident.persist(stream, EVENT_FIELDS, options);
    }
    return trident.build();
  }

  /** Runs in {@code cluster} until the table holds all {@code events}; returns what was committed. */
  public static String run(ILocalCluster cluster, Path warehouse, long events, Variant variant) throws Exception {
    return LocalExampleRun.run(cluster, NAME, warehouse, TABLE, events, LocalExampleRun.Pipeline.TRIDENT,
        (runId, n) -> topology(runId, n, variant, options(LocalExampleRun.catalogProperties(warehouse), runId)));
  }
}
