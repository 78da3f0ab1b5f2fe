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

import java.util.List;
import java.util.Map;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.WriteMode;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TransactionalIdsSpout;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;

/** The topology {@code IcebergTrident.persist} builds: how many writing partitions, and what it refuses. */
class PersistTopologyTest {
  static IcebergOptions.Builder options() {
    return new IcebergOptions.Builder()
        .withCatalogProperties(Map.of("type", "hadoop", "warehouse", "/tmp/unused"))
        .withTable("db.events")
        .withTridentStateType(StateType.TRANSACTIONAL);
  }

  /** The parallelism of each bolt of the topology {@code persist} builds on a spout stream of parallelism 2. */
  static List<Integer> boltParallelisms(IcebergOptions options, Integer writers) {
    TridentTopology trident = new TridentTopology();
    var stream = trident.newStream("tx", new TransactionalIdsSpout("unused", 10, 4, 2)).parallelismHint(2);
    if (writers == null) {
      IcebergTrident.persist(stream, new Fields(TestTables.FIELDS), options);
    } else {
      IcebergTrident.persist(stream, new Fields(TestTables.FIELDS), options, writers);
    }
    StormTopology topology = trident.build();
    return topology.get_bolts().values().stream().map(bolt -> bolt.get_common().get_parallelism_hint()).sorted().toList();
  }

  @Test
  void rowLevelChangesAreWrittenByAsManyPartitionsAsAsked() {
    IcebergOptions upsert = options().withWriteMode(WriteMode.UPSERT).build();
    assertThat(boltParallelisms(upsert, 3)).as("the key-hash bolt (the stream's 2), the writers, the committer").contains(3);
    assertThat(boltParallelisms(options().build(), 3)).as("append mode, shuffled to 3 writers").contains(3);
    assertThat(boltParallelisms(options().build(), null)).as("append mode, written where the stream runs").doesNotContain(3);
  }

  @Test
  void rowLevelChangesNeedTheWritersToBeNamed() {
    IcebergOptions changelog = options().withWriteMode(WriteMode.CHANGELOG).withChangeFields("op", "seq").build();
    assertThatThrownBy(() -> boltParallelisms(changelog, null))
        .hasMessage("IcebergTrident.persist in write mode changelog partitions the stream by key into writing partitions of"
            + " their own: say how many, with IcebergTrident.persist(stream, fields, options, writers)");
    assertThatThrownBy(() -> boltParallelisms(changelog, 0))
        .hasMessage("IcebergTrident.persist needs at least one writing partition, got 0");
  }
}
