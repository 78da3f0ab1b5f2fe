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

package org.apache.storm.iceberg.trident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.Config;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TransactionalIdsSpout;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.trident.Stream;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.state.State;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-partition state refuses a shuffled stream when Trident makes it. Trident calls {@code
 * makeState} in the state bolt's prepare with the task's {@link TopologyContext}; here the topology
 * is a real one built by {@link TridentTopology} and the context is Storm's own class, made for a
 * task of the state's bolt as a worker makes it. (In a LocalCluster, the refusal fails the worker's
 * executor, which halts the JVM the test runs in.)
 */
class ShuffledStateRefusedTest {
  static final Fields FIELDS = new Fields(TestTables.FIELDS);

  @TempDir Path dir;
  Map<String, String> catalogProperties;

  @BeforeEach
  void createTable() {
    catalogProperties = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
  }

  @Test
  void aShuffledStreamIsRefusedNamingPartitionBy() {
    IcebergOptions options = options(StateType.TRANSACTIONAL);
    IcebergStateFactory factory = new IcebergStateFactory(options);
    TopologyContext context = stateTaskContext(factory, Stream::shuffle);

    assertThatThrownBy(() -> factory.makeState(conf(), context, 0, 2))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("The Trident state writing db.events (IcebergStateFactory, TRANSACTIONAL) is fed by a shuffle grouping from 'spout-tx-refused'")
        .hasMessageContaining("Put partitionBy(fields) right before partitionPersist, or use IcebergTrident.persist");
  }

  @Test
  void anOpaqueStateTypeIsRefusedOnTheSubmittingClient() {
    assertThatThrownBy(() -> new IcebergStateFactory(options(StateType.OPAQUE)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("IcebergStateFactory (one state per partition) is exactly-once for transactional spouts only")
        .hasMessageContaining("Use IcebergTrident.persist for an opaque spout");
  }

  @Test
  void aStreamPartitionedByFieldsOpensItsState() {
    IcebergStateFactory factory = new IcebergStateFactory(options(StateType.TRANSACTIONAL));
    TopologyContext context = stateTaskContext(factory, stream -> stream.partitionBy(new Fields("id")));

    State state = factory.makeState(conf(), context, 0, 2);

    assertThat(state).isInstanceOf(IcebergState.class);
  }

  private IcebergOptions options(StateType type) {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties)
        .withTable("db.events").withTridentStateType(type).build();
  }

  private static Map<String, Object> conf() {
    Map<String, Object> conf = new HashMap<>();
    conf.put(Config.TOPOLOGY_NAME, "refused");
    return conf;
  }

  /**
   * The context of the first task of the bolt Trident built for the state: the bolt that reads the
   * spout's data stream (Trident's own streams are named {@code $...}).
   */
  private static TopologyContext stateTaskContext(IcebergStateFactory factory, UnaryOperator<Stream> partitioning) {
    TridentTopology trident = new TridentTopology();
    partitioning.apply(trident.newStream("tx-refused", new TransactionalIdsSpout("refused", 10, 2, 5)))
        .partitionPersist(factory, FIELDS, new IcebergStateUpdater()).parallelismHint(2);
    StormTopology topology = trident.build();
    String stateBolt = null;
    for (Map.Entry<String, Bolt> bolt : topology.get_bolts().entrySet()) {
      if (bolt.getValue().get_common().get_inputs().keySet().stream().anyMatch(s -> !s.get_streamId().startsWith("$"))) {
        stateBolt = bolt.getKey();
      }
    }
    assertThat(stateBolt).as("the state's bolt in " + topology.get_bolts().keySet()).isNotNull();

    Map<Integer, String> taskToComponent = new HashMap<>();
    Map<String, List<Integer>> componentTasks = new HashMap<>();
    List<String> components = new ArrayList<>(topology.get_bolts().keySet());
    components.addAll(topology.get_spouts().keySet());
    int task = 1;
    for (String component : components) {
      List<Integer> tasks = new ArrayList<>();
      for (int i = 0; i < 2; i++, task++) {
        taskToComponent.put(task, component);
        tasks.add(task);
      }
      componentTasks.put(component, tasks);
    }
    Map<String, Map<String, Fields>> streams = new HashMap<>();
    int stateTask = componentTasks.get(stateBolt).get(0);
    return new TopologyContext(topology, conf(), taskToComponent, componentTasks, streams, new HashMap<>(), "refused-1",
        null, null, stateTask, 6700, List.of(stateTask), new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashMap<>(),
        new AtomicBoolean(false), new StormMetricRegistry());
  }
}
