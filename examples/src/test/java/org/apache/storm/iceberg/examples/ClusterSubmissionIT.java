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

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.TestTiers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples' {@code cluster} mode, as {@code storm jar} runs it: StormSubmitter uploads the shaded
 * topology jar (built in the package phase) and submits, here to a LocalCluster standing in for
 * Nimbus ({@code LocalCluster.withLocalModeOverride}), and the events land in the table.
 */
class ClusterSubmissionIT {
  @TempDir Path warehouse;

  @Test
  void theSplitSinkExampleSubmitsTheShadedJarAndCommits() throws Exception {
    TestTiers.longTierOnly("the quick tier checks the shaded jar's contents (ShadedTopologyJarIT) and runs each example locally");
    System.setProperty("storm.jar", ShadedTopologyJarIT.jar().toAbsolutePath().toString());
    String runId = UUID.randomUUID().toString();
    long events = 1_000;
    LocalCluster.withLocalModeOverride(() -> {
      ExampleMain.submit("iceberg-split-submitted", (id, n) -> IcebergSplitSinkExampleTopology.topology(id, n, LocalExampleRun.catalogProperties(warehouse)), runId, events);
      Deadline.await(Duration.ofMinutes(2), () -> EventSpout.acked(runId) >= events,
          () -> "all " + events + " events acked; got " + EventSpout.acked(runId));
      return null;
    }, 0);

    var table = CatalogUtil.buildIcebergCatalog("local", LocalExampleRun.catalogProperties(warehouse), new org.apache.hadoop.conf.Configuration())
        .loadTable(TableIdentifier.parse(IcebergSplitSinkExampleTopology.TABLE));
    assertThat(TableSummary.of(table).rows()).isEqualTo(events);
  }
}
