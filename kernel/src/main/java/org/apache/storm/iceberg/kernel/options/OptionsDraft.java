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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.iceberg.kernel.commit.CommitDeadline;
import org.apache.storm.iceberg.kernel.options.SinkSettings.AutoCreate;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.MultiRecordMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMapperFactory;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.iceberg.spi.SourcePositionExtractor;
import org.apache.storm.iceberg.spi.TableRouter;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;
import org.apache.storm.trident.state.StateType;

/**
 * What an {@code IcebergOptions.Builder} has been given so far, and the default of everything it has
 * not: mutable, and checked only argument by argument. {@link #settings()} checks the whole and
 * makes the immutable {@link SinkSettings}. The fields are public for that builder alone, which lives
 * in the public package; the defaults are published there as {@code IcebergOptions.DEFAULT_*}.
 */
public final class OptionsDraft {
  public static final String DEFAULT_CATALOG_NAME = "storm_iceberg";
  public static final long DEFAULT_COMMIT_INTERVAL_RECORDS = 1000;
  public static final long DEFAULT_ROUTED_COMMIT_INTERVAL_MILLIS = 10_000;
  /** The built-in seal policies that never read time; any other policy may seal a quiet batch. */
  private static final java.util.Set<String> UNTIMED_POLICIES = java.util.Set.of("records", "bytes", "open-files");
  public static final String DEFAULT_RECORD_MAPPER = "field-name";
  public static final String DEFAULT_WAL_STORE = "table-fileio";
  public static final String DEFAULT_WAL_NAMESPACE = "default";
  public static final long DEFAULT_COMMIT_DEADLINE_MARGIN_MILLIS = CommitDeadline.DEFAULT_MARGIN_MILLIS;
  public static final long DEFAULT_GROUP_COMMIT_INTERVAL_MILLIS = 10_000;
  public static final int DEFAULT_GROUP_COMMIT_MAX_DATA_FILES = 1_000;
  public static final String DEFAULT_TRIDENT_STATE_NAME = "trident";
  public static final String DEFAULT_BRANCH = org.apache.iceberg.SnapshotRef.MAIN_BRANCH;

  public String catalogName = DEFAULT_CATALOG_NAME;
  public Map<String, String> catalogProperties = Map.of();
  public Map<String, String> hadoopConfiguration = Map.of();
  public String table;
  /** Null for no auto-create. */
  public AutoCreate autoCreate;
  public SinkSettings.RowLevel.Mode writeMode = SinkSettings.RowLevel.Mode.APPEND;
  public List<String> keyColumns = List.of();
  public String changeOperationField;
  public String changeSequenceField;
  public long changeOrderWaitMillis;
  public int maxHeldChangeKeys = SinkSettings.RowLevel.DEFAULT_MAX_HELD_KEYS;
  public long commitIntervalRecords;
  public long commitIntervalBytes;
  public long commitIntervalMillis;
  public int tickIntervalSecs;
  public ProviderChoice<RecordMapper> recordMapper =
      ProviderChoice.named(RecordMapperFactory.class, DEFAULT_RECORD_MAPPER, Map.of());
  /** Whether a record mapper was chosen, rather than left at its default. */
  public boolean recordMapperChosen;
  /** Null for one record a tuple, mapped by {@link #recordMapper}. */
  public ProviderChoice<MultiRecordMapper> multiRecordMapper;
  /** Null to follow the table's {@code write.format.default}. */
  public ProviderChoice<FileFormatWriter> fileFormat;
  public ProviderChoice<WalStore> walStore = ProviderChoice.named(WalStoreFactory.class, DEFAULT_WAL_STORE, Map.of());
  public final List<ProviderChoice<SealPolicy>> sealPolicies = new ArrayList<>();
  public String walNamespace = DEFAULT_WAL_NAMESPACE;
  public final Map<String, String> snapshotProperties = new LinkedHashMap<>();
  public int commitRetries = SinkSettings.Commits.DEFAULT_RETRIES;
  public long commitRetryBackoffMillis = SinkSettings.Commits.DEFAULT_RETRY_BACKOFF_MILLIS;
  /** Unset ({@link CommitDeadline#SCALED_MARGIN}): the smaller of the default and a quarter of the timeout. */
  public long commitDeadlineMarginMillis = CommitDeadline.SCALED_MARGIN;
  public long groupCommitIntervalMillis = DEFAULT_GROUP_COMMIT_INTERVAL_MILLIS;
  public int groupCommitMaxDataFiles = DEFAULT_GROUP_COMMIT_MAX_DATA_FILES;
  /** Null for the worker's {@code java.io.tmpdir}. */
  public String spillDirectory;
  public String tridentStateName = DEFAULT_TRIDENT_STATE_NAME;
  public StateType tridentStateType = StateType.OPAQUE;
  /** Null for a sink without source positions. */
  public ProviderChoice<SourcePositionExtractor> sourcePositions;
  public boolean sourceResetAccepted;
  public final Map<String, String> writeProperties = new LinkedHashMap<>();
  public String branch = DEFAULT_BRANCH;
  public int maxPendingCommits = SinkSettings.Commits.DEFAULT_MAX_PENDING_COMMITS;
  public boolean schemaEvolution;
  /** Null for no dead-letter stream: tuples that cannot be written are failed. */
  public String deadLetterStream;
  public String commitEventsStream;
  /** 1 (with any window) for no bound on the share of tuples dead-lettered. */
  public double maxDeadLetterFraction = 1;
  public long deadLetterWindowRecords = 1;
  /** Null for a sink that writes {@link #table}. */
  public ProviderChoice<TableRouter> tableRouter;
  public final List<String> allowedNamespaces = new ArrayList<>();
  public int maxOpenTables = SinkSettings.Routing.DEFAULT_MAX_OPEN_TABLES;

  /**
   * The checked settings ({@link OptionsChecks#checked}). A draft with no commit interval and no
   * seal policy seals every {@value #DEFAULT_COMMIT_INTERVAL_RECORDS} records. A routing draft with
   * no time threshold also seals every {@value #DEFAULT_ROUTED_COMMIT_INTERVAL_MILLIS} ms: a task's
   * pending tuples spread over its open tables, and thresholds count per table, so no table's batch
   * may ever reach a record or byte count before its tuples time out.
   */
  public SinkSettings settings() {
    checkNumbers();
    OptionsChecks.requireOneMapper(recordMapperChosen, multiRecordMapper);
    boolean noThreshold =
        commitIntervalRecords == 0 && commitIntervalBytes == 0 && commitIntervalMillis == 0 && sealPolicies.isEmpty();
    return OptionsChecks.checked(new SinkSettings(
        new SinkSettings.CatalogTarget(catalogName, catalogProperties, table, RowLevelChecks.keyed(autoCreate, rowLevel()),
            hadoopConfiguration),
        new SinkSettings.Thresholds(noThreshold ? DEFAULT_COMMIT_INTERVAL_RECORDS : commitIntervalRecords,
            commitIntervalBytes, routedWithoutTime() ? DEFAULT_ROUTED_COMMIT_INTERVAL_MILLIS : commitIntervalMillis,
            tickIntervalSecs),
        new SinkSettings.Providers(recordMapper, fileFormat, walStore, sealPolicies, writeProperties, multiRecordMapper),
        new SinkSettings.Commits(walNamespace, snapshotProperties, commitRetries, commitRetryBackoffMillis,
            commitDeadlineMarginMillis, branch, maxPendingCommits, OptionsChecks.commitEvents(commitEventsStream, deadLetterStream)),
        new SinkSettings.SplitSink(groupCommitIntervalMillis, groupCommitMaxDataFiles),
        new SinkSettings.Trident(tridentStateName, tridentStateType),
        sourcePositions == null ? null : new SinkSettings.SourcePositions(sourcePositions, sourceResetAccepted),
        spillDirectory, schemaEvolution,
        OptionsChecks.deadLetters(deadLetterStream, maxDeadLetterFraction, deadLetterWindowRecords),
        tableRouter == null ? null : new SinkSettings.Routing(tableRouter, allowedNamespaces, maxOpenTables),
        rowLevel()),
        allowedNamespaces);
  }

  private SinkSettings.RowLevel rowLevel() {
    return new SinkSettings.RowLevel(writeMode, keyColumns, changeOperationField, changeSequenceField, changeOrderWaitMillis,
        maxHeldChangeKeys);
  }

  private boolean routedWithoutTime() {
    return tableRouter != null && commitIntervalMillis == 0
        && sealPolicies.stream().allMatch(policy -> policy.name() != null && UNTIMED_POLICIES.contains(policy.name()));
  }

  /** Each number a setter took, named by its setter. */
  private void checkNumbers() {
    OptionsChecks.requireNonNegative(commitIntervalRecords, "withCommitIntervalRecords");
    OptionsChecks.requireNonNegative(changeOrderWaitMillis, "withChangeOrderWaitMillis");
    OptionsChecks.requirePositive(maxHeldChangeKeys, "withMaxHeldChangeKeys");
    OptionsChecks.requireNonNegative(commitIntervalBytes, "withCommitIntervalBytes");
    OptionsChecks.requireNonNegative(commitIntervalMillis, "withCommitIntervalMillis");
    OptionsChecks.requireNonNegative(tickIntervalSecs, "withTickIntervalSecs");
    OptionsChecks.requireNonNegative(commitRetries, "withCommitRetries");
    OptionsChecks.requireNonNegative(commitRetryBackoffMillis, "withCommitRetryBackoffMillis");
    if (commitDeadlineMarginMillis != CommitDeadline.SCALED_MARGIN) {
      OptionsChecks.requireNonNegative(commitDeadlineMarginMillis, "withCommitDeadlineMarginMillis");
    }
    OptionsChecks.requirePositive(groupCommitIntervalMillis, "withGroupCommitIntervalMillis");
    OptionsChecks.requirePositive(groupCommitMaxDataFiles, "withGroupCommitMaxDataFiles");
    OptionsChecks.requireFraction(maxDeadLetterFraction, "withMaxDeadLetterFraction");
    OptionsChecks.requirePositive(deadLetterWindowRecords, "withMaxDeadLetterFraction's perRecords");
    OptionsChecks.requirePositive(maxOpenTables, "withMaxOpenTables");
  }
}
