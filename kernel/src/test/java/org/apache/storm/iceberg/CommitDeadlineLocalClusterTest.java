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

package org.apache.storm.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.kernel.metrics.RegistryCapture;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table whose commits keep conflicting for longer than the message timeout, as when many writers
 * share it: without a deadline, Iceberg's own retries land each batch after Storm has replayed its
 * tuples. With it, every id lands exactly once.
 */
@ExtendWith(SharedLocalCluster.class)
// Long tier, checked before the class starts its cluster: a cluster started only to be closed costs
// seconds. Quick tier's proof: CommitDeadlineTest proves the deadline at kernel level in the quick tier.
@EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
class CommitDeadlineLocalClusterTest {
  static final long EVENTS = 2_000;
  static final int TIMEOUT_SECS = 8;
  static final long CONFLICTS_FOR_MILLIS = 14_000;
  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }


  @Test
  void commitsThatConflictPastTheMessageTimeoutExpireInsteadOfLandingTwice() throws Exception {
    Map<String, String> real = TestCatalogs.hadoop(dir);
    Catalog catalog = TestCatalogs.load(real);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table =
        catalog.createTable(
            TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
            Map.of(
                TableProperties.COMMIT_NUM_RETRIES, "10000",
                TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "20",
                TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "20"));
    Faults faults = Faults.create();
    AtomicLong conflictsUntil = new AtomicLong();
    faults.duringCommit =
        () -> {
          conflictsUntil.compareAndSet(0, System.currentTimeMillis() + CONFLICTS_FOR_MILLIS);
          if (System.currentTimeMillis() < conflictsUntil.get()) {
            faults.injected.incrementAndGet();
            throw new CommitFailedException("injected: another writer committed first");
          }
        };
    IcebergOptions options =
        new IcebergOptions.Builder()
            .withCatalogName("test")
            .withCatalogProperties(FaultInjectingCatalog.properties(real, faults))
            .withTable("db.events")
            .withCommitIntervalRecords(100)
            .withCommitIntervalMillis(1_000)
            .withTickIntervalSecs(1)
            // A wide margin: the sink sees a tuple only when its task takes it, and on a loaded
            // machine the wait between the spout's emit and that can take seconds.
            .withCommitDeadlineMarginMillis(5_000)
            .build();
    String ledgerKey = UUID.randomUUID().toString();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(ledgerKey, EVENTS), 1);
    builder.setBolt("iceberg", new IcebergBolt(options), 2).shuffleGrouping("events");
    Config conf = LocalClusterRuns.config();
    conf.setMessageTimeoutSecs(TIMEOUT_SECS);
    // Few tuples in flight, so a task's queue drains right after each commit: the deadline counts
    // a tuple's wait behind one commit, and the margin covers the rest (see CommitDeadline).
    conf.setMaxSpoutPending(200);
    String name = "deadline-" + ledgerKey.substring(0, 8);

    LocalClusterRuns.runUntilAllAcked(cluster, name, conf, builder.createTopology(), ledgerKey, EVENTS);

    table.refresh();
    List<Long> ids = TestTables.ids(table);
    assertThat(faults.injected.get()).as("conflicts injected").isGreaterThan(10);
    assertThat(ids).as("every id exactly once").hasSize((int) EVENTS);
    assertThat(ids.stream().sorted().collect(Collectors.toList()))
        .containsExactlyElementsOf(LongStream.range(0, EVENTS).boxed().collect(Collectors.toList()));
    assertThat(RegistryCapture.sumOfCounters(name, "iceberg-batches-expired")).isPositive();
  }
}
