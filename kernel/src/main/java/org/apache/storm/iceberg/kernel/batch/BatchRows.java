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

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.DeleteGranularity;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.storm.iceberg.kernel.change.ChangeOp;
import org.apache.storm.iceberg.kernel.change.ChangeRow;
import org.apache.storm.iceberg.kernel.change.RowChanges;
import org.apache.storm.iceberg.kernel.change.RowModel;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.storm.iceberg.spi.InternalRowMapper;
import org.apache.storm.iceberg.spi.MultiRecordMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.tuple.ITuple;

/**
 * How one batch turns tuples into rows of its schema, and rows into files: as {@link InternalRow}s
 * when the mapper builds them and the format writes them (the field-name mapper into Parquet),
 * otherwise as Iceberg's generic {@link Record}s. Internal rows skip building a {@code
 * java.time} object per date, time and timestamp that the writer would then take apart again, and
 * their partition is computed from the row itself. A batch whose tuples carry many records each
 * ({@link MultiRecordMapper}) writes generic records.
 *
 * @param <T> the row type
 */
abstract class BatchRows<T> {
  final Schema schema;
  /** {@link #schema} with its former names: what the mapper is given. */
  final Schema mapperSchema;
  /** What the writers would refuse in a row, checked before it is written. */
  final RowCheck check;

  private BatchRows(Schema schema, Schema mapperSchema, RowCheck check) {
    this.schema = schema;
    this.mapperSchema = mapperSchema;
    this.check = check;
  }

  /**
   * The rows a batch of {@code table} at {@code schema} is written with; the mapper maps against
   * {@code mapperSchema}, the same columns with their former names, and the writers never see it.
   * {@code many}, when not null, maps each tuple instead of {@code mapper}.
   */
  static BatchRows<?> choose(
      RecordMapper mapper, MultiRecordMapper many, FileFormatWriter format, Table table, Schema schema,
      Schema mapperSchema, RowCheck.ForSchema checks, RowChanges changes) {
    if (changes != null) {
      return changeRecords(mapper, format, table, schema, mapperSchema, checks, changes);
    }
    if (many != null) {
      return new ManyRecords(many, format.writerFactory(table, schema), schema, mapperSchema, checks.generic());
    }
    if (mapper instanceof InternalRowMapper internalMapper) {
      Optional<FileWriterFactory<InternalRow>> writers = format.internalWriterFactory(table, schema);
      if (writers.isPresent()) {
        return new InternalRows(internalMapper, writers.get(), schema, mapperSchema, checks.internal());
      }
    }
    return new GenericRecords(mapper, format.writerFactory(table, schema), schema, mapperSchema, checks.generic());
  }

  /**
   * A batch of row-level changes: in internal rows when the mapper builds them and the format writes
   * them with its delete files, as an append batch would be; in generic records otherwise.
   */
  private static BatchRows<?> changeRecords(
      RecordMapper mapper, FileFormatWriter format, Table table, Schema schema, Schema mapperSchema,
      RowCheck.ForSchema checks, RowChanges changes) {
    int[] keyIds = changes.key().fieldIds();
    Schema keySchema = changes.key().schemaIn(schema);
    if (mapper instanceof InternalRowMapper internalMapper) {
      Optional<FileWriterFactory<InternalRow>> writers = format.internalDeltaWriterFactory(table, schema, keyIds, keySchema);
      if (writers.isPresent()) {
        return new ChangeRecords<>(RowModel.INTERNAL, internalMapper::mapInternal, mapper, writers.get(), changes, format,
            table, schema, mapperSchema, checks.internal());
      }
    }
    FileWriterFactory<Record> writers = format.deltaWriterFactory(table, schema, keyIds, keySchema)
        .orElseThrow(() -> new IllegalStateException("file format " + format.format() + " (" + format + ") writes no"
            + " delete files, which the row-level write modes need; choose parquet, orc or avro"));
    return new ChangeRecords<>(RowModel.GENERIC, mapper::map, mapper, writers, changes, format, table, schema, mapperSchema,
        checks.generic());
  }

  /**
   * The tuple's row.
   *
   * @throws RuntimeException when the mapper refuses the tuple, or returns null
   */
  abstract T map(ITuple tuple);

  /** Whether each tuple carries many rows, read with {@link #mapAll} rather than {@link #map}. */
  boolean manyRecords() {
    return false;
  }

  /**
   * The tuple's rows, when {@link #manyRecords}.
   *
   * @throws RuntimeException when the mapper refuses the tuple, or returns null
   */
  List<T> mapAll(ITuple tuple) {
    throw new IllegalStateException("this batch maps one row a tuple");
  }

  /** The row as the writers read it. */
  abstract StructLike asStruct(T row);

  /** The row as Iceberg's partition transforms read it (internal values). */
  abstract StructLike partitionSource(T row);

  /** Opens the batch's files. */
  abstract FileWriterFactory<T> writers();

  /**
   * Where the batch's verified rows go: its files, opened as rows arrive ({@code dvFiles} names
   * deletion-vector files, for a batch of changes that writes them).
   */
  BatchFiles<T> files(OutputFileFactory fileFactory, Supplier<OutputFileFactory> dvFiles, FileIO io, long targetFileSize) {
    return new FanoutFiles<>(writers(), fileFactory, io, targetFileSize);
  }

  /**
   * Checks what the file writer would refuse in the row.
   *
   * @throws RecordRejectedException naming the column
   */
  void verify(T row) {
    check.verify(asStruct(row));
  }

  static <R> R checkNotNull(R row, Object mapper) {
    if (row == null) {
      throw new IllegalStateException("record mapper " + mapper.getClass().getName() + " returned null");
    }
    return row;
  }

  private static class GenericRecords extends BatchRows<Record> {
    private final RecordMapper mapper;
    private final FileWriterFactory<Record> writers;
    private final InternalRecordWrapper partitionSource;

    GenericRecords(RecordMapper mapper, FileWriterFactory<Record> writers, Schema schema, Schema mapperSchema, RowCheck check) {
      super(schema, mapperSchema, check);
      this.mapper = mapper;
      this.writers = writers;
      this.partitionSource = new InternalRecordWrapper(schema.asStruct());
    }

    @Override
    Record map(ITuple tuple) {
      return checkNotNull(mapper.map(tuple, mapperSchema), mapper);
    }

    @Override
    StructLike asStruct(Record row) {
      return row;
    }

    @Override
    StructLike partitionSource(Record row) {
      return partitionSource.wrap(row);
    }

    @Override
    FileWriterFactory<Record> writers() {
      return writers;
    }

  }

  private static final class InternalRows extends BatchRows<InternalRow> {
    private final InternalRowMapper mapper;
    private final FileWriterFactory<InternalRow> writers;

    InternalRows(InternalRowMapper mapper, FileWriterFactory<InternalRow> writers, Schema schema, Schema mapperSchema,
        RowCheck check) {
      super(schema, mapperSchema, check);
      this.mapper = mapper;
      this.writers = writers;
    }

    @Override
    InternalRow map(ITuple tuple) {
      return checkNotNull(mapper.mapInternal(tuple, mapperSchema), mapper);
    }

    @Override
    StructLike asStruct(InternalRow row) {
      return row;
    }

    @Override
    StructLike partitionSource(InternalRow row) {
      return row;
    }

    @Override
    FileWriterFactory<InternalRow> writers() {
      return writers;
    }

  }

  /**
   * Row-level changes: each tuple's operation and sequence number with its row, collapsed by key
   * ({@link CollapsedChanges}). A change that removes its key's row needs only the key columns: the
   * mapper maps it against the key alone, and the table's other columns stay null.
   *
   * @param <R> the row type: internal rows when the mapper and the format both have them, as in append mode
   */
  private static final class ChangeRecords<R extends StructLike> extends BatchRows<ChangeRow<R>> {
    private final RowModel<R> model;
    /** The mapper, building rows of the model's type. */
    private final BiFunction<ITuple, Schema, R> mapping;
    private final RecordMapper mapper;
    private final RowChanges sink;
    private final FileWriterFactory<R> writers;
    private final Schema keyMapperSchema;
    private final UnaryOperator<StructLike> partitionSource;
    private final Supplier<R> emptyRows;
    private final List<String> keyNames;
    /** Each key column's position in a row: key columns are top-level columns of the schema. */
    private final int[] keyPositions;
    /** Where each column of {@link #keyMapperSchema} sits in a row of the schema. */
    private final int[] removedKeyPositions;
    /** Where each column of {@link #keyMapperSchema} sits in a row the mapper maps whole. */
    private final int[] removedKeyPositionsWhole;
    /** Whether the mapper's rows are new on every call, so the batch keeps them without a copy. */
    private final boolean newRecords;
    private final FileFormatWriter format;
    private final boolean deletionVectors;
    /** How a batch that streams on format version 2 groups its position deletes into files. */
    private final DeleteGranularity granularity;

    ChangeRecords(RowModel<R> model, BiFunction<ITuple, Schema, R> mapping, RecordMapper mapper, FileWriterFactory<R> writers,
        RowChanges sink, FileFormatWriter format, Table table, Schema schema, Schema mapperSchema, RowCheck check) {
      super(schema, mapperSchema, check);
      this.model = model;
      this.mapping = mapping;
      this.mapper = mapper;
      this.sink = sink;
      this.writers = writers;
      // The key columns with their former names: a delete may still carry a renamed key column under its old name.
      this.keyMapperSchema = sink.key().mapperSchema(mapperSchema, table.schemas().values());
      this.partitionSource = model.internalView(schema);
      this.emptyRows = model.emptyRows(schema);
      this.keyNames = Arrays.stream(sink.key().fieldIds()).mapToObj(schema::findColumnName).toList();
      this.keyPositions = positionsIn(schema, sink.key().fieldIds());
      int[] removedKeyIds = keyMapperSchema.columns().stream().mapToInt(Types.NestedField::fieldId).toArray();
      this.removedKeyPositions = positionsIn(schema, removedKeyIds);
      this.removedKeyPositionsWhole = positionsIn(mapperSchema, removedKeyIds);
      this.newRecords = mapper.returnsNewRecords();
      this.format = format;
      // Format version 3 refuses position-delete files: a row the batch replaced is marked in a deletion vector.
      this.deletionVectors = TableUtil.formatVersion(table) >= 3;
      this.granularity = DeleteGranularity.fromString(PropertyUtil.propertyAsString(table.properties(),
          TableProperties.DELETE_GRANULARITY, TableProperties.DELETE_GRANULARITY_DEFAULT));
    }

    /** Each of the top-level columns {@code fieldIds}' position among {@code schema}'s columns. */
    private static int[] positionsIn(Schema schema, int[] fieldIds) {
      List<Integer> ids = schema.columns().stream().map(Types.NestedField::fieldId).toList();
      return Arrays.stream(fieldIds).map(ids::indexOf).toArray();
    }

    @Override
    ChangeRow<R> map(ITuple tuple) {
      ChangeOp op = sink.fields().operation(tuple);
      Long sequence = sink.fields().sequence(tuple);
      R row;
      if (op.removes()) {
        boolean whole = sink.removalsReadWhole();
        R key = checkNotNull(mapping.apply(tuple, whole ? mapperSchema : keyMapperSchema), mapper);
        int[] from = whole ? removedKeyPositionsWhole : null;
        row = emptyRows.get();
        for (int i = 0; i < removedKeyPositions.length; i++) {
          row.set(removedKeyPositions[i], key.get(from == null ? i : from[i], Object.class));
        }
      } else {
        R mapped = checkNotNull(mapping.apply(tuple, mapperSchema), mapper);
        row = newRecords ? mapped : RowModel.fill(emptyRows.get(), mapped); // the batch holds the row until it seals
      }
      for (int i = 0; i < keyPositions.length; i++) {
        if (row.get(keyPositions[i], Object.class) == null) {
          throw new IllegalArgumentException("key column " + keyNames.get(i) + " is null: a change must name its row's key");
        }
      }
      return new ChangeRow<>(op, sequence, row);
    }

    @Override
    void verify(ChangeRow<R> row) {
      if (!row.op().removes()) {
        check.verify(row.row());
      }
    }

    @Override
    StructLike asStruct(ChangeRow<R> row) {
      return row.row();
    }

    @Override
    StructLike partitionSource(ChangeRow<R> row) {
      return partitionSource.apply(row.row());
    }

    @Override
    FileWriterFactory<ChangeRow<R>> writers() {
      throw new IllegalStateException("row-level changes are written at the seal, not as they arrive");
    }

    @Override
    BatchFiles<ChangeRow<R>> files(OutputFileFactory fileFactory, Supplier<OutputFileFactory> dvFiles, FileIO io, long targetFileSize) {
      return new CollapsedChanges<>(sink.newBatch(schema, model), writers, fileFactory, io, targetFileSize, sink.maxHeldKeys(),
          spec -> new DeltaChanges<>(spec, format.format(), writers, model, fileFactory, deletionVectors ? dvFiles.get() : null,
              io, targetFileSize, schema, sink.key().schemaIn(schema), granularity));
    }
  }

  private static final class ManyRecords extends GenericRecords {
    private final MultiRecordMapper many;

    ManyRecords(MultiRecordMapper many, FileWriterFactory<Record> writers, Schema schema, Schema mapperSchema, RowCheck check) {
      super(null, writers, schema, mapperSchema, check);
      this.many = many;
    }

    @Override
    Record map(ITuple tuple) {
      throw new IllegalStateException("this batch maps many rows a tuple");
    }

    @Override
    boolean manyRecords() {
      return true;
    }

    @Override
    List<Record> mapAll(ITuple tuple) {
      List<Record> records = checkNotNull(many.mapAll(tuple, mapperSchema), many);
      for (Record record : records) {
        checkNotNull(record, many);
      }
      return records;
    }
  }
}
