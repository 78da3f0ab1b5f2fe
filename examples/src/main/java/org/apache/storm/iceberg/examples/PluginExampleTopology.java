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
import org.apache.iceberg.PartitionSpec;
import org.apache.storm.ILocalCluster;
import org.apache.storm.iceberg.IcebergOptions;

/**
 * Uses a drop-in plug-in by name. The {@code storm-iceberg-example-plugin} jar (see {@code
 * examples/plugin}) is only on the classpath; nothing here imports it. The {@code "upper-case"}
 * mapper upper-cases string columns and the {@code "every-n"} seal policy seals every 500 records
 * (the stream's tail seals after 5 s), so the table shows both at work. Writes {@code
 * examples.shouted} in a local Hadoop catalog. See {@link ExampleMain} for the command line.
 */
public final class PluginExampleTopology {
  static final String TABLE = "examples.shouted";

  private PluginExampleTopology() {}

  public static void main(String[] args) {
    ExampleMain.run("iceberg-plugin-example", TABLE, 5_000, args,
        catalog -> (runId, events) -> IcebergBoltExampleTopology.topology(runId, events, options(catalog)));
  }

  static IcebergOptions options(Map<String, String> catalog) {
    return ExampleEvents.options(catalog, TABLE, PartitionSpec.unpartitioned())
        .withRecordMapper("upper-case", Map.of())
        .withSealPolicy("every-n", Map.of("n", "500"))
        // The stream's tail seals on age, so no task waits for a 500th record that never comes.
        .withCommitIntervalMillis(5_000)
        .withTickIntervalSecs(1)
        .build();
  }

  public static String run(ILocalCluster cluster, Path warehouse, long events) throws Exception {
    return LocalExampleRun.run(cluster, "iceberg-plugin-example", warehouse, TABLE, events,
        (runId, n) -> IcebergBoltExampleTopology.topology(runId, n, options(LocalExampleRun.catalogProperties(warehouse))));
  }
}
