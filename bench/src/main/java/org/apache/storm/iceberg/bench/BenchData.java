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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.storm.Config;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.bench.rows.BenchRows;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;

/**
 * The rows every benchmark writes: {@code columns} optional columns {@code c0..}, cycling through
 * long, string, double, timestamptz and int, as the mapper benchmark does; the values are {@link
 * BenchRows}'s, which the Flink peer writes too. Row {@code i} has
 * {@code c0 = i}, so {@code bucket(16, c0)} spreads rows evenly over 16 partitions. Values are what
 * the field-name mapper expects from a tuple (timestamps as epoch millis) and what Iceberg's generic
 * writer expects in a record (timestamps as {@code OffsetDateTime}).
 */
public final class BenchData {
  static final String SOURCE = "events";

  /**
   * A cluster worker's mode. Storm sanity-checks every tuple it constructs (field count against the
   * context) only in local mode, and a benchmark of the sink should pay what a worker pays.
   */
  static final Map<String, Object> WORKER_CONF = Map.of(Config.STORM_CLUSTER_MODE, "distributed");

  final int columns;
  final Schema schema;
  final PartitionSpec spec;
  final Fields fields;
  private final GeneralTopologyContext context;

  /** Rows of {@code columns} columns, in {@code partitions} buckets of c0 (1: unpartitioned). */
  public BenchData(int columns, int partitions) {
    this.columns = columns;
    List<Types.NestedField> schemaFields = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < columns; i++) {
      schemaFields.add(Types.NestedField.optional(i + 1, "c" + i, type(i)));
      names.add("c" + i);
    }
    this.schema = new Schema(schemaFields);
    this.spec = partitions <= 1 ? PartitionSpec.unpartitioned() : PartitionSpec.builderFor(schema).bucket("c0", partitions).build();
    this.fields = new Fields(names);
    this.context =
        new GeneralTopologyContext(
            new StormTopology(), WORKER_CONF, Map.of(1, SOURCE), Map.of(SOURCE, List.of(1)),
            Map.of(SOURCE, Map.of("default", fields)), "bench-1");
  }

  /**
   * The sink options every benchmark starts from: table {@code db.events} in the catalog {@code
   * catalog}, auto-created with this schema and spec; each benchmark adds its thresholds.
   */
  IcebergOptions.Builder sinkOptions(Map<String, String> catalog) {
    return new IcebergOptions.Builder()
        .withCatalogName("bench")
        .withCatalogProperties(catalog)
        .withHadoopConfiguration(TempTables.hadoopConfiguration())
        .withTable("db.events")
        .withAutoCreate(schema, spec);
  }

  /** The tuple values of row {@code row}, as a spout would emit them. */
  public List<Object> values(long row) {
    return BenchRows.values(row, columns);
  }

  /** The Iceberg type of column {@code column}: what {@link BenchRows#kind} says its values are. */
  static Type type(int column) {
    switch (BenchRows.kind(column)) {
      case LONG:
        return Types.LongType.get();
      case STRING:
        return Types.StringType.get();
      case DOUBLE:
        return Types.DoubleType.get();
      case TIMESTAMP_MILLIS:
        return Types.TimestampType.withZone();
      default:
        return Types.IntegerType.get();
    }
  }

  /**
   * A real Storm tuple of row {@code row}, anchored to one message id, as a bolt receives it: its
   * anchors in a {@code HashMap}, as a spout's executor builds them (the tuple deserializer builds
   * one too).
   */
  public Tuple tuple(long row) {
    return new TupleImpl(context, values(row), SOURCE, 1, "default", MessageId.makeRootId(row, row));
  }

  /** Row {@code row} as an Iceberg record: what the field-name mapper makes of {@link #tuple}. */
  public Record record(long row) {
    GenericRecord record = GenericRecord.create(schema);
    for (int i = 0; i < columns; i++) {
      Object value = BenchRows.value(row, i);
      if (BenchRows.kind(i) == BenchRows.Kind.TIMESTAMP_MILLIS) {
        value = java.time.Instant.ofEpochMilli((Long) value).atOffset(java.time.ZoneOffset.UTC);
      }
      record.set(i, value);
    }
    return record;
  }

  /** Row {@code row} in Iceberg's internal representation: what the field-name mapper makes of {@link #tuple} for Parquet. */
  public InternalRow internalRow(long row) {
    InternalRow internal = new InternalRow(columns);
    for (int i = 0; i < columns; i++) {
      Object value = BenchRows.value(row, i);
      internal.set(i, BenchRows.kind(i) == BenchRows.Kind.TIMESTAMP_MILLIS ? (Long) value * 1000L : value);
    }
    return internal;
  }

  /** {@code count} internal rows, built ahead so that building them is not measured. */
  public InternalRow[] internalRows(int count) {
    InternalRow[] rows = new InternalRow[count];
    for (int i = 0; i < count; i++) {
      rows[i] = internalRow(i);
    }
    return rows;
  }

  /** {@code count} tuples, built ahead so that building them is not measured. */
  public Tuple[] tuples(int count) {
    Tuple[] tuples = new Tuple[count];
    for (int i = 0; i < count; i++) {
      tuples[i] = tuple(i);
    }
    return tuples;
  }

  /** {@code count} records, built ahead so that building them is not measured. */
  public Record[] records(int count) {
    Record[] records = new Record[count];
    for (int i = 0; i < count; i++) {
      records[i] = record(i);
    }
    return records;
  }

  @Override
  public String toString() {
    return "columns=" + columns + ", partitions=" + (spec.isUnpartitioned() ? 1 : spec.fields().get(0).transform());
  }
}
