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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestTiers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The Trident example runs end to end in LocalCluster, in both variants, and commits every event once. */
@ExtendWith(SharedLocalCluster.class)
class IcebergTridentExampleTopologyTest {
  static final long EVENTS = 6_000;

  @TempDir Path warehouse;

  @ParameterizedTest
  @EnumSource(IcebergTridentExampleTopology.Variant.class)
  void everyEventIsInTheTableExactlyOnce(IcebergTridentExampleTopology.Variant variant, LocalCluster cluster) throws Exception {
    if (variant != IcebergTridentExampleTopology.Variant.WHOLE_STREAM) {
      TestTiers.longTierOnly("the quick tier runs the example's default variant; the kernel's Trident tests run both");
    }
    String summary = IcebergTridentExampleTopology.run(cluster, warehouse, EVENTS, variant);

    assertThat(summary)
        .startsWith("storm-iceberg example: " + EVENTS + " events committed in ")
        .contains("the table now holds " + EVENTS + " rows");
    Table table = CatalogUtil.buildIcebergCatalog("local", LocalExampleRun.catalogProperties(warehouse), new org.apache.hadoop.conf.Configuration())
        .loadTable(TableIdentifier.parse(IcebergTridentExampleTopology.TABLE));
    Map<Long, Integer> timesPerId = timesPerId(table);
    assertThat(timesPerId.keySet()).as("ids in the table").containsExactlyInAnyOrderElementsOf(
        LongStream.range(0, EVENTS).boxed().toList());
    assertThat(timesPerId.entrySet().stream().filter(e -> e.getValue() != 1).map(Map.Entry::getKey).toList())
        .as("ids in the table more than once").isEmpty();

    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    assertThat(snapshots).allSatisfy(s -> assertThat(s.operation()).isEqualTo("append"));
    assertThat(snapshots.stream().collect(Collectors.groupingBy(s -> s.summary().get("storm.iceberg.commit-id"), Collectors.counting())))
        .as("snapshots per commit id").allSatisfy((id, count) -> assertThat(count).as(id).isEqualTo(1L));
    assertThat(snapshots.stream().map(s -> s.summary().get("storm.iceberg.trident-partition")).collect(Collectors.toSet()))
        .as("the state partitions that committed")
        .isEqualTo(variant == IcebergTridentExampleTopology.Variant.WHOLE_STREAM ? java.util.Set.of("whole-stream") : java.util.Set.of("0", "1"));
  }

  @Test
  void theVariantFlagIsReadAndLeftOutOfTheSharedCommandLine() {
    String[] args = {"local", "/tmp/wh", "--variant", "per-partition", "500"};

    assertThat(IcebergTridentExampleTopology.Variant.of(args)).isEqualTo(IcebergTridentExampleTopology.Variant.PER_PARTITION);
    assertThat(IcebergTridentExampleTopology.withoutVariant(args)).containsExactly("local", "/tmp/wh", "500");
    assertThat(IcebergTridentExampleTopology.Variant.of(new String[] {"local"})).isEqualTo(IcebergTridentExampleTopology.Variant.WHOLE_STREAM);
    assertThatThrownBy(() -> IcebergTridentExampleTopology.Variant.of(new String[] {"--variant", "shuffled"}))
        .hasMessage("--variant takes whole-stream or per-partition; got 'shuffled'");
  }

  /** How often each id is in the table: never deduplicated before counting. */
  private static Map<Long, Integer> timesPerId(Table table) throws IOException {
    Map<Long, Integer> times = new HashMap<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).select("id").build()) {
      for (Record record : records) {
        times.merge((Long) record.getField("id"), 1, Integer::sum);
      }
    }
    return times;
  }
}
