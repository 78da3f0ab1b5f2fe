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
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.storm.iceberg.spi.InternalRowMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMapperFactory;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.tuple.ITuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every record mapper must do ({@link RecordMapper}'s contract), against a real table whose
 * schema changes from outside. Each mapper's test names the provider and says how a tuple carrying
 * given column values looks to it.
 */
public abstract class RecordMapperContractTest extends ProviderContractTest<RecordMapper, RecordMapperFactory> {
  protected static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "happened_at", Types.TimestampType.withZone()),
      Types.NestedField.optional(4, "day", Types.DateType.get()),
      Types.NestedField.optional(5, "score", Types.DoubleType.get()));

  private static final OffsetDateTime HAPPENED_AT = OffsetDateTime.of(2026, 11, 1, 10, 0, 0, 123_000_000, ZoneOffset.UTC);
  private static final LocalDate DAY = LocalDate.of(2026, 11, 1);

  protected Table table;

  @Override
  protected final Class<RecordMapperFactory> kind() {
    return RecordMapperFactory.class;
  }

  /**
   * A tuple that carries {@code values} (column name to value, in Iceberg's generic representation:
   * {@code OffsetDateTime} for timestamptz, {@code LocalDate} for date) the way this mapper reads
   * them; a name absent from the map is absent from the tuple.
   */
  protected abstract ITuple tupleOf(Map<String, Object> values);

  /** Whether the mapper finds values by name, and so must find them under former names too. */
  protected boolean findsValuesByName() {
    return true;
  }

  @BeforeEach
  void createTable() {
    table = new ContractTables(dir).create("events", SCHEMA);
  }

  /** The schema the sink hands a mapper: the table's, with its columns' former names. */
  protected Schema mapperSchema() {
    table.refresh();
    return FormerNamesSchema.of(table.schema(), table.schemas().values());
  }

  private static Map<String, Object> event(long id) {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("id", id);
    values.put("name", "event-" + id);
    values.put("happened_at", HAPPENED_AT);
    values.put("day", DAY);
    values.put("score", 0.5);
    return values;
  }

  @Test
  public void aTupleBecomesARecordOfTheTableSchemaWithItsValues() {
    Schema schema = mapperSchema();
    Record record = create().map(tupleOf(event(7)), schema);
    assertThat(record.struct()).isEqualTo(schema.asStruct());
    assertThat(record.getField("id")).isEqualTo(7L);
    assertThat(record.getField("name")).isEqualTo("event-7");
    assertThat(record.getField("happened_at")).isEqualTo(HAPPENED_AT);
    assertThat(record.getField("day")).isEqualTo(DAY);
    assertThat(record.getField("score")).isEqualTo(0.5);
  }

  @Test
  public void aNullOptionalValueIsANullColumn() {
    Map<String, Object> values = event(7);
    values.put("name", null);
    Record record = create().map(tupleOf(values), mapperSchema());
    assertThat(record.getField("name")).isNull();
    assertThat(record.getField("id")).isEqualTo(7L);
  }

  @Test
  public void aTupleWithoutARequiredValueFailsNamingTheColumn() {
    Map<String, Object> values = event(7);
    values.remove("id");
    assertThatThrownBy(() -> create().map(tupleOf(values), mapperSchema()))
        .isInstanceOf(RecordMappingException.class)
        .satisfies(e -> assertThat(((RecordMappingException) e).columnPath()).isEqualTo("id"));
  }

  @Test
  public void aColumnAddedFromOutsideIsMappedByTheSameMapper() {
    RecordMapper mapper = create();
    mapper.map(tupleOf(event(1)), mapperSchema());
    table.updateSchema().addColumn("region", Types.StringType.get()).commit();

    Schema evolved = mapperSchema();
    Record without = mapper.map(tupleOf(event(2)), evolved);
    assertThat(without.struct()).isEqualTo(evolved.asStruct());
    assertThat(without.getField("region")).isNull();
    assertThat(without.getField("id")).isEqualTo(2L);

    Map<String, Object> withRegion = event(3);
    withRegion.put("region", "eu");
    assertThat(mapper.map(tupleOf(withRegion), evolved).getField("region")).isEqualTo("eu");
  }

  @Test
  public void aValueUnderAFormerNameFillsTheRenamedColumn() {
    assumeTrue(findsValuesByName(), "the mapper does not find values by name");
    RecordMapper mapper = create();
    table.updateSchema().renameColumn("name", "full_name").commit();
    Record record = mapper.map(tupleOf(event(4)), mapperSchema());
    assertThat(record.getField("full_name")).isEqualTo("event-4");
  }

  @Test
  public void theMapperMapsTheSameAfterTravellingInATopology() {
    Schema schema = mapperSchema();
    RecordMapper mapper = create();
    mapper.map(tupleOf(event(1)), schema);
    Record record = serializedAndBack(mapper).map(tupleOf(event(5)), schema);
    assertThat(record.getField("id")).isEqualTo(5L);
    assertThat(record.getField("happened_at")).isEqualTo(HAPPENED_AT);
  }

  @Test
  public void anInternalRowMapperDescribesTheSameRowsAndRefusesTheSameTuples() {
    RecordMapper mapper = create();
    assumeTrue(mapper instanceof InternalRowMapper, "the mapper builds no internal rows");
    InternalRowMapper internal = (InternalRowMapper) mapper;
    Schema schema = mapperSchema();
    InternalRow row = internal.mapInternal(tupleOf(event(6)), schema);
    assertThat(row.size()).isEqualTo(schema.columns().size());
    assertThat(row.get(0, Long.class)).isEqualTo(6L);
    assertThat(row.get(1, CharSequence.class).toString()).isEqualTo("event-6");
    assertThat(row.get(2, Long.class)).isEqualTo(ChronoUnit.MICROS.between(OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC), HAPPENED_AT));
    assertThat(row.get(3, Integer.class)).isEqualTo((int) DAY.toEpochDay());
    assertThat(row.get(4, Double.class)).isEqualTo(0.5);

    Map<String, Object> values = event(7);
    values.remove("id");
    assertThatThrownBy(() -> internal.mapInternal(tupleOf(values), schema))
        .isInstanceOf(RecordMappingException.class)
        .satisfies(e -> assertThat(((RecordMappingException) e).columnPath()).isEqualTo("id"));
  }
}
