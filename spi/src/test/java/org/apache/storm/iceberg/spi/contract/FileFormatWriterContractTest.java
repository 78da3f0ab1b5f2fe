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

package org.apache.storm.iceberg.spi.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriteResult;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.FileFormatWriterFactory;
import org.apache.storm.iceberg.spi.InternalRow;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every file format writer must do ({@link FileFormatWriter}'s contract), on a real partitioned
 * table: its writer factories, wrapped in Iceberg's fanout writer as the sink wraps them, write data
 * files of its format that read back as written. Each format's test names the provider and format.
 */
public abstract class FileFormatWriterContractTest extends ProviderContractTest<FileFormatWriter, FileFormatWriterFactory> {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "region", Types.StringType.get()),
      Types.NestedField.optional(3, "happened_at", Types.TimestampType.withZone()),
      Types.NestedField.optional(4, "day", Types.DateType.get()),
      Types.NestedField.optional(5, "score", Types.DoubleType.get()));
  private static final PartitionSpec SPEC = PartitionSpec.builderFor(SCHEMA).identity("region").build();
  private static final OffsetDateTime EPOCH = OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
  private static final OffsetDateTime START = OffsetDateTime.of(2026, 11, 1, 10, 0, 0, 0, ZoneOffset.UTC);

  protected Table table;

  @Override
  protected final Class<FileFormatWriterFactory> kind() {
    return FileFormatWriterFactory.class;
  }

  /** Format writers pass their properties to Iceberg's writers, which ignore keys they do not know. */
  @Override
  protected boolean refusesUnknownProperties() {
    return false;
  }

  /** The format the provider writes. */
  protected abstract FileFormat expectedFormat();

  @BeforeEach
  void createTable() {
    table = new ContractTables(dir).create("events", SCHEMA, SPEC, java.util.Map.of());
  }

  /** Row {@code id}'s values: two regions, a timestamp, a date and a score that each follow the id. */
  private static List<Object> values(long id) {
    return List.of(id, id % 2 == 0 ? "eu" : "us", START.plusSeconds(id), LocalDate.of(2026, 11, 1).plusDays(id), id / 4.0);
  }

  private static Record record(Record into, long id) {
    List<Object> values = values(id);
    for (int i = 0; i < values.size(); i++) {
      into.set(i, values.get(i));
    }
    return into;
  }

  private static InternalRow internalRow(long id) {
    List<Object> values = values(id);
    InternalRow row = new InternalRow(values.size());
    row.set(0, values.get(0));
    row.set(1, values.get(1));
    row.set(2, ChronoUnit.MICROS.between(EPOCH, (OffsetDateTime) values.get(2)));
    row.set(3, (int) ((LocalDate) values.get(3)).toEpochDay());
    row.set(4, values.get(4));
    return row;
  }

  /** Writes {@code rows} through Iceberg's fanout writer, as the sink does, and appends the files. */
  private <T extends StructLike> List<DataFile> writeAndAppend(FileWriterFactory<T> writers, List<T> rows, Function<T, T> beforeWrite) {
    OutputFileFactory files = OutputFileFactory.builderFor(table, 1, 1).format(expectedFormat()).build();
    FanoutDataWriter<T> fanout = new FanoutDataWriter<>(writers, files, table.io(), Long.MAX_VALUE);
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    try (fanout) {
      for (T row : rows) {
        T written = beforeWrite.apply(row);
        key.partition(written);
        fanout.write(written, table.spec(), key);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DataWriteResult result = fanout.result();
    AppendFiles append = table.newAppend();
    result.dataFiles().forEach(append::appendFile);
    append.commit();
    return result.dataFiles();
  }

  private List<List<Object>> tableRows() {
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        List<Object> row = new ArrayList<>();
        for (int i = 0; i < record.size(); i++) {
          row.add(record.get(i));
        }
        rows.add(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static List<List<Object>> expectedRows(int count) {
    List<List<Object>> rows = new ArrayList<>();
    for (long id = 0; id < count; id++) {
      rows.add(values(id));
    }
    return rows;
  }

  private static List<Record> newRecords(int count) {
    List<Record> records = new ArrayList<>();
    for (long id = 0; id < count; id++) {
      records.add(record(GenericRecord.create(SCHEMA), id));
    }
    return records;
  }

  @Test
  public void itWritesDataFilesOfItsFormatThatReadBackAsWritten() {
    FileFormatWriter writer = create();
    assertThat(writer.format()).isEqualTo(expectedFormat());

    List<DataFile> files = writeAndAppend(writer.writerFactory(table, table.schema()), newRecords(100), r -> r);

    assertThat(files).hasSize(2).allSatisfy(file -> {
      assertThat(file.format()).isEqualTo(expectedFormat());
      assertThat(file.specId()).isEqualTo(table.spec().specId());
      assertThat(file.location()).endsWith("." + expectedFormat().name().toLowerCase(java.util.Locale.ROOT));
    });
    assertThat(files).extracting(file -> file.partition().get(0, String.class)).containsExactlyInAnyOrder("eu", "us");
    assertThat(files.stream().mapToLong(DataFile::recordCount).sum()).isEqualTo(100);
    assertThat(tableRows()).containsExactlyInAnyOrderElementsOf(expectedRows(100));
  }

  @Test
  public void aRecordObjectOverwrittenForEveryWriteIsNotKept() {
    Record reused = GenericRecord.create(SCHEMA);
    List<Record> ids = newRecords(50);
    writeAndAppend(create().writerFactory(table, table.schema()), ids, r -> record(reused, (Long) r.get(0)));
    assertThat(tableRows()).containsExactlyInAnyOrderElementsOf(expectedRows(50));
  }

  @Test
  public void theWriterWritesTheSameAfterTravellingInATopology() {
    FileFormatWriter travelled = serializedAndBack(create());
    assertThat(travelled.format()).isEqualTo(expectedFormat());
    writeAndAppend(travelled.writerFactory(table, table.schema()), newRecords(10), r -> r);
    assertThat(tableRows()).containsExactlyInAnyOrderElementsOf(expectedRows(10));
  }

  @Test
  public void anInternalRowWriterWritesTheSameRowsAsTheGenericOne() {
    Optional<FileWriterFactory<InternalRow>> internal = create().internalWriterFactory(table, table.schema());
    assumeTrue(internal.isPresent(), "the format has no internal-row writer");
    List<InternalRow> rows = new ArrayList<>();
    for (long id = 0; id < 40; id++) {
      rows.add(internalRow(id));
    }
    List<DataFile> files = writeAndAppend(internal.get(), rows, r -> r);
    assertThat(files).allSatisfy(file -> assertThat(file.format()).isEqualTo(expectedFormat()));
    assertThat(tableRows()).containsExactlyInAnyOrderElementsOf(expectedRows(40));
  }
}
