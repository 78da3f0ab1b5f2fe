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

package org.apache.storm.iceberg.kernel.options;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.kernel.options.SinkSettings.AutoCreate;
import org.apache.storm.iceberg.kernel.options.SinkSettings.RowLevel;
import org.apache.storm.trident.state.StateType;

/**
 * The checks of the row-level write modes that need no table: what each mode needs, what it cannot
 * be combined with, and the key of a table the sink creates, which becomes its identifier fields.
 * The table's own key is checked when a task opens it.
 */
final class RowLevelChecks {
  private RowLevelChecks() {}

  /** @throws IllegalArgumentException naming the option to set or remove */
  static void check(SinkSettings settings) {
    RowLevel rowLevel = settings.rowLevel();
    if (!rowLevel.byKey()) {
      if (!rowLevel.keyColumns().isEmpty() || rowLevel.operationField() != null || rowLevel.sequenceField() != null
          || rowLevel.orderWaitMillis() > 0 || rowLevel.maxHeldKeys() != RowLevel.DEFAULT_MAX_HELD_KEYS) {
        throw new IllegalArgumentException("withKeyColumns, withChangeFields, withChangeOrderWaitMillis and withMaxHeldChangeKeys"
            + " apply to the row-level write modes;"
            + " set withWriteMode(WriteMode.UPSERT) or withWriteMode(WriteMode.CHANGELOG), or remove them");
      }
      return;
    }
    String mode = rowLevel.mode().name().toLowerCase(java.util.Locale.ROOT);
    if (rowLevel.mode() == RowLevel.Mode.CHANGELOG && (rowLevel.operationField() == null || rowLevel.sequenceField() == null)) {
      throw new IllegalArgumentException("write mode changelog reads each tuple's operation and sequence number: set"
          + " withChangeFields(operationField, sequenceField), such as withChangeFields(\"op\", \"source.lsn\")");
    }
    if (settings.sourcePositions() == null && settings.trident().stateType() == StateType.NON_TRANSACTIONAL) {
      throw new IllegalArgumentException("write mode " + mode + " needs a deterministic source identity, or a replayed"
          + " change could undo a newer one: set withSourcePositions(\"kafka\", ...) for IcebergBolt or the split sink, or use a"
          + " transactional or opaque Trident state (withTridentStateType)");
    }
    refuse(settings.thresholds().bytes() > 0, mode, "withCommitIntervalBytes",
        "a batch holds each key's final row until it seals, so its bytes are not known as it fills; seal on records or time");
    refuse(settings.providers().multiRecordMapper() != null, mode, "withMultiRecordMapper", "each tuple must be one change");
  }

  private static void refuse(boolean set, String mode, String option, String why) {
    if (set) {
      throw new IllegalArgumentException("write mode " + mode + " cannot be combined with " + option + ": " + why);
    }
  }

  /**
   * The table the sink creates, with {@code keyColumns} as its identifier fields.
   *
   * @throws IllegalArgumentException for a key column the schema lacks, an optional one, or a
   *     partition source column outside the key, naming it
   */
  static AutoCreate keyed(AutoCreate autoCreate, RowLevel rowLevel) {
    if (autoCreate == null || !rowLevel.byKey()) {
      return autoCreate;
    }
    Schema schema = autoCreate.schema();
    if (rowLevel.keyColumns().isEmpty()) {
      if (schema.identifierFieldIds().isEmpty()) {
        throw new IllegalArgumentException("write mode " + rowLevel.mode().name().toLowerCase(java.util.Locale.ROOT)
            + " needs a key: set withKeyColumns(...) or identifier fields on the withAutoCreate schema");
      }
      return autoCreate;
    }
    Set<Integer> ids = new HashSet<>();
    for (String column : rowLevel.keyColumns()) {
      Types.NestedField field = schema.findField(column);
      if (field == null) {
        throw new IllegalArgumentException("withKeyColumns names " + column + ", which the withAutoCreate schema has no"
            + " column of; columns: " + schema.columns().stream().map(Types.NestedField::name).toList());
      }
      if (field.isOptional()) {
        throw new IllegalArgumentException("key column " + column + " is optional in the withAutoCreate schema: a key"
            + " column must be required");
      }
      ids.add(field.fieldId());
    }
    List<String> outside = new ArrayList<>();
    for (PartitionField partition : autoCreate.spec().fields()) {
      if (!ids.contains(partition.sourceId())) {
        outside.add(schema.findColumnName(partition.sourceId()));
      }
    }
    if (!outside.isEmpty()) {
      throw new IllegalArgumentException("the withAutoCreate spec partitions by " + String.join(", ", outside) + ", which is"
          + " not a key column: a row that moved partition could never be deleted from the old one; partition by key"
          + " columns only");
    }
    return new AutoCreate(new Schema(schema.columns(), ids), autoCreate.spec(), autoCreate.properties());
  }
}
