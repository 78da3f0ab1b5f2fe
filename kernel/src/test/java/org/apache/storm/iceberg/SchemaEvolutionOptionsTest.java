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

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.trident.IcebergStateFactory;
import org.apache.storm.iceberg.trident.IcebergTrident;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code withSchemaEvolution} and its Flux key: off by default, and refused at {@code build()} (or
 * when a Trident state is made from the options, on the submitting client) where it cannot work.
 */
class SchemaEvolutionOptionsTest {
  @TempDir Path dir;

  IcebergOptions.Builder builder() {
    return new IcebergOptions.Builder().withCatalogProperties(TestCatalogs.hadoop(dir)).withTable("db.events");
  }

  @Test
  void offByDefaultAndSetByBuilderOrFlux() {
    assertThat(builder().build().schemaEvolution()).isEqualTo(SchemaEvolution.OFF);
    assertThat(builder().withSchemaEvolution(SchemaEvolution.ADD_AND_WIDEN).build().schemaEvolution())
        .isEqualTo(SchemaEvolution.ADD_AND_WIDEN);
    Map<String, Object> flux = new HashMap<>(Map.of("catalog", TestCatalogs.hadoop(dir), "table", "db.events",
        "schema-evolution", "add-and-widen"));
    assertThat(IcebergOptions.fromMap(flux).schemaEvolution()).isEqualTo(SchemaEvolution.ADD_AND_WIDEN);
    flux.put("schema-evolution", "sometimes");
    assertThatThrownBy(() -> IcebergOptions.fromMap(flux))
        .hasMessageContaining("schema-evolution takes off or add-and-widen, got 'sometimes'");
  }

  @Test
  void aMapperThatCannotReportNewFieldsIsRefusedAtBuild() {
    assertThatThrownBy(() -> builder().withRecordMapper("json").withSchemaEvolution(SchemaEvolution.ADD_AND_WIDEN).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("withSchemaEvolution needs a record mapper that reports tuple values with no column")
        .hasMessageContaining("org.apache.storm.iceberg.mappers.JsonRecordMapper does not");
  }

  @Test
  void tridentStatesRefuseSchemaEvolutionOnTheClient() {
    IcebergOptions options = builder().withTridentStateType(StateType.TRANSACTIONAL)
        .withSchemaEvolution(SchemaEvolution.ADD_AND_WIDEN).build();
    assertThatThrownBy(() -> new IcebergStateFactory(options))
        .hasMessageContaining("Schema evolution is not supported by the Trident states");
    assertThatThrownBy(() -> IcebergTrident.persist(null, new Fields("id"), options))
        .hasMessageContaining("Schema evolution is not supported by the Trident states");
  }
}
