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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.mappers.FieldNameRecordMapperTest.Stream;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.junit.jupiter.api.Test;

/**
 * Columns renamed from outside keep the values producers still send under a former name, in the
 * field-name and json mappers, top-level and nested; a current name wins over a former one; fields
 * that match nothing are reported once per layout.
 */
class FormerNamesTest {
  static Types.NestedField address(String cityName) {
    return optional(3, "address", Types.StructType.of(optional(4, cityName, Types.StringType.get())));
  }

  // payload -> body -> text, and address.city -> address.town, in two renames.
  static final Schema V0 =
      new Schema(0, required(1, "id", Types.LongType.get()), optional(2, "payload", Types.StringType.get()), address("city"));
  static final Schema V1 =
      new Schema(1, required(1, "id", Types.LongType.get()), optional(2, "body", Types.StringType.get()), address("town"));
  static final Schema V2 =
      new Schema(2, required(1, "id", Types.LongType.get()), optional(2, "text", Types.StringType.get()), address("town"));
  static final FormerNamesSchema RENAMED_TWICE = FormerNamesSchema.of(V2, List.of(V1, V2, V0));

  final FieldNameRecordMapper mapper = new FieldNameRecordMapper();

  @Test
  void everyFormerNameIsKeptNewestFirstAndIcebergsAliasIsTheNewest() {
    assertThat(RENAMED_TWICE.formerNames(2)).containsExactly("body", "payload");
    assertThat(RENAMED_TWICE.formerNames(4)).containsExactly("city");
    assertThat(RENAMED_TWICE.formerNames(1)).isEmpty();
    assertThat(RENAMED_TWICE.aliasToId("body")).isEqualTo(2);
    assertThat(RENAMED_TWICE.aliasToId("address.city")).isEqualTo(4);
    assertThat(RENAMED_TWICE.asStruct()).isEqualTo(V2.asStruct());
    assertThat(RENAMED_TWICE.schemaId()).isEqualTo(2);
  }

  @Test
  void aTupleFieldUnderAFormerNameFillsTheRenamedColumnInBothRepresentations() {
    for (String former : List.of("payload", "body")) {
      Stream stream = new Stream("id", former);
      assertThat(mapper.map(stream.tuple(1L, "v-" + former), RENAMED_TWICE).getField("text")).isEqualTo("v-" + former);
      assertThat(mapper.mapInternal(stream.tuple(1L, "v-" + former), RENAMED_TWICE).get(1, Object.class))
          .isEqualTo("v-" + former);
    }
    Stream both = new Stream("id", "payload", "body");
    assertThat(mapper.map(both.tuple(1L, "oldest", "newer"), RENAMED_TWICE).getField("text"))
        .as("the most recent former name is taken first")
        .isEqualTo("newer");
    Stream current = new Stream("id", "body", "text");
    assertThat(mapper.map(current.tuple(1L, "former", "current"), RENAMED_TWICE).getField("text")).isEqualTo("current");
  }

  @Test
  void aNestedFieldUnderAFormerNameFillsTheRenamedField() {
    Stream stream = new Stream("id", "address");
    Record record = mapper.map(stream.tuple(1L, Map.of("city", "Oslo")), RENAMED_TWICE);
    assertThat(((Record) record.getField("address")).getField("town")).isEqualTo("Oslo");
    InternalRow row = mapper.mapInternal(stream.tuple(1L, Map.of("city", "Oslo", "town", "Bergen")), RENAMED_TWICE);
    assertThat(row.get(2, StructLike.class).get(0, Object.class)).as("the current name wins").isEqualTo("Bergen");
  }

  @Test
  void aCurrentNameWinsOverAFormerOne() {
    Schema readded =
        new Schema(
            2, required(1, "id", Types.LongType.get()), optional(2, "body", Types.StringType.get()),
            optional(5, "payload", Types.StringType.get()));
    FormerNamesSchema schema =
        FormerNamesSchema.of(readded, List.of(V0, new Schema(1, V1.columns().subList(0, 2)), readded));
    assertThat(schema.formerNames(2)).as("payload is a current name again").isEmpty();

    Record record = mapper.map(new Stream("id", "payload").tuple(1L, "p"), schema);
    assertThat(record.getField("payload")).isEqualTo("p");
    assertThat(record.getField("body")).isNull();
  }

  @Test
  void aRenamedRequiredColumnIsFilledFromItsFormerName() {
    Schema v0 = new Schema(0, required(1, "id", Types.LongType.get()), required(2, "name", Types.StringType.get()));
    Schema v1 = new Schema(1, required(1, "id", Types.LongType.get()), required(2, "label", Types.StringType.get()));
    FormerNamesSchema schema = FormerNamesSchema.of(v1, List.of(v0, v1));
    assertThat(mapper.map(new Stream("id", "name").tuple(1L, "n"), schema).getField("label")).isEqualTo("n");
    assertThatThrownBy(() -> mapper.map(new Stream("id", "other").tuple(1L, "n"), schema))
        .isInstanceOf(RecordMappingException.class)
        .hasMessage("required column 'label' (string) has no value");
  }

  @Test
  void caseInsensitiveMatchingAppliesToFormerNames() {
    FieldNameRecordMapper ignoringCase = new FieldNameRecordMapper(true, false);
    assertThat(ignoringCase.map(new Stream("ID", "PAYLOAD").tuple(1L, "p"), RENAMED_TWICE).getField("text")).isEqualTo("p");
  }

  @Test
  void fieldsMatchingNoCurrentOrFormerNameAreReportedOncePerLayoutAndSchema() {
    List<String> reported = new ArrayList<>();
    mapper.onUnmatchedFields((schema, fields) -> reported.add(schema.schemaId() + ":" + fields));
    Stream stream = new Stream("id", "payload", "extra", "body", "more");
    for (int i = 0; i < 3; i++) {
      mapper.map(stream.tuple(1L, "p", "x", "b", "y"), RENAMED_TWICE);
      mapper.mapInternal(stream.tuple(1L, "p", "x", "b", "y"), RENAMED_TWICE);
    }
    assertThat(reported).as("payload and body are former names of text: matched").containsExactly("2:[extra, more]");

    mapper.map(stream.tuple(1L, "p", "x", "b", "y"), V0);
    assertThat(reported).containsExactly("2:[extra, more]", "0:[extra, body, more]");
  }

  @Test
  void strictModeAcceptsAFormerNameAndRefusesAnythingElse() {
    FieldNameRecordMapper strict = new FieldNameRecordMapper(false, true);
    assertThat(strict.map(new Stream("id", "payload").tuple(1L, "p"), RENAMED_TWICE).getField("text")).isEqualTo("p");
    assertThatThrownBy(() -> strict.map(new Stream("id", "colour").tuple(1L, "red"), RENAMED_TWICE))
        .hasMessage("tuple field 'colour' matches no column, and the mapper is strict");
  }

  @Test
  void theJsonMapperReadsMembersUnderFormerNamesTopLevelAndNested() {
    JsonRecordMapper json = new JsonRecordMapper("value");
    byte[] document = "{\"id\": 1, \"payload\": \"p\", \"address\": {\"city\": \"Oslo\"}}".getBytes(StandardCharsets.UTF_8);
    Record record = json.map(new Stream("value").tuple((Object) document), RENAMED_TWICE);
    assertThat(record.getField("text")).isEqualTo("p");
    assertThat(((Record) record.getField("address")).getField("town")).isEqualTo("Oslo");

    byte[] current = "{\"id\": 1, \"payload\": \"old\", \"text\": \"new\"}".getBytes(StandardCharsets.UTF_8);
    assertThat(json.map(new Stream("value").tuple((Object) current), RENAMED_TWICE).getField("text")).isEqualTo("new");
  }
}
