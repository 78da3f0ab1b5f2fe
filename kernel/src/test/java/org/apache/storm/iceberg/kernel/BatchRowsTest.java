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

package org.apache.storm.iceberg.kernel;

import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.kernel.batch.OpenBatch;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.storm.iceberg.mappers.FieldNameRecordMapper;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.FileFormatWriterFactory;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;
import org.apache.storm.tuple.ITuple;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which rows a batch is written with, for each mapper kind and format. */
class BatchRowsTest {
  /** A mapper that builds generic records only, as any plug-in written against the RecordMapper SPI. */
  static final class GenericOnlyMapper implements RecordMapper {
    @Override
    public Record map(ITuple tuple, Schema schema) {
      return new FieldNameRecordMapper().map(tuple, schema);
    }
  }

  @TempDir Path dir;

  @ParameterizedTest(name = "{0} with the {1} mapper: internal rows {2}")
  @CsvSource({
    "parquet, field-name, true",
    "avro, field-name, false",
    "orc, field-name, false",
    "parquet, generic-only, false",
    "avro, generic-only, false"
  })
  void internalRowsAreUsedWhenTheMapperBuildsThemAndTheFormatWritesThem(String format, String mapperKind, boolean internal) {
    Map<String, String> properties = TestCatalogs.hadoop(dir);
    var catalog = TestCatalogs.load(properties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    FileFormatWriter writer =
        ProviderRegistry.find(FileFormatWriterFactory.class, format, getClass().getClassLoader()).create(Map.of());
    RecordMapper mapper = mapperKind.equals("field-name") ? new FieldNameRecordMapper() : new GenericOnlyMapper();

    OpenBatch<?> batch =
        OpenBatch.open(
            table, FormerNamesSchema.of(table.schema(), table.schemas().values()), mapper, writer, 0, 1L, 0L,
            Path.of(System.getProperty("java.io.tmpdir")), Long.MAX_VALUE);

    Object row = batch.map(new Tuples(TestTables.FIELDS).tuple(1L, "eu", null, "p"));
    assertThat(row).isInstanceOf(internal ? InternalRow.class : Record.class);
    batch.abandon().release();
  }
}
