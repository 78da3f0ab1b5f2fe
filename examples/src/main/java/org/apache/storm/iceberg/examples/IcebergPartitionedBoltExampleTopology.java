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
import java.util.Map;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * Spout to {@link IcebergBolt} (parallelism 2, fields-grouped on region) writing {@code
 * examples.events_by_region_day}, partitioned by identity(region) and days(event_time), in a local
 * Hadoop catalog. Each batch writes one file per partition it spans. See {@link ExampleMain}.
 */
public final class IcebergPartitionedBoltExampleTopology {
  static final String TABLE = "examples.events_by_region_day";

  private IcebergPartitionedBoltExampleTopology() {}

  public static void main(String[] args) {
    ExampleMain.run("iceberg-partitioned-example", TABLE, 20_000, args,
        catalog -> (runId, events) -> topology(runId, events, options(catalog)));
  }

  static IcebergOptions options(Map<String, String> catalog) {
    return ExampleEvents.options(catalog, TABLE, ExampleEvents.BY_REGION_AND_DAY)
        .withCommitIntervalRecords(5_000)
        .withCommitIntervalMillis(2_000)
        .withTickIntervalSecs(1)
        .build();
  }

  static StormTopology topology(String runId, long events, IcebergOptions options) {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new EventSpout(runId, events, System.currentTimeMillis()), 1);
    builder.setBolt("iceberg", new IcebergBolt(options), 2).fieldsGrouping("events", new Fields("region"));
    return builder.createTopology();
  }

  public static String run(ILocalCluster cluster, Path warehouse, long events) throws Exception {
    return LocalExampleRun.run(cluster, "iceberg-partitioned-example", warehouse, TABLE, events, (runId, n) -> topology(runId, n, options(LocalExampleRun.catalogProperties(warehouse))));
  }
}
