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

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.trident.tuple.TridentTupleView;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;

/**
 * The default mapper serves Trident tuples as it serves bolt tuples. Trident's tuple view builds a
 * new {@link Fields} on every {@code getFields()} call, so the mapper must know a layout by its
 * names, not by the object: otherwise it would lay out, and remember, a new layout for every tuple.
 */
class TridentTupleMappingTest {
  static final Schema SCHEMA =
      new Schema(required(1, "id", Types.LongType.get()), optional(2, "name", Types.StringType.get()));

  final TridentTupleView.FreshOutputFactory tuples =
      new TridentTupleView.FreshOutputFactory(new Fields("name", "id", "extra"));

  @Test
  void aTridentTupleMapsToTheSameRecordAsABoltTupleWithTheSameFields() {
    FieldNameRecordMapper mapper = new FieldNameRecordMapper();
    FormerNamesSchema schema = FormerNamesSchema.of(SCHEMA, List.of(SCHEMA));
    TridentTuple trident = tuples.create(List.of("ada", 7L, "x"));
    Record fromTrident = mapper.map(trident, schema).copy();
    Record fromBolt =
        mapper.map(FieldNameRecordMapperTest.tuple(new java.util.LinkedHashMap<>(java.util.Map.of("name", "ada", "id", 7L, "extra", "x"))), schema);

    assertThat(trident.getFields()).isNotSameAs(trident.getFields());
    assertThat(fromTrident).isEqualTo(fromBolt);
    assertThat(fromTrident.getField("id")).isEqualTo(7L);
    assertThat(fromTrident.getField("name")).isEqualTo("ada");
  }

  @Test
  void aLongTridentRunLaysOutItsFieldsOnceNotOncePerTuple() {
    FieldNameRecordMapper mapper = new FieldNameRecordMapper();
    List<String> reported = new ArrayList<>();
    mapper.onUnmatchedFields((schema, fields) -> reported.add(String.valueOf(fields)));
    FormerNamesSchema schema = FormerNamesSchema.of(SCHEMA, List.of(SCHEMA));

    for (long id = 0; id < 100_000; id++) {
      Record record = mapper.map(tuples.create(List.of("n" + id, id, "x")), schema);
      assertThat(record.getField("id")).isEqualTo(id);
    }

    // A layout is reported once, when it is first laid out.
    assertThat(reported).containsExactly("[extra]");
  }
}
