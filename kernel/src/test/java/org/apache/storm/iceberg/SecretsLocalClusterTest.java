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

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.logging.log4j.Level;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.LogCapture;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A catalog password given as a {@code file:} reference, in Storm's LocalCluster: the worker reads
 * it and the catalog is built with it, the topology Nimbus stores never holds it, and an error
 * echoing it reaches the Storm UI's error list and every log line masked.
 */
@ExtendWith(SharedLocalCluster.class)
class SecretsLocalClusterTest {
  private static final String PASSWORD = "lc-pw-S3CRET-8";
  private static final long EVENTS = 200;

  @TempDir Path dir;

  @Test
  void passwordByReferenceIsReadOnTheWorkerAndMaskedInWhatStormShows(LocalCluster cluster) throws Exception {
    Map<String, String> real = new HashMap<>(TestCatalogs.jdbcSqlite(dir));
    Catalog catalog = TestCatalogs.load(real);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    // No Iceberg-level retry: Iceberg's own Tasks logs the error it retries, outside the sink.
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.COMMIT_NUM_RETRIES, "0"));
    real.put("jdbc.password", "file:" + Files.writeString(dir.resolve("password"), PASSWORD + "\n"));
    Faults faults = Faults.create();
    AtomicInteger commits = new AtomicInteger();
    faults.duringCommit = () -> {
      if (commits.incrementAndGet() == 1) {
        throw new CommitFailedException("driver: password %s expired", PASSWORD);
      }
    };
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("test")
        .withCatalogProperties(FaultInjectingCatalog.properties(real, faults))
        .withTable("db.events").withCommitIntervalRecords(50).withCommitIntervalMillis(1_000).build();
    String ledgerKey = UUID.randomUUID().toString();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(ledgerKey, EVENTS), 1);
    builder.setBolt("iceberg", new IcebergBolt(options), 1).shuffleGrouping("events");
    String name = "secrets-" + ledgerKey.substring(0, 8);
    ReplayingSpout.Ledger ledger = ReplayingSpout.ledger(ledgerKey);

    List<String> logs;
    try (LogCapture capture = new LogCapture("", Level.INFO)) {
      cluster.submitTopology(name, LocalClusterRuns.config(), builder.createTopology());
      TopologyInfo[] info = new TopologyInfo[1];
      Deadline.await(Duration.ofSeconds(120),
          () -> ledger.acked.size() == EVENTS && hasErrors(info[0] = infoOf(cluster, name)),
          () -> "all ids acked and the first commit's error in the UI; acked " + ledger.acked.size());
      byte[] storedBolt = cluster.getTopology(info[0].get_id()).get_bolts().get("iceberg").get_bolt_object().get_serialized_java();
      KillOptions kill = new KillOptions();
      kill.set_wait_secs(0);
      cluster.killTopologyWithOpts(name, kill);
      logs = List.copyOf(capture.lines);

      assertThat(new String(storedBolt, StandardCharsets.ISO_8859_1)).as("the bolt as Nimbus stores it")
          .contains("file:" + dir.resolve("password"))
          .doesNotContain(PASSWORD);
      List<String> shownInUi = info[0].get_errors().get("iceberg").stream().map(ErrorInfo::get_error).toList();
      assertThat(shownInUi).as("the Storm UI's errors").anySatisfy(error -> assertThat(error)
          .contains("org.apache.iceberg.exceptions.CommitFailedException: driver: password **** expired"));
      assertThat(String.join("\n", shownInUi)).doesNotContain(PASSWORD);
    }
    assertThat(faults.catalogProperties).as("the worker built the catalog with the file's content")
        .containsEntry(FaultInjectingCatalog.DELEGATE_PREFIX + "jdbc.password", PASSWORD);
    table.refresh();
    assertThat(TestTables.ids(table)).containsAll(LongStream.range(0, EVENTS).boxed().toList());
    assertThat(logs).as("every log line, Storm's own report of the error included")
        .anySatisfy(line -> assertThat(line).contains("password **** expired"))
        .noneSatisfy(line -> assertThat(line).contains(PASSWORD));
  }

  private static TopologyInfo infoOf(LocalCluster cluster, String name) {
    try {
      return cluster.getTopologyInfoByName(name);
    } catch (org.apache.storm.thrift.TException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean hasErrors(TopologyInfo info) {
    return info.get_errors() != null && !info.get_errors().getOrDefault("iceberg", List.of()).isEmpty();
  }
}
