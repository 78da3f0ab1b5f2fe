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

package org.apache.storm.iceberg.kernel.evolve;

import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.util.Tasks;
import org.apache.storm.iceberg.kernel.options.OptionsChecks;
import org.apache.storm.iceberg.spi.FieldMatchingMapper;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.iceberg.spi.SchemaEvolvingMapper;
import org.apache.storm.iceberg.spi.UnfitValuesException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes a table's schema to hold a tuple's unfit values ({@link UnfitValuesException}): adds an
 * optional column for a field with none, a field to a struct for a new map key, and widens a column
 * where Iceberg allows it, through Iceberg's {@code UpdateSchema.unionByNameWith}, in a commit of its
 * own. Anything else is a {@link RecordMappingException} naming the column, and the table is left as
 * it was.
 *
 * <p>Assumes several tasks (of this sink and others) may meet the same new field at once. Iceberg
 * does not retry a schema commit: one that lost a race to any other commit fails. So each attempt
 * refreshes the table and works out the change again against what is there now: a task that finds
 * the column already added has nothing to commit and uses it. A commit whose outcome is ambiguous
 * (no answer, {@code CommitStateUnknownException}) is settled the same way, by reading the schema on
 * the next attempt. Attempts and backoff follow the table's {@code commit.retry.*} properties.
 */
public final class SchemaEvolver {
  private static final Logger LOG = LoggerFactory.getLogger(SchemaEvolver.class);

  private final Table table;

  private SchemaEvolver(Table table) {
    this.table = table;
  }

  /**
   * An evolver for {@code table}, having asked {@code mapper} to report the values the schema has no
   * room for, but those of the tuple fields {@code notColumns} (a row-level change's operation and
   * sequence fields), or refused a mapper that cannot, naming the fix. A field with no column is no
   * longer data going nowhere, so a {@link FieldMatchingMapper}'s unmatched fields are not reported:
   * only null values of them are left unwritten.
   */
  public static SchemaEvolver enable(Table table, RecordMapper mapper, java.util.Set<String> notColumns) {
    OptionsChecks.requireEvolvingMapper(mapper);
    ((SchemaEvolvingMapper) mapper).reportUnfitValues(notColumns);
    if (mapper instanceof FieldMatchingMapper matching) {
      matching.onUnmatchedFields((schema, fields) -> { });
    }
    return new SchemaEvolver(table);
  }

  /**
   * Whether the table's current schema (as loaded: the caller refreshes) must change for these
   * values, without committing anything.
   *
   * @throws RecordMappingException when no change can hold them: a type conflict, a value whose type
   *     cannot be inferred, or values that need no change yet still did not fit (the mapper's own
   *     refusal, when it gave one)
   */
  public void check(UnfitValuesException unfit) {
    if (change(unfit.values()) == null) {
      throw unfit.refusal() != null ? unfit.refusal() : new RecordMappingException(unfit.columnPath(),
          "tuple fields " + unfit.values().keySet() + " have no column and their values (empty, or null inside)"
              + " say nothing of their type, so schema evolution cannot add them: send null, or add the columns from outside");
    }
  }

  /**
   * Refreshes the table and commits the change the values need, alone, retrying as the class says;
   * returns once the table's schema holds them (committed by this task or another).
   *
   * @throws RecordMappingException when the schema, as it now is, cannot change to hold them
   */
  public void evolve(Map<String, Object> values) {
    Map<String, String> props = table.properties();
    Tasks.foreach(table)
        .retry(PropertyUtil.propertyAsInt(props, TableProperties.COMMIT_NUM_RETRIES, TableProperties.COMMIT_NUM_RETRIES_DEFAULT))
        .exponentialBackoff(
            PropertyUtil.propertyAsInt(props, TableProperties.COMMIT_MIN_RETRY_WAIT_MS, TableProperties.COMMIT_MIN_RETRY_WAIT_MS_DEFAULT),
            PropertyUtil.propertyAsInt(props, TableProperties.COMMIT_MAX_RETRY_WAIT_MS, TableProperties.COMMIT_MAX_RETRY_WAIT_MS_DEFAULT),
            PropertyUtil.propertyAsInt(props, TableProperties.COMMIT_TOTAL_RETRY_TIME_MS, TableProperties.COMMIT_TOTAL_RETRY_TIME_MS_DEFAULT),
            2.0)
        .stopRetryOn(RecordMappingException.class, NoSuchTableException.class)
        .throwFailureWhenFinished()
        .run(t -> attempt(values));
  }

  /** One attempt: read the schema as it is now, and commit what it still lacks. */
  private void attempt(Map<String, Object> values) {
    table.refresh();
    UpdateSchema update = change(values);
    if (update == null) {
      return;
    }
    Schema before = table.schema();
    Schema after = update.apply();
    update.commit();
    LOG.info("Schema of {} evolved for tuple fields {}: schema {} -> {}", table.name(), values.keySet(), before.asStruct(),
        after.asStruct());
  }

  /** The update holding the values against the loaded schema, or null when it needs none. */
  private UpdateSchema change(Map<String, Object> values) {
    Schema current = table.schema();
    Schema wanted = WantedSchema.of(FormerNamesSchema.of(current, table.schemas().values()), values);
    if (wanted.columns().isEmpty()) {
      return null;
    }
    UpdateSchema update;
    Schema applied;
    try {
      update = table.updateSchema().unionByNameWith(wanted);
      applied = update.apply();
    } catch (IllegalArgumentException e) {
      // WantedSchema refuses the conflicts it knows; this is Iceberg refusing one it does not.
      throw new RecordMappingException(values.keySet().iterator().next(), "schema evolution cannot make room for tuple"
          + " fields " + values.keySet() + ": " + e.getMessage(), e);
    }
    return applied.sameSchema(current) ? null : update;
  }
}
