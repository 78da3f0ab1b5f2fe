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

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.trident.tuple.TridentTupleView;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.ITuple;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.junit.jupiter.api.Test;

/**
 * One {@link FieldNameRecordMapper} instance serves bolt tuples and Trident tuples alike, as the
 * {@code RecordMapper} contract promises ({@code ITuple}, not {@code Tuple}). The Trident tuples are
 * what {@code partitionPersist} hands a state: projections ({@link TridentTupleView.ProjectionFactory})
 * of a stream's fresh tuples, whose {@code getFields()} builds a new {@code Fields} on every call.
 * The bolt tuples and the Trident tuples lay their fields out in other orders than each other and
 * than the table, so a mapper that read by position, or reused one layout's resolution for the
 * other, would put values in the wrong columns.
 */
class SameMapperForBoltsAndTridentTest {
  static final Schema SCHEMA = new Schema(
      required(1, "id", Types.LongType.get()),
      optional(2, "region", Types.StringType.get()),
      optional(3, "event_time", Types.TimestampType.withZone()),
      optional(4, "payload", Types.StringType.get()));
  static final long DAY0 = 1_793_534_400_000L;

  /** Bolt tuples from component "events", fields region, payload, id, event_time. */
  static final Fields BOLT_FIELDS = new Fields("region", "payload", "id", "event_time");
  /** The Trident stream's fields: the state reads a projection of them in yet another order. */
  static final Fields STREAM_FIELDS = new Fields("payload", "extra", "event_time", "id", "region");
  static final Fields STATE_FIELDS = new Fields("event_time", "id", "payload", "region");

  final FieldNameRecordMapper mapper = new FieldNameRecordMapper();
  final GeneralTopologyContext boltContext = new GeneralTopologyContext(new StormTopology(), new HashMap<>(),
      Map.of(1, "events"), Map.of("events", List.of(1)), Map.of("events", Map.of("default", BOLT_FIELDS)), "t-1");
  final TridentTupleView.FreshOutputFactory stream = new TridentTupleView.FreshOutputFactory(STREAM_FIELDS);
  final TridentTupleView.ProjectionFactory state = new TridentTupleView.ProjectionFactory(stream, STATE_FIELDS);

  @Test
  void boltAndTridentTuplesOfTheSameEventMapToTheSameRecordAndRow() {
    List<ITuple> tuples = new ArrayList<>();
    for (long id = 0; id < 2_000; id++) {
      tuples.add(id % 2 == 0 ? boltTuple(id) : tridentTuple(id));
    }
    for (ITuple tuple : tuples) {
      long id = tuple.getLongByField("id");
      Record expected = expected(id);

      assertThat(mapper.map(tuple, SCHEMA)).as("record of id %s from a %s", id, kind(tuple)).isEqualTo(expected);
      InternalRow row = mapper.mapInternal(tuple, SCHEMA);
      assertThat(row.get(0, Long.class)).as("row of id %s from a %s", id, kind(tuple)).isEqualTo(id);
      assertThat(row.get(1, CharSequence.class).toString()).isEqualTo(region(id));
      assertThat(row.get(3, CharSequence.class).toString()).isEqualTo("payload-" + id);
    }
  }

  @Test
  void aTridentTupleNamesItsFieldsAnewOnEveryCall() {
    TridentTuple tuple = tridentTuple(1);
    assertThat(tuple.getFields()).as("the layout the mapper sees").isNotSameAs(tuple.getFields());
    assertThat(tuple.getFields().toList()).isEqualTo(STATE_FIELDS.toList());
  }

  private Tuple boltTuple(long id) {
    return new TupleImpl(boltContext, List.of(region(id), "payload-" + id, id, DAY0 + id), "events", 1, "default");
  }

  private TridentTuple tridentTuple(long id) {
    return state.create(stream.create(List.of("payload-" + id, "not a column", DAY0 + id, id, region(id))));
  }

  private static Record expected(long id) {
    Record record = GenericRecord.create(SCHEMA);
    record.setField("id", id);
    record.setField("region", region(id));
    record.setField("event_time", OffsetDateTime.ofInstant(Instant.ofEpochMilli(DAY0 + id), ZoneOffset.UTC));
    record.setField("payload", "payload-" + id);
    return record;
  }

  private static String region(long id) {
    return new String[] {"eu", "us", "apac"}[(int) (id % 3)];
  }

  private static String kind(ITuple tuple) {
    return tuple instanceof TridentTuple ? "Trident tuple" : "bolt tuple";
  }
}
