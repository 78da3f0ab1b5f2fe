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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.WriteMode;
import org.apache.storm.iceberg.kernel.options.SinkSettings.CatalogTarget;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;

/**
 * The row-level benchmarks' tuples and sink: {@link BenchData}'s rows keyed by {@code c0} (required,
 * the table's identifier field), each tuple carrying a Kafka position and a Debezium operation after
 * the row ({@code c} for a key's first change, {@code u} for a later one; read in changelog mode
 * only, with the offset as the change sequence, and carried in every mode so that all modes get the
 * same tuples), written through
 * a prepared {@link PreparedBolt} with source positions (which the row-level modes need) to an
 * unpartitioned table {@code db.events} in a HadoopCatalog. Offsets start at 0, as a new topic's
 * do, and never repeat, so every tuple is written: a partition the sink never committed whose first
 * offset is later makes the change fence wait for the replays of the offsets before it.
 */
final class KeyedRows {
  private static final long FIRST_OFFSET = 0;
  private static final String OPERATION = "op";

  final BenchData data;
  private final Schema keyed;
  private final Fields fields;
  private final GeneralTopologyContext context;

  KeyedRows(int columns) {
    this.data = new BenchData(columns, 1);
    List<Types.NestedField> schemaColumns = new ArrayList<>(data.schema.columns());
    Types.NestedField key = schemaColumns.get(0);
    schemaColumns.set(0, Types.NestedField.required(key.fieldId(), key.name(), key.type()));
    this.keyed = new Schema(schemaColumns, Set.of(key.fieldId()));
    List<String> names = new ArrayList<>(data.fields.toList());
    names.addAll(List.of(FixedIdentityPositions.TOPIC, FixedIdentityPositions.PARTITION, FixedIdentityPositions.OFFSET, OPERATION));
    this.fields = new Fields(names);
    this.context = new GeneralTopologyContext(new StormTopology(), BenchData.WORKER_CONF, Map.of(1, BenchData.SOURCE),
        Map.of(BenchData.SOURCE, List.of(1)), Map.of(BenchData.SOURCE, Map.of("default", fields)), "bench-1");
  }

  /**
   * The tuple values of the {@code index}-th change, to {@code key}: the row, then the Kafka position
   * the sink records, then the operation ({@code newKey}: the key's first change).
   */
  List<Object> tupleValues(long key, long index, boolean newKey) {
    List<Object> values = new ArrayList<>(data.values(key));
    values.addAll(List.of("events", 0, FIRST_OFFSET + index, newKey ? "c" : "u"));
    return values;
  }

  /** Creates the keyed table {@code db.events} in {@code catalog} on format version {@code formatVersion}. */
  void createTable(Map<String, String> catalog, int formatVersion) {
    Catalog loaded = OpenedTable.loadCatalog(new CatalogTarget("bench", catalog, "db.events", null, TempTables.hadoopConfiguration()));
    loaded.createTable(TableIdentifier.of("db", "events"), keyed, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion)));
  }

  /**
   * Writes {@code total} changes, to the keys {@code keys} gives in order, through a prepared bolt
   * in {@code mode} that commits every {@code batch} records, into the table {@link #createTable}
   * made; returns once every tuple is acked (throws if one is not).
   */
  Run write(Map<String, String> catalog, WriteMode mode, int batch, long total, LongSupplier keys) {
    IcebergOptions.Builder options = new IcebergOptions.Builder()
        .withCatalogName("bench")
        .withCatalogProperties(catalog)
        .withHadoopConfiguration(TempTables.hadoopConfiguration())
        .withTable("db.events")
        .withCommitIntervalRecords(batch)
        .withSourcePositions(new FixedIdentityPositions());
    if (mode != WriteMode.APPEND) {
      options.withWriteMode(mode);
    }
    if (mode == WriteMode.CHANGELOG) {
      options.withChangeFields(OPERATION, FixedIdentityPositions.OFFSET);
    }
    try (PreparedBolt prepared = new PreparedBolt(options.build(), fields)) {
      long started = System.nanoTime();
      long processCpuStarted = CountingSpout.cpuNanos();
      long cpuStarted = Run.THREADS.getCurrentThreadCpuTime();
      // Keys are numbered as they first appear (UpsertKeys), so a key is new when it is the next number.
      long nextNewKey = 0;
      for (long i = 0; i < total; i++) {
        long key = keys.getAsLong();
        boolean newKey = key == nextNewKey;
        if (newKey) {
          nextNewKey++;
        }
        Tuple tuple = new TupleImpl(context, tupleValues(key, i, newKey), BenchData.SOURCE, 1, "default", MessageId.makeRootId(i, i));
        prepared.bolt.execute(tuple);
      }
      long cpu = Run.THREADS.getCurrentThreadCpuTime() - cpuStarted;
      prepared.settle(total);
      long processCpu = CountingSpout.cpuNanos() - processCpuStarted;
      long wall = System.nanoTime() - started;
      if (prepared.counts.acked != total) {
        throw new IllegalStateException(
            "acked " + prepared.counts.acked + " of " + total + ", failed " + prepared.counts.failed, prepared.counts.lastError);
      }
      return new Run(total, cpu, processCpu, wall);
    }
  }

  /**
   * One write's records and what they took: the executing thread's CPU (the bolt's own thread; its
   * commits run on a thread of their own), and the process's CPU and the wall time from the first
   * tuple until every tuple was acked (commits, GC and the JIT included).
   */
  record Run(long records, long threadCpuNanos, long processCpuNanos, long wallNanos) {
    static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    double threadCpuNanosPerRecord() {
      return (double) threadCpuNanos / records;
    }

    double perProcessCpuSecond() {
      return records * 1e9 / processCpuNanos;
    }

    double perSecond() {
      return records * 1e9 / wallNanos;
    }
  }
}
