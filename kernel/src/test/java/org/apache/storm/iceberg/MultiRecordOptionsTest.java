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
import org.apache.storm.iceberg.mappers.JsonArrayRecordMapper;
import org.apache.storm.iceberg.spi.MultiRecordMapper;
import org.apache.storm.iceberg.trident.IcebergStateFactory;
import org.apache.storm.trident.state.StateType;
import org.junit.jupiter.api.Test;

/**
 * Choosing a multi-record mapper: by name through ServiceLoader (builder and Flux), by instance, and
 * the combinations refused at {@code build()} or construction on the submitting client.
 */
class MultiRecordOptionsTest {
  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder().withCatalogProperties(Map.of("type", "hadoop", "warehouse", "/tmp/w")).withTable("db.events");
  }

  @Test
  void theJsonArrayMapperIsFoundByNameWithItsProperties() {
    IcebergOptions options = options().withMultiRecordMapper("json-array", Map.of("field", "payload")).build();

    MultiRecordMapper mapper = options.settings().providers().multiRecordMapper().resolve(getClass().getClassLoader());
    assertThat(mapper).isInstanceOf(JsonArrayRecordMapper.class);
    assertThat(options.settings().providers().multiRecordMapper()).hasToString("json-array[field]");
  }

  @Test
  void fluxChoosesItWithTheMultiRecordMapperKey() {
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("catalog", Map.of("type", "hadoop", "warehouse", "file:/tmp/w"));
    config.put("table", "db.events");
    config.put("multi-record-mapper", Map.of("name", "json-array", "field", "body"));

    IcebergOptions options = IcebergOptions.fromMap(config);

    assertThat(options.settings().providers().multiRecordMapper()).hasToString("json-array[field]");
  }

  @Test
  void withoutOneEachTupleIsOneRecord() {
    assertThat(options().build().settings().providers().multiRecordMapper()).isNull();
  }

  @Test
  void anUnknownNameListsTheNamesFound() {
    assertThatThrownBy(() -> options().withMultiRecordMapper("avro-container").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("No multi-record mapper named 'avro-container' on the classpath; found [json-array]. Add the artifact"
            + " that provides it to the topology jar (the defaults are in org.apache.storm:storm-iceberg-mappers, part of"
            + " org.apache.storm:storm-iceberg), or select one of the names found.");
  }

  @Test
  void anUnknownPropertyIsRefused() {
    assertThatThrownBy(() -> options().withMultiRecordMapper("json-array", Map.of("feild", "value")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("record mapper 'json-array'").hasMessageContaining("feild");
  }

  @Test
  void aRecordMapperBesideItIsRefused() {
    assertThatThrownBy(() -> options().withRecordMapper("json").withMultiRecordMapper("json-array").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withRecordMapper and withMultiRecordMapper(json-array) are both set, but a tuple is mapped by one or"
            + " the other: keep withMultiRecordMapper when a tuple carries many records, withRecordMapper when it is one");
  }

  @Test
  void schemaEvolutionIsRefused() {
    assertThatThrownBy(() -> options().withMultiRecordMapper(new JsonArrayRecordMapper("value"))
            .withSchemaEvolution(SchemaEvolution.ADD_AND_WIDEN).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withSchemaEvolution cannot be used with withMultiRecordMapper: schema evolution adds columns from one"
            + " tuple's fields, and a tuple carrying many records has no such fields. Drop one of the two, or split the"
            + " tuples into one record each upstream (a bolt that emits each record)");
  }

  @Test
  void thePartitionGroupingIsRefused() {
    IcebergOptions options = options().withMultiRecordMapper("json-array").build();

    assertThatThrownBy(() -> new IcebergPartitionGrouping(options))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("IcebergPartitionGrouping cannot be used with withMultiRecordMapper: it sends each tuple to"
            + " the task of its record's Iceberg partition, and the records of one tuple may fall in many partitions");
  }

  @Test
  void theSplitSinkAndTheTridentStatesTakeIt() {
    IcebergOptions options = options().withMultiRecordMapper("json-array").withTridentStateType(StateType.TRANSACTIONAL).build();

    assertThat(List.of(new IcebergWriterBolt(options), new IcebergStateFactory(options))).hasSize(2);
  }
}
