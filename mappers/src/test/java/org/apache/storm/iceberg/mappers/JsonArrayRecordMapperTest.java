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

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.spi.MultiRecordMapperFactory;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.junit.jupiter.api.Test;

/** The {@code "json-array"} multi-record mapper: each object of the array one record, read as the {@code "json"} mapper reads one. */
class JsonArrayRecordMapperTest {
  static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "at", Types.TimestampType.withZone()),
          optional(3, "tags", Types.ListType.ofOptional(4, Types.StringType.get())));

  final JsonArrayRecordMapper mapper = new JsonArrayRecordMapper("value");

  List<Record> map(Object payload) {
    return mapper.mapAll(FieldNameRecordMapperTest.tuple(Map.of("value", payload)), SCHEMA);
  }

  @Test
  void eachObjectIsOneRecordInOrderWithTheJsonMappersConversions() {
    String json = "[{\"id\": 1, \"at\": \"2026-12-02T05:00:00Z\", \"tags\": [\"a\"]}, {\"id\": 2, \"at\": 1793534400000}]";

    List<Record> records = map(json.getBytes(StandardCharsets.UTF_8));

    assertThat(records).extracting(r -> r.getField("id")).containsExactly(1L, 2L);
    assertThat(records.get(0).getField("at")).isEqualTo(OffsetDateTime.of(2026, 12, 2, 5, 0, 0, 0, ZoneOffset.UTC));
    assertThat(records.get(0).getField("tags")).isEqualTo(List.of("a"));
    assertThat(records.get(1).getField("at")).isEqualTo(OffsetDateTime.of(2026, 11, 1, 12, 0, 0, 0, ZoneOffset.UTC));
    assertThat(records.get(0)).as("each record its own object").isNotSameAs(records.get(1));
  }

  @Test
  void anEmptyArrayIsNoRecords() {
    assertThat(map("[]")).isEmpty();
  }

  @Test
  void aDocumentThatIsNotAnArrayIsRefusedNamingTheJsonMapper() {
    assertThatThrownBy(() -> map("{\"id\": 1}"))
        .isInstanceOf(RecordMappingException.class)
        .hasMessage("the JSON document in field 'value' is a OBJECT, not an array of objects (the \"json\" record mapper"
            + " reads one object a tuple)");
  }

  @Test
  void anElementThatIsNotAnObjectIsRefusedByIndex() {
    assertThatThrownBy(() -> map("[{\"id\": 1}, [2]]"))
        .isInstanceOf(RecordMappingException.class)
        .hasMessage("element 1 of the JSON array in field 'value' is a ARRAY, not an object");
  }

  @Test
  void aBadValueInOneElementRefusesTheTupleNamingTheElementColumnAndTypes() {
    assertThatThrownBy(() -> map("[{\"id\": 1}, {\"id\": 2}, {\"id\": true}]"))
        .isInstanceOf(RecordMappingException.class)
        .hasMessage("element 2 of 3 in the JSON array in field 'value': column 'id' expects long but got JSON boolean"
            + " (com.fasterxml.jackson.databind.node.BooleanNode)")
        .extracting(e -> ((RecordMappingException) e).columnPath()).isEqualTo("id");
  }

  @Test
  void aMissingRequiredColumnNamesTheElement() {
    assertThatThrownBy(() -> map("[{\"id\": 1}, {\"at\": 0}]"))
        .isInstanceOf(RecordMappingException.class)
        .hasMessage("element 1 of 2 in the JSON array in field 'value': required column 'id' (long) has no value");
  }

  @Test
  void invalidJsonAndAMissingFieldAreRefusedAsTheJsonMapperRefusesThem() {
    assertThatThrownBy(() -> map("[{\"id\": 1},")).isInstanceOf(RecordMappingException.class)
        .hasMessageStartingWith("field 'value' is not valid JSON: ");
    assertThatThrownBy(() -> mapper.mapAll(FieldNameRecordMapperTest.tuple(Map.of("body", "[]")), SCHEMA))
        .isInstanceOf(RecordMappingException.class)
        .hasMessageStartingWith("the tuple has no field 'value' holding the JSON document; its fields are ");
  }

  @Test
  void itIsFoundByNameWithItsField() {
    MultiRecordMapperFactory factory = ServiceLoader.load(MultiRecordMapperFactory.class).stream()
        .map(ServiceLoader.Provider::get).filter(f -> f.name().equals("json-array")).findFirst().orElseThrow();

    assertThat(factory.create(Map.of("field", "body")).mapAll(FieldNameRecordMapperTest.tuple(Map.of("body", "[{\"id\": 7}]")), SCHEMA))
        .extracting(r -> r.getField("id")).containsExactly(7L);
  }
}
