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

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.storm.Config;
import org.apache.storm.iceberg.testing.TestTables;
import org.junit.jupiter.api.Test;

class IcebergOptionsTest {
  static final Map<String, String> CATALOG =
      Map.of("type", "rest", "uri", "http://127.0.0.1:1/", "credential", "client:s3cr3t", "token", "t0k3n");

  IcebergOptions.Builder valid() {
    return new IcebergOptions.Builder().withCatalogProperties(CATALOG).withTable("db.events");
  }

  @Test
  void defaultsAreTheDocumentedOnes() {
    IcebergOptions options = valid().build();
    assertThat(options.commitIntervalRecords()).isEqualTo(IcebergOptions.DEFAULT_COMMIT_INTERVAL_RECORDS).isEqualTo(1000);
    assertThat(options.commitIntervalBytes()).isZero();
    assertThat(options.commitIntervalMillis()).isZero();
    assertThat(options.settings().providers().recordMapper().name()).isEqualTo("field-name");
    assertThat(options.settings().providers().walStore().name()).isEqualTo("table-fileio");
    assertThat(options.settings().providers().fileFormat()).isNull();
    assertThat(options.walNamespace()).isEqualTo("default");
    assertThat(options.spillDirectory()).isEqualTo(java.nio.file.Path.of(System.getProperty("java.io.tmpdir")));
    assertThat(options.catalogName()).isEqualTo("storm_iceberg");
    assertThat(declaredTickSecs(options)).isZero();
  }

  /**
   * The tick interval a writing bolt built from {@code options} asks Storm for, 0 for none.
   * (IcebergBolt always asks for 1 s: see IcebergBoltTest.)
   */
  static int declaredTickSecs(IcebergOptions options) {
    Map<String, Object> conf = new IcebergWriterBolt(options).getComponentConfiguration();
    return conf == null ? 0 : (Integer) conf.get(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS);
  }

  @Test
  void anAgeThresholdAloneAsksForTicksAtHalfTheAge() {
    assertThat(declaredTickSecs(valid().withCommitIntervalMillis(10_000).build())).isEqualTo(5);
    assertThat(declaredTickSecs(valid().withCommitIntervalMillis(500).build())).isEqualTo(1);
    assertThat(declaredTickSecs(valid().withCommitIntervalMillis(10_000).withTickIntervalSecs(2).build()))
        .isEqualTo(2);
    assertThat(valid().withCommitIntervalMillis(10_000).build().commitIntervalRecords())
        .as("a configured threshold replaces the 1000-record default")
        .isZero();
  }

  @Test
  void toStringNeverShowsSecrets() {
    String shown = valid().build().toString();
    assertThat(shown).doesNotContain("s3cr3t").doesNotContain("t0k3n").contains("credential=****").contains("uri=http://127.0.0.1:1/");
  }

  @Test
  void theSettingsTheStagesReadMaskSecretsToo() {
    assertThat(valid().build().settings().toString())
        .doesNotContain("s3cr3t").doesNotContain("t0k3n").contains("credential=****");
  }

  @Test
  void toStringMasksPasswordSpellingsCookiesAndHeaders() {
    String shown =
        new IcebergOptions.Builder()
            .withCatalogProperties(Map.of("type", "rest", "uri", "http://127.0.0.1:1/", "jdbc.pwd", "pwd-s3cr3t",
                "db.passwd", "passwd-s3cr3t", "rest.cookie", "cookie-s3cr3t", "header.X-Api", "header-s3cr3t"))
            .withTable("db.events")
            .build()
            .toString();
    assertThat(shown).doesNotContain("s3cr3t").contains("jdbc.pwd=****").contains("header.X-Api=****");
  }

  @Test
  void toStringMasksCredentialsInsideUris() {
    String shown =
        new IcebergOptions.Builder()
            .withCatalogProperties(
                Map.of("type", "jdbc", "uri", "jdbc:postgresql://db:5432/iceberg?user=sink&password=pg-s3cr3t&ssl=true",
                    "warehouse", "https://alice:w4r3h0us3@store.example/wh"))
            .withTable("db.events")
            .build()
            .toString();
    assertThat(shown)
        .doesNotContain("pg-s3cr3t")
        .doesNotContain("w4r3h0us3")
        .contains("jdbc:postgresql://db:5432/iceberg?user=sink&password=****&ssl=true")
        .contains("https://****@store.example/wh");
  }

  @Test
  void optionsSurviveJavaSerializationAsTheyTravelInATopology() throws Exception {
    IcebergOptions options =
        valid().withAutoCreate(TestTables.SCHEMA, TestTables.REGION_DAY).withCommitIntervalBytes(1 << 20).build();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(options);
    }
    IcebergOptions copy;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      copy = (IcebergOptions) in.readObject();
    }
    assertThat(copy.toString()).isEqualTo(options.toString());
    assertThat(copy.autoCreateSchema().sameSchema(TestTables.SCHEMA)).isTrue();
    assertThat(copy.autoCreateSpec()).isEqualTo(TestTables.REGION_DAY);
  }

  @Test
  void aCatalogWithoutTypeOrImplFailsAtBuild() {
    assertThatThrownBy(() -> new IcebergOptions.Builder().withCatalogProperties(Map.of("uri", "x")).withTable("db.t").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("catalog properties name no catalog: set 'type' (hadoop, jdbc, rest, hive, glue, nessie) or 'catalog-impl' in withCatalogProperties; got keys [uri]");
  }

  @Test
  void aMissingOrMalformedTableFailsAtBuild() {
    assertThatThrownBy(() -> new IcebergOptions.Builder().withCatalogProperties(CATALOG).build())
        .hasMessage("no table: set withTable(\"namespace.table\"), or withTableRouter to take each tuple's table from it");
    assertThatThrownBy(() -> valid().withTable("db..events").build())
        .hasMessage("table name 'db..events' has an empty part; use withTable(\"namespace.table\")");
  }

  @Test
  void aSpillDirectoryMustBeAnAbsolutePath() {
    assertThatThrownBy(() -> valid().withSpillDirectory("spill").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withSpillDirectory needs an absolute path (a directory on every worker, such as"
            + " /var/lib/storm/iceberg-spill), got 'spill'");
    assertThatThrownBy(() -> valid().withSpillDirectory(" ").build())
        .hasMessageStartingWith("withSpillDirectory needs an absolute path");
    IcebergOptions options = valid().withSpillDirectory("/var/lib/storm/iceberg-spill").build();
    assertThat(options.spillDirectory()).isEqualTo(java.nio.file.Path.of("/var/lib/storm/iceberg-spill"));
    assertThat(options.toString()).contains("spillDirectory=/var/lib/storm/iceberg-spill");
  }

  @Test
  void negativeIntervalsFailWhereTheyAreSet() {
    assertThatThrownBy(() -> valid().withCommitIntervalRecords(-1).build())
        .hasMessage("withCommitIntervalRecords must be 0 (off) or positive, got -1");
    assertThatThrownBy(() -> valid().withTickIntervalSecs(-5).build())
        .hasMessage("withTickIntervalSecs must be 0 (off) or positive, got -5");
  }

  @Test
  void maxPendingCommitsDefaultsToOneAndMustBePositive() {
    assertThat(valid().build().maxPendingCommits()).isEqualTo(IcebergOptions.DEFAULT_MAX_PENDING_COMMITS).isEqualTo(1);
    assertThat(valid().withMaxPendingCommits(4).build().maxPendingCommits()).isEqualTo(4);
    assertThatThrownBy(() -> valid().withMaxPendingCommits(0))
        .hasMessage("withMaxPendingCommits must be positive, got 0");
  }

  @Test
  void anUnknownProviderNameFailsAtBuildListingTheNamesFound() {
    assertThatThrownBy(() -> valid().withRecordMapper("avro-generic").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("No record mapper named 'avro-generic' on the classpath; found [field-name, json]. Add the artifact")
        .hasMessageContaining("org.apache.storm:storm-iceberg-mappers");
    assertThatThrownBy(() -> valid().withFileFormat("csv").build())
        .hasMessageStartingWith("No file format named 'csv' on the classpath; found [avro, orc, parquet].");
  }

  @Test
  void aProviderRejectingItsPropertiesFailsAtBuild() {
    assertThatThrownBy(() -> valid().withWalStore("table-fileio", Map.of("bogus", "1")).build())
        .hasMessage("WAL store 'table-fileio' does not know properties [bogus]; it takes none");
  }

  @Test
  void reservedSnapshotPropertiesFailAtBuild() {
    assertThatThrownBy(() -> valid().withSnapshotProperty("storm.iceberg.commit-id", "x").build())
        .hasMessageContaining("uses the reserved prefix 'storm.iceberg.'");
  }

  @Test
  void anAutoCreateSpecFromAnotherSchemaFailsAtBuild() {
    Schema other = new Schema(Types.NestedField.required(42, "day", Types.DateType.get()));
    PartitionSpec spec = PartitionSpec.builderFor(other).identity("day").build();
    assertThatThrownBy(() -> valid().withAutoCreate(TestTables.SCHEMA, spec).build())
        .hasMessageContaining("auto-create partition field 'day' uses source column id 42");
  }
}
