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

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionField;
import org.apache.storm.iceberg.spi.SecretReferences;
import org.apache.storm.iceberg.kernel.commit.SummaryKeys;
import org.apache.storm.iceberg.kernel.options.SinkSettings.AutoCreate;
import org.apache.storm.iceberg.spi.SchemaEvolvingMapper;
import org.apache.storm.trident.state.StateType;

/**
 * Every check of the options, run on the submitting client: a setter's argument when it is set
 * ({@link #requireNonNegative}, {@link #requirePositive}), the whole settings at {@code build()}
 * ({@link #checked}). Each throws {@link IllegalArgumentException} with a message that says which
 * builder method to change.
 */
public final class OptionsChecks {
  private OptionsChecks() {}

  /**
   * Checks the settings as a whole, including that every named provider is on {@code
   * Thread.currentThread().getContextClassLoader()} exactly once and accepts its properties.
   */
  public static SinkSettings checked(SinkSettings settings, List<String> allowedNamespaces) {
    SinkSettings.CatalogTarget target = settings.target();
    requireCatalog(target.catalogProperties());
    SecretReferences.validate(target.catalogProperties());
    SecretReferences.validate(target.hadoopConfiguration());
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    RoutingChecks.check(settings, loader, allowedNamespaces);
    RowLevelChecks.check(settings);
    if (settings.routing() == null) {
      requireTable(target.table());
    }
    requireAutoCreateSpecMatchesSchema(target.autoCreate());
    requireName(settings.commits().walNamespace(), "withWalNamespace");
    requireAbsolutePath(settings.spillDirectory(), "withSpillDirectory");
    requireName(target.catalogName(), "withCatalogName");
    requireStateName(settings.trident().stateName());
    settings.commits().snapshotProperties().keySet().forEach(OptionsChecks::requireUserSummaryKey);
    SinkSettings.Providers providers = settings.providers();
    providers.recordMapper().validate(loader);
    if (providers.multiRecordMapper() != null) {
      providers.multiRecordMapper().validate(loader);
      requireOneRecordPerTuple(!settings.schemaEvolution(), "withSchemaEvolution",
          "schema evolution adds columns from one tuple's fields, and a tuple carrying many records has no such fields");
    } else if (settings.schemaEvolution()) {
      requireEvolvingMapper(providers.recordMapper().resolve(loader));
    }
    providers.walStore().validate(loader);
    if (providers.fileFormat() != null) {
      providers.fileFormat().validate(loader);
    }
    providers.sealPolicies().forEach(choice -> choice.validate(loader));
    WritePropertiesChecks.check(providers.writeProperties(), providers.fileFormat(), loader);
    requireBranch(settings.commits().branch());
    if (settings.sourcePositions() != null) {
      settings.sourcePositions().extractor().validate(loader);
    }
    return settings;
  }

  /** Refuses a record mapper chosen beside a multi-record mapper: a tuple is mapped by one or the other. */
  public static void requireOneMapper(boolean recordMapperChosen, ProviderChoice<?> multiRecordMapper) {
    if (recordMapperChosen && multiRecordMapper != null) {
      throw new IllegalArgumentException("withRecordMapper and withMultiRecordMapper(" + multiRecordMapper + ") are both"
          + " set, but a tuple is mapped by one or the other: keep withMultiRecordMapper when a tuple carries many"
          + " records, withRecordMapper when it is one");
    }
  }

  /**
   * Refuses a feature that needs one record a tuple when the options map tuples with a multi-record
   * mapper.
   *
   * @param holds whether the feature is off
   * @param feature the option or class that turns it on, as the user wrote it
   * @param why why it needs one record a tuple
   */
  public static void requireOneRecordPerTuple(boolean holds, String feature, String why) {
    if (!holds) {
      throw new IllegalArgumentException(feature + " cannot be used with withMultiRecordMapper: " + why
          + ". Drop one of the two, or split the tuples into one record each upstream (a bolt that emits each record)");
    }
  }

  /** Schema evolution needs a mapper that reports the values the schema has no room for. */
  public static void requireEvolvingMapper(Object mapper) {
    if (!(mapper instanceof SchemaEvolvingMapper)) {
      throw new IllegalArgumentException("withSchemaEvolution needs a record mapper that reports tuple values with no"
          + " column (a SchemaEvolvingMapper, such as the default \"field-name\" mapper), but "
          + mapper.getClass().getName() + " does not: use the field-name mapper, or implement SchemaEvolvingMapper");
    }
  }

  /**
   * The dead-letter settings, or null when no stream is set; refuses a bound without a stream, a
   * stream id Storm reserves, and a bound that lets no tuple through.
   */
  public static SinkSettings.DeadLetters deadLetters(String streamId, double maxFraction, long perRecords) {
    boolean bounded = maxFraction < 1;
    if (streamId == null) {
      if (bounded) {
        throw new IllegalArgumentException(
            "withMaxDeadLetterFraction bounds a dead-letter stream, but none is set: add withDeadLetterStream(\"<stream id>\")");
      }
      return null;
    }
    if (streamId.isBlank() || streamId.startsWith("__")) {
      throw new IllegalArgumentException("withDeadLetterStream needs a stream id that is not blank and does not start with"
          + " '__' (Storm's system streams), got '" + streamId + "'");
    }
    if (bounded && Math.floor(maxFraction * perRecords) < 1) {
      throw new IllegalArgumentException("withMaxDeadLetterFraction(" + maxFraction + ", " + perRecords
          + ") lets no tuple of a window through (" + maxFraction + " x " + perRecords + " < 1): raise the fraction or the window");
    }
    return new SinkSettings.DeadLetters(streamId, maxFraction, perRecords);
  }

  /**
   * The commit-event stream id, or null for none; refuses a stream id Storm reserves, the default
   * stream (the writer bolt's descriptors go there) and the dead-letter stream's id.
   */
  public static String commitEvents(String streamId, String deadLetterStream) {
    if (streamId == null) {
      return null;
    }
    if (streamId.isBlank() || streamId.startsWith("__") || streamId.equals("default")) {
      throw new IllegalArgumentException("withCommitEvents needs a stream id of its own, not blank, not 'default' and not"
          + " starting with '__' (Storm's system streams), got '" + streamId + "': e.g. \"iceberg-commits\"");
    }
    if (streamId.equals(deadLetterStream)) {
      throw new IllegalArgumentException("withCommitEvents: stream '" + streamId + "' is also the dead-letter stream; give"
          + " the commit events a stream of their own, e.g. \"iceberg-commits\"");
    }
    return streamId;
  }

  /** A fraction of tuples: above 0, at most 1. */
  public static double requireFraction(double fraction, String setter) {
    if (!(fraction > 0 && fraction <= 1)) {
      throw new IllegalArgumentException(setter + " takes a fraction above 0 and at most 1 (0.01 for 1%), got " + fraction);
    }
    return fraction;
  }

  /** A Trident state type by name: {@code transactional}, {@code opaque} or {@code non-transactional}, in any case. */
  public static StateType requireStateType(String type) {
    try {
      return StateType.valueOf(type.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new IllegalArgumentException(
          "withTridentStateType takes transactional, opaque or non-transactional, got '" + type + "'");
    }
  }

  /** A Flux flag: {@code true} or {@code false}, nothing else. */
  public static boolean requireBoolean(String value, String key) {
    if ("true".equalsIgnoreCase(value.trim()) || "false".equalsIgnoreCase(value.trim())) {
      return Boolean.parseBoolean(value.trim());
    }
    throw new IllegalArgumentException(key + " must be true or false, got '" + value + "'");
  }

  public static long requireNonNegative(long value, String setter) {
    if (value < 0) {
      throw new IllegalArgumentException(setter + " must be 0 (off) or positive, got " + value);
    }
    return value;
  }

  public static long requirePositive(long value, String setter) {
    if (value <= 0) {
      throw new IllegalArgumentException(setter + " must be positive, got " + value);
    }
    return value;
  }

  private static void requireCatalog(Map<String, String> catalogProperties) {
    if (!catalogProperties.containsKey(CatalogUtil.ICEBERG_CATALOG_TYPE)
        && !catalogProperties.containsKey(CatalogProperties.CATALOG_IMPL)) {
      throw new IllegalArgumentException(
          "catalog properties name no catalog: set 'type' (hadoop, jdbc, rest, hive, glue, nessie)"
              + " or 'catalog-impl' in withCatalogProperties; got keys "
              + new TreeSet<>(catalogProperties.keySet()));
    }
  }

  private static void requireTable(String table) {
    if (table == null || table.isBlank()) {
      throw new IllegalArgumentException(
          "no table: set withTable(\"namespace.table\"), or withTableRouter to take each tuple's table from it");
    }
    for (String part : table.split("\\.", -1)) {
      if (part.isBlank()) {
        throw new IllegalArgumentException(
            "table name '" + table + "' has an empty part; use withTable(\"namespace.table\")");
      }
    }
  }

  private static void requireAutoCreateSpecMatchesSchema(AutoCreate autoCreate) {
    if (autoCreate == null) {
      return;
    }
    for (PartitionField field : autoCreate.spec().fields()) {
      if (autoCreate.schema().findField(field.sourceId()) == null) {
        throw new IllegalArgumentException(
            "auto-create partition field '" + field.name() + "' uses source column id " + field.sourceId()
                + ", which is not in the auto-create schema; build the spec with"
                + " PartitionSpec.builderFor(schema) from the same schema");
      }
    }
  }

  private static void requireName(String value, String setter) {
    if (value == null || value.isBlank() || value.contains("/")) {
      throw new IllegalArgumentException(setter + " needs a non-blank name without '/', got '" + value + "'");
    }
  }

  private static void requireBranch(String branch) {
    if (branch == null || branch.isBlank()) {
      throw new IllegalArgumentException(
          "withBranch needs a branch name (\"main\" for the table's main line), got '" + branch + "'");
    }
  }

  /** A Trident state name goes into commit ids, which use ':' and '/' as separators. */
  private static void requireStateName(String value) {
    if (value == null || !value.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException(
          "withTridentStateName needs a name of letters, digits, '.', '_' and '-', got '" + value + "'");
    }
  }

  /** Accepts null (the setter was not called) or an absolute path. */
  private static void requireAbsolutePath(String path, String setter) {
    if (path == null) {
      return;
    }
    if (path.isBlank() || !Path.of(path).isAbsolute()) {
      throw new IllegalArgumentException(
          setter + " needs an absolute path (a directory on every worker, such as /var/lib/storm/iceberg-spill), got '"
              + path + "'");
    }
  }

  private static void requireUserSummaryKey(String key) {
    if (key.startsWith(SummaryKeys.RESERVED_PREFIX)) {
      throw new IllegalArgumentException(
          "snapshot property '" + key + "' uses the reserved prefix '" + SummaryKeys.RESERVED_PREFIX
              + "'; choose another key for withSnapshotProperty");
    }
  }
}
