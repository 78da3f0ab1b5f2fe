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

package org.apache.storm.iceberg.kernel.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.TypeUtil;
import org.apache.storm.iceberg.kernel.change.ChangeFields;
import org.apache.storm.iceberg.kernel.change.ChangeKey;
import org.apache.storm.iceberg.kernel.change.ChangeRow;
import org.apache.storm.iceberg.kernel.change.RowChanges;
import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.mappers.FieldNameRecordMapper;
import org.apache.storm.iceberg.spi.FileFormatWriterFactory;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.storm.iceberg.spi.InternalRowMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.ITuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch of row-level changes holds each key's row until it seals: a row from a mapper that may
 * return one record object twice is copied, and a row from a mapper whose records are new on every
 * call is kept as the mapper returned it.
 */
class HeldChangeRowsTest {
  /** Returns one record, overwritten on every call, as the RecordMapper contract allows. */
  static final class ReusingMapper implements RecordMapper {
    private final FieldNameRecordMapper fields = new FieldNameRecordMapper();
    private Record reused;

    @Override
    public Record map(ITuple tuple, Schema schema) {
      Record mapped = fields.map(tuple, schema);
      if (reused == null) {
        reused = GenericRecord.create(schema);
      }
      for (int i = 0; i < mapped.size(); i++) {
        reused.set(i, mapped.get(i));
      }
      return reused;
    }
  }

  @TempDir Path dir;

  @Test
  void aReusedRecordIsCopiedAndANewOneKeptAsItIs() {
    RecordMapper reusing = new ReusingMapper();
    OpenBatch<?> copying = open(reusing, 1);
    Record first = (Record) ((ChangeRow<?>) copying.map(tuple(1L, "first"))).row();
    Record second = (Record) ((ChangeRow<?>) copying.map(tuple(2L, "second"))).row();
    assertThat(first.getField("payload")).as("the first key's row, after the mapper reused its record").isEqualTo("first");
    assertThat(second.getField("payload")).isEqualTo("second");
    copying.abandon().release();

    FieldNameRecordMapper fresh = new FieldNameRecordMapper();
    assertThat(fresh.returnsNewRecords()).isTrue();
    assertThat(reusing.returnsNewRecords()).as("the SPI's default").isFalse();
  }

  /** Returns one internal row, overwritten on every call, as the InternalRowMapper contract allows. */
  static final class ReusingInternalMapper implements InternalRowMapper {
    private final FieldNameRecordMapper fields = new FieldNameRecordMapper();
    private InternalRow reused;

    @Override
    public Record map(ITuple tuple, Schema schema) {
      return fields.map(tuple, schema);
    }

    @Override
    public InternalRow mapInternal(ITuple tuple, Schema schema) {
      InternalRow mapped = fields.mapInternal(tuple, schema);
      if (reused == null) {
        reused = new InternalRow(mapped.size());
      }
      for (int i = 0; i < mapped.size(); i++) {
        reused.set(i, mapped.get(i, Object.class));
      }
      return reused;
    }
  }

  /**
   * With a mapper that builds internal rows and a format that writes them (Parquet), a batch of
   * changes holds internal rows, as an append batch does: a timestamp as its microseconds, not an
   * OffsetDateTime. A reused internal row is copied too.
   */
  @Test
  void anInternalRowMapperBatchHoldsInternalRowsAndCopiesAReusedOne() {
    OpenBatch<?> internal = open(new FieldNameRecordMapper(), 1);
    java.time.OffsetDateTime at = java.time.OffsetDateTime.parse("2026-12-06T10:00:00Z");
    ChangeRow<?> change = (ChangeRow<?>) internal.map(new Tuples(TestTables.FIELDS).tuple(1L, "eu", at, "p"));
    assertThat(change.row()).isInstanceOf(InternalRow.class);
    assertThat(change.row().get(2, Object.class)).as("event_time in Iceberg's internal form")
        .isEqualTo(org.apache.iceberg.util.DateTimeUtil.microsFromTimestamptz(at));
    internal.abandon().release();

    OpenBatch<?> copying = open(new ReusingInternalMapper(), 1);
    StructLike first = ((ChangeRow<?>) copying.map(tuple(1L, "first"))).row();
    StructLike second = ((ChangeRow<?>) copying.map(tuple(2L, "second"))).row();
    assertThat(first.get(3, String.class)).as("the first key's row, after the mapper reused its row").isEqualTo("first");
    assertThat(second.get(3, String.class)).isEqualTo("second");
    copying.abandon().release();

    OpenBatch<?> generic = open(new ReusingMapper(), 1);
    assertThat(((ChangeRow<?>) generic.map(tuple(1L, "p"))).row()).as("a mapper of generic records only").isInstanceOf(Record.class);
    generic.abandon().release();
  }

  @Test
  void aKeyColumnWithoutAValueIsRefusedNamingIt() {
    OpenBatch<?> batch = open(new FieldNameRecordMapper(), 2);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> batch.map(new Tuples(TestTables.FIELDS).tuple(1L, null, null, "p")))
        .hasMessage("key column region is null: a change must name its row's key");
    batch.abandon().release();
  }

  private static ITuple tuple(Long id, String payload) {
    return new Tuples(TestTables.FIELDS).tuple(id, "eu", null, payload);
  }

  /** A batch of upserts by column {@code keyId} (1, id; 2, region). */
  private OpenBatch<?> open(RecordMapper mapper, int keyId) {
    var catalog = TestCatalogs.load(TestCatalogs.hadoop(dir));
    if (!((SupportsNamespaces) catalog).namespaceExists(Namespace.of("db"))) {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    }
    TableIdentifier name = TableIdentifier.of("db", "events" + System.nanoTime());
    Table table = catalog.createTable(name, TestTables.SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, "2"));
    Schema schema = table.schema();
    ChangeKey key = new ChangeKey(new int[] {keyId}, TypeUtil.select(schema, Set.of(keyId)));
    RowChanges changes = new RowChanges(key, new ChangeFields(mapper, null, null), true, 100_000, false, table.spec());
    var format = ProviderRegistry.find(FileFormatWriterFactory.class, "parquet", getClass().getClassLoader()).create(Map.of());
    return OpenBatch.open(table, FormerNamesSchema.of(schema, table.schemas().values()), new RowCheck.ForSchema(schema, false),
        mapper, null, changes, format, 0, 1L, 0L, dir, Long.MAX_VALUE, Long.MAX_VALUE);
  }
}
