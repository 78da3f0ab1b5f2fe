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

package org.apache.storm.iceberg.bench;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.mappers.FieldNameRecordMapper;
import org.apache.storm.iceberg.mappers.IcebergValues;
import org.apache.storm.iceberg.mappers.JsonRecordMapper;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The record mappers, per tuple, on 5- and 50-column schemas (long, string, double, timestamptz and
 * int columns in turn). Baselines measured in the same run:
 *
 * <ul>
 *   <li>{@code positionalCopy}: build the record by copying tuple values by position, with no name
 *       lookup and no conversion: the floor any mapper pays.
 *   <li>{@code byNameEachTuple}: look every column up by name on every tuple and convert: what the
 *       field-name mapper would cost without its per-layout resolution.
 *   <li>{@code jacksonParseOnly}: parse the JSON document into a tree and nothing else: the floor of
 *       the json mapper.
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MapperBenchmark {
  private static final Type[] TYPES = {
    Types.LongType.get(), Types.StringType.get(), Types.DoubleType.get(), Types.TimestampType.withZone(), Types.IntegerType.get()
  };
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
  private static final int TUPLES = 1024;

  @Param({"5", "50"})
  public int columns;

  private Schema schema;
  private Tuple[] tuples;
  private Tuple[] jsonTuples;
  private String[] jsonDocuments;
  private FieldNameRecordMapper fieldName;
  private JsonRecordMapper json;
  private int next;

  @Setup
  public void setUp() throws Exception {
    List<Types.NestedField> fields = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < columns; i++) {
      fields.add(Types.NestedField.optional(i + 1, "c" + i, TYPES[i % TYPES.length]));
      names.add("c" + i);
    }
    schema = new Schema(fields);
    GeneralTopologyContext context = context(Map.of("default", new Fields(names), "json", new Fields("value")));
    tuples = new Tuple[TUPLES];
    jsonTuples = new Tuple[TUPLES];
    jsonDocuments = new String[TUPLES];
    for (int t = 0; t < TUPLES; t++) {
      List<Object> values = new ArrayList<>();
      Map<String, Object> document = new HashMap<>();
      for (int i = 0; i < columns; i++) {
        values.add(value(TYPES[i % TYPES.length], t, i));
        document.put("c" + i, jsonValue(TYPES[i % TYPES.length], t, i));
      }
      tuples[t] = new TupleImpl(context, values, "events", 1, "default");
      jsonDocuments[t] = JSON.writeValueAsString(document);
      jsonTuples[t] = new TupleImpl(context, List.of(jsonDocuments[t]), "events", 1, "json");
    }
    fieldName = new FieldNameRecordMapper();
    json = new JsonRecordMapper("value");
  }

  private static GeneralTopologyContext context(Map<String, Fields> streams) {
    return new GeneralTopologyContext(
        new StormTopology(), new HashMap<>(), Map.of(1, "events"), Map.of("events", List.of(1)),
        Map.of("events", streams), "bench-1");
  }

  private static Object value(Type type, int tuple, int column) {
    switch (type.typeId()) {
      case LONG:
        return (long) tuple * column;
      case STRING:
        return "value-" + tuple + "-" + column;
      case DOUBLE:
        return tuple * 0.5d + column;
      case TIMESTAMP:
        return 1_793_534_400_000L + tuple * 1000L;
      default:
        return tuple + column;
    }
  }

  private static Object jsonValue(Type type, int tuple, int column) {
    return type.typeId() == Type.TypeID.TIMESTAMP
        ? Instant.ofEpochMilli((Long) value(type, tuple, column)).toString()
        : value(type, tuple, column);
  }

  private int nextIndex() {
    next = (next + 1) & (TUPLES - 1);
    return next;
  }

  @Benchmark
  public Record positionalCopy() {
    Tuple tuple = tuples[nextIndex()];
    GenericRecord record = GenericRecord.create(schema);
    for (int i = 0; i < columns; i++) {
      record.set(i, tuple.getValue(i));
    }
    return record;
  }

  @Benchmark
  public Record byNameEachTuple() {
    Tuple tuple = tuples[nextIndex()];
    GenericRecord record = GenericRecord.create(schema);
    List<Types.NestedField> fields = schema.columns();
    for (int i = 0; i < fields.size(); i++) {
      Types.NestedField field = fields.get(i);
      record.set(i, IcebergValues.convert(field.type(), tuple.getValueByField(field.name()), field.name()));
    }
    return record;
  }

  @Benchmark
  public Record fieldNameMapper() {
    return fieldName.map(tuples[nextIndex()], schema);
  }

  /** The same mapper building the row in Iceberg's internal representation, as it does for Parquet. */
  @Benchmark
  public Object fieldNameMapperInternal() {
    return fieldName.mapInternal(tuples[nextIndex()], schema);
  }

  @Benchmark
  public JsonNode jacksonParseOnly() throws Exception {
    return JSON.readTree(jsonDocuments[nextIndex()]);
  }

  @Benchmark
  public Record jsonMapper() {
    return json.map(jsonTuples[nextIndex()], schema);
  }
}
