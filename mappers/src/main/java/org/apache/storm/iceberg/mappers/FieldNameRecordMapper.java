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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.mappers.IcebergValues.Conversion;
import org.apache.storm.iceberg.spi.FieldMatchingMapper;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.storm.iceberg.spi.InternalRowMapper;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.iceberg.spi.SchemaEvolvingMapper;
import org.apache.storm.iceberg.spi.UnfitValuesException;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.ITuple;

/**
 * The default mapper ({@code "field-name"}): each top-level column takes the tuple field of the same
 * name (optionally ignoring case), converted by {@link IcebergValues}. A column renamed from outside
 * takes, when no field carries its current name, a field that carries one of its former names
 * ({@link FormerNamesSchema}); a current name always wins. A column with no tuple field, or a null
 * value, becomes null when the column is optional and is an error when it is required. A tuple field
 * with no current or former column is ignored (and reported to the kernel, which counts and logs
 * it: see {@link FieldMatchingMapper}), or is an error in strict mode.
 *
 * <p>It supports schema evolution ({@link SchemaEvolvingMapper}): once asked to report them, it
 * throws {@link UnfitValuesException} with every non-null tuple field that has no column, every
 * {@code Map} value with a key its struct column lacks (in structs within structs too), and the
 * value of a column whose conversion failed.
 *
 * <p>Each column's conversions are built once per schema (id, columns and former names), by
 * visiting the column's type ({@link IcebergValues#conversion(org.apache.iceberg.types.Type, String,
 * Map)}), and columns are resolved to tuple field indexes once per schema and tuple field layout,
 * not by name on every tuple; a new schema (a column added to the table) is resolved again.
 * Every call returns a new record or row.
 */
public class FieldNameRecordMapper implements InternalRowMapper, FieldMatchingMapper, SchemaEvolvingMapper {
  private static final long serialVersionUID = 1L;

  private final boolean caseInsensitive;
  private final boolean strict;
  private transient Schema resolvedSchema;
  private transient SchemaColumns columns;
  private transient Map<Fields, Resolution> resolutions;
  private transient Fields lastFields;
  private transient Resolution lastResolution;
  private transient UnmatchedFields unmatchedListener;
  private transient boolean reportUnfit;
  private transient java.util.Set<String> notColumns;

  /** Matches names exactly and ignores tuple fields with no column. */
  public FieldNameRecordMapper() {
    this(false, false);
  }

  /**
   * @param caseInsensitive match column names to tuple field names ignoring case
   * @param strict a tuple field with no column is an error instead of being ignored
   */
  public FieldNameRecordMapper(boolean caseInsensitive, boolean strict) {
    this.caseInsensitive = caseInsensitive;
    this.strict = strict;
  }

  @Override
  public Record map(ITuple tuple, Schema schema) {
    Resolution resolution = resolve(schema, tuple.getFields());
    Record record = resolution.columns.emptyRecord.copy();
    fillOrReport(record, resolution, resolution.columns.toGeneric, resolution.columns.genericDefaults, tuple);
    return record;
  }

  /**
   * Each call copies the schema's empty record (or builds a new internal row). A subclass that
   * overrides {@link #map} or {@link #mapInternal} to return one object more than once must override
   * this to return false.
   */
  @Override
  public boolean returnsNewRecords() {
    return true;
  }

  @Override
  public InternalRow mapInternal(ITuple tuple, Schema schema) {
    Resolution resolution = resolve(schema, tuple.getFields());
    InternalRow row = new InternalRow(resolution.fieldIndexOfColumn.length);
    fillOrReport(row, resolution, resolution.columns.toInternal, resolution.columns.internalDefaults, tuple);
    return row;
  }

  @Override
  public void onUnmatchedFields(UnmatchedFields listener) {
    this.unmatchedListener = listener;
  }

  @Override
  public void reportUnfitValues() {
    reportUnfitValues(java.util.Set.of());
  }

  @Override
  public void reportUnfitValues(java.util.Set<String> notColumns) {
    this.reportUnfit = true;
    this.notColumns = java.util.Set.copyOf(notColumns);
  }

  /** {@link #fill}, and when asked to, reports the values the schema has no room for. */
  private void fillOrReport(StructLike target, Resolution resolution, Conversion[] conversions, Object[] defaults, ITuple tuple) {
    if (!reportUnfit) {
      fill(target, resolution, conversions, defaults, tuple);
      return;
    }
    Map<String, Object> unfit = newValues(resolution, tuple, notColumns);
    try {
      fill(target, resolution, conversions, defaults, tuple);
    } catch (RecordMappingException e) {
      int pos = resolution.columnOf(e.columnPath());
      Object value = pos < 0 || resolution.fieldIndexOfColumn[pos] < 0 ? null : tuple.getValue(resolution.fieldIndexOfColumn[pos]);
      if (value != null) {
        unfit.putIfAbsent(resolution.columns.columns[pos].name(), value);
      }
      if (unfit.isEmpty()) {
        throw e;
      }
      throw new UnfitValuesException(unfit, e);
    }
    if (!unfit.isEmpty()) {
      throw new UnfitValuesException(unfit, null);
    }
  }

  /**
   * The non-null fields with no column (but those in {@code notColumns}), and the struct columns' map
   * values holding a new key.
   */
  private static Map<String, Object> newValues(Resolution resolution, ITuple tuple, java.util.Set<String> notColumns) {
    Map<String, Object> unfit = new LinkedHashMap<>();
    for (int i = 0; i < resolution.unmatchedIndexes.length; i++) {
      Object value = tuple.getValue(resolution.unmatchedIndexes[i]);
      if (value != null && !notColumns.contains(resolution.unmatchedFields.get(i))) {
        unfit.put(resolution.unmatchedFields.get(i), value);
      }
    }
    Types.NestedField[] columns = resolution.columns.columns;
    for (int pos = 0; pos < columns.length; pos++) {
      int fieldIndex = resolution.fieldIndexOfColumn[pos];
      if (fieldIndex >= 0 && NewStructKeys.looksInto(columns[pos].type())
          && tuple.getValue(fieldIndex) instanceof Map<?, ?> map
          && NewStructKeys.in(columns[pos].type().asStructType(), map,
              FormerNamesSchema.formerNamesById(resolution.columns.schema))) {
        unfit.put(columns[pos].name(), map);
      }
    }
    return unfit;
  }

  /** Sets every field of a new record or row from the tuple, or from its column's write default when the tuple lacks the field. */
  private static void fill(StructLike target, Resolution resolution, Conversion[] conversions, Object[] defaults, ITuple tuple) {
    if (resolution.strictRefusal != null) {
      throw new RecordMappingException(
          resolution.strictRefusal,
          "tuple field '" + resolution.strictRefusal + "' matches no column, and the mapper is strict");
    }
    Types.NestedField[] columns = resolution.columns.columns;
    Class<?>[] keptAsIs = resolution.columns.keptAsIs;
    for (int pos = 0; pos < columns.length; pos++) {
      int fieldIndex = resolution.fieldIndexOfColumn[pos];
      Object value = fieldIndex < 0 ? null : tuple.getValue(fieldIndex);
      if (value != null) {
        target.set(pos, value.getClass() == keptAsIs[pos] ? value : conversions[pos].apply(value));
      } else if (fieldIndex < 0 && defaults[pos] != null) {
        target.set(pos, defaults[pos]);
      } else if (columns[pos].isRequired()) {
        Types.NestedField column = columns[pos];
        throw new RecordMappingException(
            column.name(), "required column '" + column.name() + "' (" + column.type() + ") has no value");
      }
    }
  }

  /** Column-to-field indexes for this schema and field layout, computed on first sight. */
  private Resolution resolve(Schema schema, Fields fields) {
    if (schema != resolvedSchema) {
      // Each table refresh that reads new metadata parses a new Schema object; only a different
      // schema (another id, other columns, or other former names) needs the columns built again.
      if (resolvedSchema == null || !SchemaColumns.same(schema, resolvedSchema)) {
        columns = new SchemaColumns(schema);
        resolutions = new HashMap<>();
        lastFields = null;
      }
      resolvedSchema = schema;
    }
    // A bolt stream's tuples share one Fields object, so a run of them costs one comparison. Trident
    // builds a new Fields for every getFields() call: layouts are told apart by their names, never
    // by identity, or the map would grow with every tuple.
    if (fields != lastFields && !fields.equals(lastFields)) {
      Resolution resolution = resolutions.get(fields);
      if (resolution == null) {
        resolution = Resolution.of(columns, fields, caseInsensitive, strict);
        resolutions.put(fields, resolution);
        if (unmatchedListener != null && !resolution.unmatchedFields.isEmpty()) {
          unmatchedListener.found(schema, resolution.unmatchedFields);
        }
      }
      lastResolution = resolution;
      lastFields = fields;
    }
    return lastResolution;
  }

  /**
   * Where each column's value is in a tuple of one field layout, and the fields that match no column
   * (the first of which strict mode refuses): laid out once per layout and schema, not per tuple.
   */
  private static final class Resolution {
    final SchemaColumns columns;
    final int[] fieldIndexOfColumn;
    final List<String> unmatchedFields;
    final int[] unmatchedIndexes;
    final String strictRefusal;

    private Resolution(
        SchemaColumns columns, int[] fieldIndexOfColumn, List<String> unmatchedFields, int[] unmatchedIndexes,
        boolean strict) {
      this.columns = columns;
      this.fieldIndexOfColumn = fieldIndexOfColumn;
      this.unmatchedFields = List.copyOf(unmatchedFields);
      this.unmatchedIndexes = unmatchedIndexes;
      this.strictRefusal = strict && !unmatchedFields.isEmpty() ? unmatchedFields.get(0) : null;
    }

    static Resolution of(SchemaColumns columnsOfSchema, Fields fields, boolean caseInsensitive, boolean strict) {
      Schema schema = columnsOfSchema.schema;
      List<String> fieldNames = new ArrayList<>(fields.toList());
      List<Types.NestedField> columns = schema.columns();
      int[] indexes = new int[columns.size()];
      boolean[] used = new boolean[fieldNames.size()];
      for (int pos = 0; pos < columns.size(); pos++) {
        indexes[pos] = indexOf(fieldNames, columns.get(pos).name(), caseInsensitive);
        if (indexes[pos] >= 0) {
          used[indexes[pos]] = true;
        }
      }
      matchFormerNames(schema, fieldNames, caseInsensitive, indexes, used);
      List<String> unmatched = new ArrayList<>();
      List<Integer> unmatchedIndexes = new ArrayList<>();
      for (int i = 0; i < used.length; i++) {
        if (!used[i]) {
          unmatched.add(fieldNames.get(i));
          unmatchedIndexes.add(i);
        }
      }
      return new Resolution(columnsOfSchema, indexes, unmatched,
          unmatchedIndexes.stream().mapToInt(Integer::intValue).toArray(), strict);
    }

    /** The position of the column a dotted path starts with, or -1. */
    int columnOf(String path) {
      Types.NestedField[] all = columns.columns;
      for (int pos = 0; pos < all.length; pos++) {
        if (path != null && (path.equals(all[pos].name()) || path.startsWith(all[pos].name() + "."))) {
          return pos;
        }
      }
      return -1;
    }

    /**
     * Gives each column that no field matched by its current name the field that carries its most
     * recent former name. A field that carries a former name of a column its current name already
     * filled is matched too, and left unread: the current name wins.
     */
    private static void matchFormerNames(
        Schema schema, List<String> fieldNames, boolean caseInsensitive, int[] indexes, boolean[] used) {
      Map<Integer, List<String>> formerNames = FormerNamesSchema.formerNamesById(schema);
      if (formerNames.isEmpty()) {
        return;
      }
      List<Types.NestedField> columns = schema.columns();
      for (int pos = 0; pos < columns.size(); pos++) {
        for (String formerName : formerNames.getOrDefault(columns.get(pos).fieldId(), List.of())) {
          int index = indexOf(fieldNames, formerName, caseInsensitive);
          if (index >= 0 && !used[index]) {
            used[index] = true;
            if (indexes[pos] < 0) {
              indexes[pos] = index;
            }
          }
        }
      }
    }

    private static int indexOf(List<String> fieldNames, String column, boolean caseInsensitive) {
      if (!caseInsensitive) {
        return fieldNames.indexOf(column);
      }
      String wanted = column.toLowerCase(Locale.ROOT);
      for (int i = 0; i < fieldNames.size(); i++) {
        if (fieldNames.get(i).toLowerCase(Locale.ROOT).equals(wanted)) {
          return i;
        }
      }
      return -1;
    }
  }
}
