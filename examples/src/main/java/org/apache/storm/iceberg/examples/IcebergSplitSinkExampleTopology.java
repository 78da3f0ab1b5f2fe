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
import org.apache.storm.iceberg.IcebergCommitterBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * The split sink: spout to four {@link IcebergWriterBolt}s (fields-grouped on region) to one {@link
 * IcebergCommitterBolt} (globalGrouping), writing {@code examples.events_split}, partitioned by
 * identity(region) and days(event_time), in a local Hadoop catalog. See {@link ExampleMain}.
 */
public final class IcebergSplitSinkExampleTopology {
  static final String TABLE = "examples.events_split";

  private IcebergSplitSinkExampleTopology() {}

  public static void main(String[] args) {
    ExampleMain.run("iceberg-split-example", TABLE, 20_000, args,
        catalog -> (runId, events) -> topology(runId, events, catalog));
  }

  static IcebergOptions writerOptions(Map<String, String> catalog) {
    return ExampleEvents.options(catalog, TABLE, ExampleEvents.BY_REGION_AND_DAY)
        .withCommitIntervalRecords(2_000)
        .withCommitIntervalMillis(1_000)
        .withTickIntervalSecs(1)
        .build();
  }

  static IcebergOptions committerOptions(Map<String, String> catalog) {
    return ExampleEvents.options(catalog, TABLE, ExampleEvents.BY_REGION_AND_DAY)
        .withGroupCommitIntervalMillis(2_000)
        .withGroupCommitMaxDataFiles(500)
        .build();
  }

  static StormTopology topology(String runId, long events, Map<String, String> catalog) {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new EventSpout(runId, events, System.currentTimeMillis()), 1);
    builder.setBolt("iceberg-writer", new IcebergWriterBolt(writerOptions(catalog)), 4).fieldsGrouping("events", new Fields("region"));
    builder.setBolt("iceberg-committer", new IcebergCommitterBolt(committerOptions(catalog)), 1).globalGrouping("iceberg-writer");
    return builder.createTopology();
  }

  public static String run(ILocalCluster cluster, Path warehouse, long events) throws Exception {
    return LocalExampleRun.run(cluster, "iceberg-split-example", warehouse, TABLE, events, (runId, n) -> topology(runId, n, LocalExampleRun.catalogProperties(warehouse)));
  }
}
