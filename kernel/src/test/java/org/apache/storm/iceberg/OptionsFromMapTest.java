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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.kernel.options.ProviderChoice;
import org.apache.storm.iceberg.testing.TestTables;
import org.junit.jupiter.api.Test;

/** IcebergOptions from a map, as Flux YAML hands it over. */
class OptionsFromMapTest {
  static Map<String, Object> base() {
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("catalog", Map.of("type", "hadoop", "warehouse", "file:/tmp/w"));
    config.put("table", "db.events");
    return config;
  }

  @Test
  void everyKeyReachesItsBuilderMethod() {
    Map<String, Object> config = base();
    config.put("catalog-name", "lake");
    config.put("commit-interval-records", 5000);
    config.put("commit-interval-bytes", "134217728");
    config.put("commit-interval-millis", 10_000);
    config.put("tick-interval-secs", 2);
    config.put("auto-create", Map.of(
        "schema", List.of("id long required", "region string", "event_time timestamptz", "payload string"),
        "spec", List.of("region", "day(event_time)", "bucket(8, id)"),
        "properties", Map.of("write.format.default", "orc")));
    config.put("record-mapper", Map.of("name", "field-name", "strict", "true"));
    config.put("file-format", "avro");
    config.put("wal-store", "table-fileio");
    config.put("wal-namespace", "flux");
    config.put("spill-directory", "/var/lib/storm/iceberg-spill");
    config.put("seal-policies", List.of(Map.of("name", "open-files", "max-partitions", 64)));
    config.put("snapshot-properties", Map.of("owner", "stream-team"));
    config.put("group-commit-interval-millis", 3000);
    config.put("group-commit-max-data-files", 200);
    config.put("commit-retries", 7);
    config.put("commit-retry-backoff-millis", 250);
    config.put("commit-deadline-margin-millis", 8000);
    config.put("max-pending-commits", 3);

    IcebergOptions options = IcebergOptions.fromMap(config);

    assertThat(options.catalogName()).isEqualTo("lake");
    assertThat(options.commitIntervalRecords()).isEqualTo(5000);
    assertThat(options.commitIntervalBytes()).isEqualTo(134_217_728L);
    assertThat(options.commitIntervalMillis()).isEqualTo(10_000);
    assertThat(options.tickIntervalSecs()).isEqualTo(2);
    assertThat(options.autoCreateSchema().findField("id").isRequired()).isTrue();
    assertThat(options.autoCreateSchema().findField("event_time").type()).isEqualTo(Types.TimestampType.withZone());
    assertThat(options.autoCreateSpec().fields()).extracting(f -> f.transform().toString())
        .containsExactly("identity", "day", "bucket[8]");
    assertThat(options.autoCreateProperties()).containsEntry("write.format.default", "orc");
    assertThat(options.settings().providers().recordMapper().toString()).isEqualTo("field-name[strict]");
    assertThat(options.settings().providers().fileFormat().name()).isEqualTo("avro");
    assertThat(options.walNamespace()).isEqualTo("flux");
    assertThat(options.spillDirectory()).hasToString("/var/lib/storm/iceberg-spill");
    assertThat(options.settings().providers().sealPolicies()).extracting(ProviderChoice::name).containsExactly("open-files");
    assertThat(options.snapshotProperties()).containsEntry("owner", "stream-team");
    assertThat(options.groupCommitIntervalMillis()).isEqualTo(3000);
    assertThat(options.groupCommitMaxDataFiles()).isEqualTo(200);
    assertThat(options.commitRetries()).isEqualTo(7);
    assertThat(options.commitRetryBackoffMillis()).isEqualTo(250);
    assertThat(options.commitDeadlineMarginMillis()).isEqualTo(8000);
    assertThat(options.maxPendingCommits()).isEqualTo(3);
  }

  @Test
  void icebergJsonIsAcceptedForSchemaAndSpec() {
    Map<String, Object> config = base();
    config.put("auto-create", Map.of(
        "schema", SchemaParser.toJson(TestTables.SCHEMA),
        "spec", org.apache.iceberg.PartitionSpecParser.toJson(TestTables.REGION_DAY)));
    IcebergOptions options = IcebergOptions.fromMap(config);
    assertThat(options.autoCreateSchema().sameSchema(TestTables.SCHEMA)).isTrue();
    assertThat(options.autoCreateSpec().fields()).hasSize(2);
  }

  @Test
  void mistakesFailWithTheKeyNamed() {
    Map<String, Object> unknown = base();
    unknown.put("commit-intervall-records", 5);
    assertThatThrownBy(() -> IcebergOptions.fromMap(unknown))
        .hasMessageStartingWith("unknown IcebergOptions keys [commit-intervall-records]; known keys are [allowed-namespaces, auto-create, branch, catalog,");

    Map<String, Object> badNumber = base();
    badNumber.put("commit-interval-records", "lots");
    assertThatThrownBy(() -> IcebergOptions.fromMap(badNumber)).hasMessage("'commit-interval-records' must be a whole number, got 'lots'");

    Map<String, Object> badColumn = base();
    badColumn.put("auto-create", Map.of("schema", List.of("id long mandatory")));
    assertThatThrownBy(() -> IcebergOptions.fromMap(badColumn)).hasMessage("auto-create column 'id long mandatory' is not \"name type [required]\"");

    Map<String, Object> noTable = base();
    noTable.remove("table");
    assertThatThrownBy(() -> IcebergOptions.fromMap(noTable)).hasMessage("no table: set withTable(\"namespace.table\"), or withTableRouter to take each tuple's table from it");

    Map<String, Object> unpartitioned = base();
    unpartitioned.put("auto-create", Map.of("schema", List.of("id long")));
    assertThat(IcebergOptions.fromMap(unpartitioned).autoCreateSpec()).isEqualTo(PartitionSpec.unpartitioned());
  }
}
