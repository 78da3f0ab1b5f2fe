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

package org.apache.storm.iceberg.mappers;

import static org.apache.storm.iceberg.mappers.FieldNameRecordMapperTest.SCHEMA;
import static org.apache.storm.iceberg.mappers.FieldNameRecordMapperTest.tuple;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.iceberg.spi.UnfitValuesException;
import org.apache.storm.tuple.ITuple;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The field-name mapper as a {@code SchemaEvolvingMapper}: asked to, it reports every value the
 * schema has no room for, whole and by top-level name, on both representations; a value that has
 * room (a null, a former name) is never reported.
 */
class FieldNameRecordMapperEvolutionTest {
  final FieldNameRecordMapper mapper = new FieldNameRecordMapper();

  BiFunction<ITuple, Schema, Object> mapping(boolean internal) {
    return internal ? mapper::mapInternal : mapper::map;
  }

  static Map<String, Object> values(Object... namesAndValues) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      values.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return values;
  }

  static Map<String, Object> unfit(BiFunction<ITuple, Schema, Object> map, Map<String, Object> tuple, Schema schema) {
    try {
      map.apply(tuple(tuple), schema);
    } catch (UnfitValuesException e) {
      return e.values();
    }
    throw new AssertionError("no UnfitValuesException for " + tuple);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void withoutBeingAskedItIgnoresFieldsWithNoColumn(boolean internal) {
    assertThat(mapping(internal).apply(tuple(values("id", 1L, "score", 2.5)), SCHEMA)).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void reportsNewFieldsNewStructKeysAndValuesTheirColumnCannotHold(boolean internal) {
    mapper.reportUnfitValues();
    Map<String, Object> address = values("city", "Oslo", "geo", values("lat", 1.0, "alt", 12));
    Map<String, Object> tuple = values("id", 1L, "count", 3_000_000_000L, "address", address, "score", 2.5);

    assertThat(unfit(mapping(internal), tuple, SCHEMA))
        .isEqualTo(values("score", 2.5, "address", address, "count", 3_000_000_000L));
  }

  /** A row-level sink's operation and sequence fields are read, not written: they are never reported. */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void fieldsNamedAsNotColumnsAreNeverReported(boolean internal) {
    mapper.reportUnfitValues(java.util.Set.of("op", "seq"));

    assertThat(mapping(internal).apply(tuple(values("id", 1L, "op", "u", "seq", 7L)), SCHEMA)).isNotNull();
    assertThat(unfit(mapping(internal), values("id", 1L, "op", "u", "seq", 7L, "score", 2.5), SCHEMA))
        .isEqualTo(values("score", 2.5));
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void nullsAndFormerNamesHaveRoomAndAreNotReported(boolean internal) {
    mapper.reportUnfitValues();
    Schema renamed = new Schema(SCHEMA.schemaId() + 1, List.of(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "total", Types.IntegerType.get())));
    FormerNamesSchema withHistory = FormerNamesSchema.of(renamed, List.of(SCHEMA, renamed));

    assertThat(mapping(internal).apply(tuple(values("id", 1L, "count", 3, "score", null)), withHistory)).isNotNull();
    assertThat(mapping(internal).apply(tuple(values("id", 1L, "address", values("city", "Oslo", "zip", null))), SCHEMA))
        .isNotNull();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aRefusalWithNoValueToMakeRoomForStaysAMappingError(boolean internal) {
    mapper.reportUnfitValues();
    assertThatThrownBy(() -> mapping(internal).apply(tuple(values("count", 3)), SCHEMA))
        .isExactlyInstanceOf(RecordMappingException.class)
        .hasMessageContaining("required column 'id'");
  }
}
