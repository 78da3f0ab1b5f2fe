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

import org.apache.storm.iceberg.kernel.commit.CommitSettler;
import java.io.Serializable;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.iceberg.spi.SourcePositionExtractor;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.MultiRecordMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.iceberg.spi.TableRouter;
import org.apache.storm.iceberg.spi.WalStore;

/**
 * Everything a sink's stages read from its options, grouped by what uses it. Immutable and
 * serializable: it travels in the topology inside {@code IcebergOptions}, which checks it when it is
 * built ({@link OptionsChecks#checked}), so a stage may assume it valid.
 *
 * @param spillDirectory where held ack ids spill, or null for the worker's {@code java.io.tmpdir}
 * @param schemaEvolution whether a tuple value with no column adds one (and a wider value widens its
 *     column)
 * @param deadLetters where tuples that cannot be written go, or null to fail them
 * @param routing how tuples are routed to tables, or null when the sink writes the target's one table
 */
public record SinkSettings(
    CatalogTarget target,
    Thresholds thresholds,
    Providers providers,
    Commits commits,
    SplitSink splitSink,
    Trident trident,
    SourcePositions sourcePositions,
    String spillDirectory,
    boolean schemaEvolution,
    DeadLetters deadLetters,
    Routing routing,
    RowLevel rowLevel)
    implements Serializable {

  /** The settings without routing, of a sink that writes {@code table} (a routed task's per-table sink). */
  public SinkSettings forTable(String table) {
    CatalogTarget routed = new CatalogTarget(target.catalogName(), target.catalogProperties(), table, target.autoCreate(),
        target.hadoopConfiguration());
    return new SinkSettings(routed, thresholds, providers, commits, splitSink, trident, sourcePositions, spillDirectory,
        schemaEvolution, deadLetters, null, rowLevel);
  }

  /** The directory a batch's held ack ids spill to on this worker. */
  public Path spillPath() {
    return Path.of(spillDirectory != null ? spillDirectory : System.getProperty("java.io.tmpdir"));
  }

  /** Every group, catalog secrets masked. */
  @Override
  public String toString() {
    return target + ", " + thresholds + ", " + providers + ", " + commits + ", " + splitSink + ", " + trident + ", sourcePositions=" + sourcePositions + ", spillDirectory="
        + (spillDirectory != null ? spillDirectory : "java.io.tmpdir") + ", schemaEvolution=" + schemaEvolution + ", deadLetters=" + deadLetters
        + (routing == null ? "" : ", " + routing);
  }

  /**
   * The table to write and the catalog holding it. Its {@code toString()} masks secrets.
   *
   * @param catalogProperties exactly as given: secret references are resolved on the worker
   * @param autoCreate how to create the table when it does not exist, or null to require it
   * @param hadoopConfiguration entries of the worker's Hadoop configuration, as given (see {@code
   *     WorkerHadoopConfiguration})
   */
  public record CatalogTarget(
      String catalogName, Map<String, String> catalogProperties, String table, AutoCreate autoCreate,
      Map<String, String> hadoopConfiguration)
      implements Serializable {
    public CatalogTarget {
      catalogProperties = Map.copyOf(catalogProperties);
      hadoopConfiguration = Map.copyOf(hadoopConfiguration);
    }

    /** A target whose catalog needs no Hadoop configuration beyond the worker's defaults. */
    public CatalogTarget(String catalogName, Map<String, String> catalogProperties, String table, AutoCreate autoCreate) {
      this(catalogName, catalogProperties, table, autoCreate, Map.of());
    }

    public TableIdentifier tableIdentifier() {
      return TableIdentifier.parse(table);
    }

    /** The auto-create settings, or all null (no properties) when there are none. */
    public AutoCreate autoCreateOrNone() {
      return autoCreate != null ? autoCreate : new AutoCreate(null, null, Map.of());
    }

    @Override
    public String toString() {
      return (table == null ? "routed" : "table=" + table) + ", catalog=" + catalogName + " " + Redaction.redact(catalogProperties)
          + (hadoopConfiguration.isEmpty() ? "" : ", hadoop=" + Redaction.redact(hadoopConfiguration))
          + ", autoCreate=" + (autoCreate != null);
    }
  }

  /** The schema, spec and table properties a missing table is created with. */
  public record AutoCreate(Schema schema, PartitionSpec spec, Map<String, String> properties)
      implements Serializable {
    public AutoCreate {
      properties = Map.copyOf(properties);
    }
  }

  /**
   * The commit-interval thresholds, each 0 when off, and the tick interval asked for (0: derived
   * from the time thresholds). The seal stage turns them into seal policies.
   */
  public record Thresholds(long records, long bytes, long millis, int tickIntervalSecs)
      implements Serializable {}

  /**
   * What each tuple does to the table: a new row (append, the default), or a change of the row of
   * its key (upsert, changelog), committed as one row delta per batch.
   *
   * @param keyColumns the key's columns; empty for the table's identifier fields
   * @param operationField where a tuple's operation is read (changelog: required; upsert: optional,
   *     for deletes), or null
   * @param sequenceField where a tuple's sequence number (growing per key) is read, or null: then
   *     a batch's changes of one key apply in arrival order
   * @param orderWaitMillis how long an {@code IcebergBolt} task holds a partition's later changes back
   *     behind changes that failed or have not arrived, at most; 0 for the default (twice the message
   *     timeout plus 30 s)
   * @param maxHeldKeys the most keys a batch holds collapsed (each with its final row) before it
   *     writes the rest of its changes through Iceberg's streaming delta writer
   */
  public record RowLevel(
      Mode mode, List<String> keyColumns, String operationField, String sequenceField, long orderWaitMillis,
      int maxHeldKeys)
      implements Serializable {
    /** The default of {@code maxHeldKeys}: at a few hundred bytes a held row, tens of MiB of heap a batch. */
    public static final int DEFAULT_MAX_HELD_KEYS = 100_000;
    /** Append: no key, no change fields. */
    public static final RowLevel APPEND = new RowLevel(Mode.APPEND, List.of(), null, null, 0, DEFAULT_MAX_HELD_KEYS);

    /** The write modes. */
    public enum Mode {
      APPEND,
      UPSERT,
      CHANGELOG
    }

    public RowLevel {
      keyColumns = List.copyOf(keyColumns);
    }

    /** Whether tuples change rows by key (upsert, changelog) rather than append rows. */
    public boolean byKey() {
      return mode != Mode.APPEND;
    }
  }

  /**
   * The plug-ins chosen by name or instance, resolved on the worker.
   *
   * @param fileFormat null to follow the table's {@code write.format.default}, or the sink's
   * @param sealPolicies the policies besides the commit-interval thresholds
   * @param writeProperties Iceberg {@code write.*} properties for this sink's files, over the table's
   * @param multiRecordMapper null when each tuple is one record ({@code recordMapper}'s); otherwise
   *     what maps each tuple to its records, in place of {@code recordMapper}
   */
  public record Providers(
      ProviderChoice<RecordMapper> recordMapper,
      ProviderChoice<FileFormatWriter> fileFormat,
      ProviderChoice<WalStore> walStore,
      List<ProviderChoice<SealPolicy>> sealPolicies,
      Map<String, String> writeProperties,
      ProviderChoice<MultiRecordMapper> multiRecordMapper)
      implements Serializable {
    public Providers {
      sealPolicies = List.copyOf(sealPolicies);
      writeProperties = Collections.unmodifiableMap(new java.util.TreeMap<>(writeProperties));
    }

    public Providers(
        ProviderChoice<RecordMapper> recordMapper, ProviderChoice<FileFormatWriter> fileFormat, ProviderChoice<WalStore> walStore,
        List<ProviderChoice<SealPolicy>> sealPolicies, Map<String, String> writeProperties) {
      this(recordMapper, fileFormat, walStore, sealPolicies, writeProperties, null);
    }
  }

  /**
   * How a committing task commits: where its WAL lives, what each snapshot summary carries, how an
   * ambiguous commit is retried, how long before a tuple's timeout it stops trying, and the branch
   * it commits to.
   *
   * @param branch the branch every commit goes to ({@code main} by default)
   * @param maxPendingCommits how many sealed batches of {@code IcebergBolt} may be handed to its
   *     commit thread and not yet settled before the executor waits for the oldest
   */
  public record Commits(
      String walNamespace,
      Map<String, String> snapshotProperties,
      int retries,
      long retryBackoffMillis,
      long deadlineMarginMillis,
      String branch,
      int maxPendingCommits,
      String commitEventsStream)
      implements Serializable {
    public static final int DEFAULT_RETRIES = CommitSettler.Retries.DEFAULT_MAX;
    public static final int DEFAULT_MAX_PENDING_COMMITS = 1;
    public static final long DEFAULT_RETRY_BACKOFF_MILLIS = CommitSettler.Retries.DEFAULT_BACKOFF_MILLIS;

    public Commits {
      snapshotProperties = Collections.unmodifiableMap(new LinkedHashMap<>(snapshotProperties));
    }
  }

  /** When the split sink's committer commits the descriptors it gathered. */
  public record SplitSink(long groupCommitIntervalMillis, int groupCommitMaxDataFiles)
      implements Serializable {}

  /**
   * How a Trident state names its transactions and treats a replayed one.
   *
   * @param stateName names the state's commits, with the WAL namespace and the topology's name
   * @param stateType what a replayed transaction may bring: the same tuples (transactional), others
   *     (opaque), or no promise (non-transactional: at-least-once)
   */
  public record Trident(String stateName, StateType stateType) implements Serializable {}

  /**
   * How the sink reads tuples' source positions, to write each source record once.
   *
   * @param extractor reads a tuple's position
   * @param resetAccepted whether a source whose identity changed (a recreated Kafka topic) starts
   *     over rather than being refused
   */
  public record SourcePositions(ProviderChoice<SourcePositionExtractor> extractor, boolean resetAccepted)
      implements Serializable {}

  /**
   * The stream a tuple that cannot be written is emitted on, anchored, instead of being failed; and
   * the most of a window of tuples that may go there before the sink fails them instead.
   *
   * @param maxFraction the largest share of {@code perRecords} tuples dead-lettered; 1 for no bound
   * @param perRecords the window the fraction is counted over
   */
  public record DeadLetters(String streamId, double maxFraction, long perRecords) implements Serializable {
    /** How many tuples of a window may be dead-lettered. */
    public long allowedPerWindow() {
      return (long) Math.floor(maxFraction * perRecords);
    }

    @Override
    public String toString() {
      return streamId + (maxFraction < 1 ? " (at most " + maxFraction + " of every " + perRecords + " tuples)" : "");
    }
  }

  /**
   * How a routing sink picks each tuple's table, and how many tables a task keeps open.
   *
   * @param router names each tuple's table
   * @param allowedNamespaces the namespaces a routed table may be in (nested ones dotted); empty for any
   * @param maxOpenTables the most tables a task holds open batches for; the least recently used one
   *     is sealed, committed and closed to open another
   */
  public record Routing(ProviderChoice<TableRouter> router, List<String> allowedNamespaces, int maxOpenTables)
      implements Serializable {
    public static final int DEFAULT_MAX_OPEN_TABLES = 32;

    public Routing {
      allowedNamespaces = List.copyOf(allowedNamespaces);
    }

    @Override
    public String toString() {
      return "tableRouter=" + router + ", allowedNamespaces=" + allowedNamespaces + ", maxOpenTables=" + maxOpenTables;
    }
  }
}
