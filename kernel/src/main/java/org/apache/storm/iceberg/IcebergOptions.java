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

package org.apache.storm.iceberg;

import static org.apache.storm.iceberg.kernel.options.OptionKeys.eachEntry;
import static org.apache.storm.iceberg.kernel.options.OptionKeys.stringMap;
import static org.apache.storm.iceberg.kernel.options.OptionKeys.text;
import static org.apache.storm.iceberg.kernel.options.OptionKeys.wholeInt;
import static org.apache.storm.iceberg.kernel.options.OptionKeys.wholeNumber;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.storm.trident.state.StateType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.kernel.commit.SummaryKeys;
import org.apache.storm.iceberg.kernel.preflight.Preflight;
import org.apache.storm.iceberg.kernel.options.OptionKeys;
import org.apache.storm.iceberg.kernel.options.OptionsAccess;
import org.apache.storm.iceberg.kernel.options.OptionsChecks;
import org.apache.storm.iceberg.kernel.options.OptionsDraft;
import org.apache.storm.iceberg.kernel.options.ProviderChoice;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.kernel.options.SinkSettings.AutoCreate;
import org.apache.storm.iceberg.kernel.options.TopologyConfigKeys;
import org.apache.storm.iceberg.kernel.seal.TopologyChecks;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.FileFormatWriterFactory;
import org.apache.storm.iceberg.spi.MultiRecordMapper;
import org.apache.storm.iceberg.spi.MultiRecordMapperFactory;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMapperFactory;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.iceberg.spi.SealPolicyFactory;
import org.apache.storm.iceberg.spi.SourcePositionExtractor;
import org.apache.storm.iceberg.spi.SourcePositionExtractorFactory;
import org.apache.storm.iceberg.spi.TableRouter;
import org.apache.storm.iceberg.spi.TableRouterFactory;
import org.apache.storm.iceberg.spi.WalStoreFactory;

/**
 * Everything a storm-iceberg bolt needs to know, immutable and serializable, made by {@link Builder}
 * or {@link #fromMap}. {@link Builder#build()} validates all of it on the submitting client,
 * including that every named provider is on the classpath exactly once, so configuration mistakes
 * never reach a worker. {@link #toString()} masks catalog secrets.
 */
public final class IcebergOptions implements Serializable {
  private static final long serialVersionUID = 2L;

  // Each DEFAULT_X is the default of the builder method withX; README.md's options table says what it does.
  public static final String DEFAULT_CATALOG_NAME = OptionsDraft.DEFAULT_CATALOG_NAME;
  /** Records per batch when no commit interval or seal policy is configured. */
  public static final long DEFAULT_COMMIT_INTERVAL_RECORDS = OptionsDraft.DEFAULT_COMMIT_INTERVAL_RECORDS;
  /**
   * The commit interval of a routing sink ({@link Builder#withTableRouter}) with no time threshold
   * (no {@link Builder#withCommitIntervalMillis}, no {@code age} or {@code wall-clock} or plug-in
   * seal policy): thresholds count per table, so a table may never reach a record count alone.
   */
  public static final long DEFAULT_ROUTED_COMMIT_INTERVAL_MILLIS = OptionsDraft.DEFAULT_ROUTED_COMMIT_INTERVAL_MILLIS;
  public static final String DEFAULT_RECORD_MAPPER = OptionsDraft.DEFAULT_RECORD_MAPPER;
  public static final String DEFAULT_WAL_STORE = OptionsDraft.DEFAULT_WAL_STORE;
  public static final String DEFAULT_WAL_NAMESPACE = OptionsDraft.DEFAULT_WAL_NAMESPACE;
  public static final int DEFAULT_COMMIT_RETRIES = SinkSettings.Commits.DEFAULT_RETRIES;
  public static final long DEFAULT_COMMIT_RETRY_BACKOFF_MILLIS = SinkSettings.Commits.DEFAULT_RETRY_BACKOFF_MILLIS;
  public static final long DEFAULT_COMMIT_DEADLINE_MARGIN_MILLIS = OptionsDraft.DEFAULT_COMMIT_DEADLINE_MARGIN_MILLIS;
  public static final int DEFAULT_MAX_PENDING_COMMITS = SinkSettings.Commits.DEFAULT_MAX_PENDING_COMMITS;
  public static final long DEFAULT_GROUP_COMMIT_INTERVAL_MILLIS = OptionsDraft.DEFAULT_GROUP_COMMIT_INTERVAL_MILLIS;
  public static final int DEFAULT_GROUP_COMMIT_MAX_DATA_FILES = OptionsDraft.DEFAULT_GROUP_COMMIT_MAX_DATA_FILES;
  /** {@link Builder#withTridentStateName}: what a Trident state's commits are named by, with the topology's name. */
  public static final String DEFAULT_TRIDENT_STATE_NAME = OptionsDraft.DEFAULT_TRIDENT_STATE_NAME;
  public static final String DEFAULT_BRANCH = OptionsDraft.DEFAULT_BRANCH;
  public static final int DEFAULT_MAX_OPEN_TABLES = SinkSettings.Routing.DEFAULT_MAX_OPEN_TABLES;
  /** {@link Builder#withMaxHeldChangeKeys}: the most keys a batch of row-level changes holds collapsed. */
  public static final int DEFAULT_MAX_HELD_CHANGE_KEYS = SinkSettings.RowLevel.DEFAULT_MAX_HELD_KEYS;
  /** Summary key carrying the commit id of every snapshot the sink commits. */
  public static final String COMMIT_ID_PROPERTY = SummaryKeys.COMMIT_ID;
  /** Prefix of the snapshot-summary keys the sink owns; user snapshot properties may not use it. */
  public static final String RESERVED_SUMMARY_PREFIX = SummaryKeys.RESERVED_PREFIX;

  /** Each {@link #fromMap} key and the builder method it calls (overloaded ones need the type witness). */
  private static final OptionKeys<Builder> MAP_KEYS =
      new OptionKeys<Builder>()
          .required("catalog", stringMap(Builder::withCatalogProperties))
          .optional("table", text(Builder::withTable))
          .optional("table-router", OptionKeys.<Builder>provider(Builder::withTableRouter))
          .optional("allowed-namespaces", OptionKeys.<Builder>textList(Builder::withAllowedNamespaces))
          .optional("max-open-tables", wholeInt(Builder::withMaxOpenTables))
          .optional("catalog-name", text(Builder::withCatalogName))
          .optional("hadoop-configuration", stringMap(Builder::withHadoopConfiguration))
          .optional("commit-interval-records", wholeNumber(Builder::withCommitIntervalRecords))
          .optional("commit-interval-bytes", wholeNumber(Builder::withCommitIntervalBytes))
          .optional("commit-interval-millis", wholeNumber(Builder::withCommitIntervalMillis))
          .optional("tick-interval-secs", wholeInt(Builder::withTickIntervalSecs))
          .optional("auto-create", OptionKeys.<Builder>autoCreate(Builder::withAutoCreate))
          .optional("record-mapper", OptionKeys.<Builder>provider(Builder::withRecordMapper))
          .optional("multi-record-mapper", OptionKeys.<Builder>provider(Builder::withMultiRecordMapper))
          .optional("file-format", OptionKeys.<Builder>provider(Builder::withFileFormat))
          .optional("wal-store", OptionKeys.<Builder>provider(Builder::withWalStore))
          .optional("wal-namespace", text(Builder::withWalNamespace))
          .optional("spill-directory", text(Builder::withSpillDirectory))
          .optional("seal-policies", OptionKeys.<Builder>providerList(Builder::withSealPolicy))
          .optional("snapshot-properties", eachEntry(Builder::withSnapshotProperty))
          .optional("commit-retries", wholeInt(Builder::withCommitRetries))
          .optional("commit-retry-backoff-millis", wholeNumber(Builder::withCommitRetryBackoffMillis))
          .optional("commit-deadline-margin-millis", wholeNumber(Builder::withCommitDeadlineMarginMillis))
          .optional("max-pending-commits", wholeInt(Builder::withMaxPendingCommits))
          .optional("group-commit-interval-millis", wholeNumber(Builder::withGroupCommitIntervalMillis))
          .optional("group-commit-max-data-files", wholeInt(Builder::withGroupCommitMaxDataFiles))
          .optional("trident-state-name", text(Builder::withTridentStateName))
          .optional("trident-state-type", text(Builder::withTridentStateType))
          .optional("source-positions", OptionKeys.<Builder>provider(Builder::withSourcePositions))
          .optional("write-properties", stringMap(Builder::withWriteProperties))
          .optional("branch", text(Builder::withBranch))
          .optional("schema-evolution", text((builder, value) -> builder.withSchemaEvolution(SchemaEvolution.named(value))))
          .optional("dead-letter-stream", text(Builder::withDeadLetterStream))
          .optional("commit-events", text(Builder::withCommitEvents))
          .optional("max-dead-letter-fraction", OptionKeys.<Builder>fractionPerRecords(Builder::withMaxDeadLetterFraction))
          .optional("write-mode", text((builder, value) -> builder.withWriteMode(WriteMode.named(value))))
          .optional("key-columns", OptionKeys.<Builder>textList(Builder::withKeyColumns))
          .optional("change-operation-field", text((builder, value) -> builder.draft.changeOperationField = value))
          .optional("change-sequence-field", text((builder, value) -> builder.draft.changeSequenceField = value))
          .optional("change-order-wait-millis", wholeNumber(Builder::withChangeOrderWaitMillis))
          .optional("max-held-change-keys", wholeInt(Builder::withMaxHeldChangeKeys))
          .optional("source-reset-accepted",
              text((builder, value) -> builder.withSourceResetAccepted(OptionsChecks.requireBoolean(value, "source-reset-accepted"))));

  static {
    OptionsAccess.register(options -> ((IcebergOptions) options).settings);
  }

  private final SinkSettings settings;

  private IcebergOptions(SinkSettings settings) {
    this.settings = settings;
  }

  /**
   * Builds options from a map, for Flux: {@code factory: "fromMap"} with the map as its one
   * argument. Each key calls one builder method (README.md, "Options", lists them), and the result
   * passes the same {@link Builder#build()} checks. An unknown key fails with the list of known keys.
   */
  public static IcebergOptions fromMap(Map<String, Object> config) {
    return MAP_KEYS.read(config, new Builder()).build();
  }

  /**
   * As {@link #fromMap(Map)}, overridden by the {@code iceberg.}-prefixed keys of the topology
   * configuration and of {@code storm jar -c} ({@link Builder#overriddenByTopologyConfig}); for Flux,
   * the second argument is the YAML's {@code config:} section, by an anchor.
   */
  public static IcebergOptions fromMap(Map<String, Object> config, Map<String, Object> topologyConfig) {
    Builder builder = new Builder().overriddenByTopologyConfig(topologyConfig);
    MAP_KEYS.read(config, builder, TopologyConfigKeys.unprefixed(TopologyConfigKeys.of(topologyConfig)));
    return builder.build();
  }

  /** The keys {@link #fromMap} reads. */
  static Set<String> mapKeys() {
    return MAP_KEYS.keys();
  }

  /**
   * Checks this sink end to end from here, before submitting: secret references, the catalog, the
   * table (or what auto-create would create: shown, not created), its format version and the write
   * mode's key, the branch, the mapper's columns, Hadoop for Parquet and ORC, and a probe data file
   * and a probe WAL entry, both deleted again. Each check is one line, PASS, WARN or FAIL with the
   * fix; secrets are named, never shown. The checks that need the topology are {@link
   * IcebergTopologies#preflight}'s, which runs this one too.
   */
  public PreflightReport preflight() {
    return preflight(null);
  }

  /** As {@link #preflight()}, checking the mapper against tuples of these fields (null when unknown). */
  public PreflightReport preflight(List<String> tupleFields) {
    return sinkPreflight(tupleFields).and(new PreflightReport(List.of(new PreflightReport.Line(PreflightReport.Status.WARN,
        "topology", "not checked: the topology is not known here; IcebergTopologies.preflight(conf, topology), or the"
            + " tools jar's check --flux, checks the message timeout, tick tuples, pending tuples and groupings too"))));
  }

  /** The sink's own checks, without the line about the topology, which {@link IcebergTopologies#preflight} checks itself. */
  PreflightReport sinkPreflight(List<String> tupleFields) {
    return new PreflightReport(Preflight.run(settings, tupleFields, Thread.currentThread().getContextClassLoader()).stream()
        .map(line -> new PreflightReport.Line(PreflightReport.Status.valueOf(line.status().name()), line.check(), line.message()))
        .toList());
  }


  /** What the sink's stages read; the bolts hand it to them. */
  SinkSettings settings() {
    return settings;
  }

  // Each getter x() returns what the builder method withX set (0 when unset), or its default.

  public String catalogName() { return settings.target().catalogName(); }
  /** The catalog properties exactly as given (references unresolved); never log them, use {@link #toString()}. */
  public Map<String, String> catalogProperties() { return settings.target().catalogProperties(); }
  public Map<String, String> hadoopConfiguration() { return settings.target().hadoopConfiguration(); }
  /** The target table, or null for a routing sink ({@link Builder#withTableRouter}). */
  public String table() { return settings.target().table(); }
  public TableIdentifier tableIdentifier() { return settings.target().table() == null ? null : settings.target().tableIdentifier(); }
  /** The namespaces a routing sink may write in; empty for any. */
  public List<String> allowedNamespaces() { return settings.routing() == null ? List.of() : settings.routing().allowedNamespaces(); }
  public int maxOpenTables() { return settings.routing() == null ? DEFAULT_MAX_OPEN_TABLES : settings.routing().maxOpenTables(); }
  /** The schema to create the table with when it does not exist, or null for no auto-create. */
  public Schema autoCreateSchema() { return settings.target().autoCreateOrNone().schema(); }
  public PartitionSpec autoCreateSpec() { return settings.target().autoCreateOrNone().spec(); }
  public Map<String, String> autoCreateProperties() { return settings.target().autoCreateOrNone().properties(); }
  /** Records per batch, 0 when unset (only when another threshold or a seal policy is set). */
  public long commitIntervalRecords() { return settings.thresholds().records(); }
  public long commitIntervalBytes() { return settings.thresholds().bytes(); }
  public long commitIntervalMillis() { return settings.thresholds().millis(); }
  public int tickIntervalSecs() { return settings.thresholds().tickIntervalSecs(); }
  public String walNamespace() { return settings.commits().walNamespace(); }
  public Map<String, String> snapshotProperties() { return settings.commits().snapshotProperties(); }
  public int commitRetries() { return settings.commits().retries(); }
  public long commitRetryBackoffMillis() { return settings.commits().retryBackoffMillis(); }
  /** The deadline margin set, or -1 when unset (the smaller of 5 s and a quarter of the message timeout). */
  public long commitDeadlineMarginMillis() { return settings.commits().deadlineMarginMillis(); }
  public int maxPendingCommits() { return settings.commits().maxPendingCommits(); }
  /** Where held ack ids spill on a worker: {@link Builder#withSpillDirectory}, or its {@code java.io.tmpdir}. */
  public Path spillDirectory() { return settings.spillPath(); }
  public SchemaEvolution schemaEvolution() { return settings.schemaEvolution() ? SchemaEvolution.ADD_AND_WIDEN : SchemaEvolution.OFF; }
  public long groupCommitIntervalMillis() { return settings.splitSink().groupCommitIntervalMillis(); }
  public int groupCommitMaxDataFiles() { return settings.splitSink().groupCommitMaxDataFiles(); }
  public Map<String, String> writeProperties() { return settings.providers().writeProperties(); }
  public String branch() { return settings.commits().branch(); }
  /** The commit-event stream's id, or null when there is none. */
  public String commitEventsStream() { return settings.commits().commitEventsStream(); }
  /** The dead-letter stream's id, or null when there is none. */
  public String deadLetterStream() { return settings.deadLetters() == null ? null : settings.deadLetters().streamId(); }

  @Override
  public String toString() {
    return "IcebergOptions{" + settings + "}";
  }

  /**
   * Builds {@link IcebergOptions}; every setter returns the builder, and README.md's options table
   * says what each one does, its Flux key and its default. A few setters refuse a null or negative
   * argument at once; {@link #build()} checks everything, each option and how they combine.
   */
  public static final class Builder {
    private final OptionsDraft draft = new OptionsDraft();
    /** Null when the topology configuration is not read. */
    private Map<String, ?> topologyConfig;

    /** Catalog properties for {@code CatalogUtil.buildIcebergCatalog} on each worker; secrets may be references (README.md, "Secrets"). */
    public Builder withCatalogProperties(Map<String, String> properties) {
      draft.catalogProperties = Map.copyOf(Objects.requireNonNull(properties, "catalog properties"));
      return this;
    }

    /** The catalog's name (used in Iceberg's metrics and logs); default {@value #DEFAULT_CATALOG_NAME}. */
    public Builder withCatalogName(String name) {
      draft.catalogName = name;
      return this;
    }

    /**
     * Hadoop configuration for the catalog, its FileIO and Hadoop file writers, over the worker's
     * defaults; {@code hadoop-conf-dir} names a directory of {@code *-site.xml} files on the worker to
     * load first. Secret-named values may be references, as in catalog properties.
     */
    public Builder withHadoopConfiguration(Map<String, String> entries) {
      draft.hadoopConfiguration = Map.copyOf(Objects.requireNonNull(entries, "entries"));
      return this;
    }

    /** The target table, {@code namespace.table} (nested namespaces with more dots). */
    public Builder withTable(String tableName) {
      draft.table = tableName;
      return this;
    }

    /** Takes each tuple's table from the named router ({@code field}, {@code stream} or {@code static}) instead of {@link #withTable}. */
    public Builder withTableRouter(String name, Map<String, String> properties) {
      draft.tableRouter = ProviderChoice.named(TableRouterFactory.class, name, properties);
      return this;
    }

    /** As {@link #withTableRouter(String, Map)}, with a router instance; it travels with the topology. */
    public Builder withTableRouter(TableRouter router) {
      draft.tableRouter = ProviderChoice.instance(router);
      return this;
    }

    /** A routing sink writes only tables in these namespaces; a tuple routed elsewhere is a mapping error. */
    public Builder withAllowedNamespaces(List<String> namespaces) {
      draft.allowedNamespaces.clear();
      draft.allowedNamespaces.addAll(Objects.requireNonNull(namespaces, "withAllowedNamespaces"));
      return this;
    }

    /** The most tables a routing task keeps open; default {@value #DEFAULT_MAX_OPEN_TABLES}. */
    public Builder withMaxOpenTables(int tables) {
      draft.maxOpenTables = tables;
      return this;
    }

    /** Seals a batch once it holds this many records; 0 for no record threshold. */
    public Builder withCommitIntervalRecords(long records) {
      draft.commitIntervalRecords = records;
      return this;
    }
    /** Seals a batch once its data files hold about this many bytes; 0 for no byte threshold. */
    public Builder withCommitIntervalBytes(long bytes) {
      draft.commitIntervalBytes = bytes;
      return this;
    }
    /** Seals a batch once its first record is this old; 0 for no time threshold. */
    public Builder withCommitIntervalMillis(long millis) {
      draft.commitIntervalMillis = millis;
      return this;
    }

    /** Asks Storm for a tick tuple every {@code seconds}; {@code IcebergBolt} asks for one every second whatever this says. */
    public Builder withTickIntervalSecs(int seconds) {
      draft.tickIntervalSecs = seconds;
      return this;
    }

    /** Creates a missing table with this schema and spec; for an existing table the stored ones win. */
    public Builder withAutoCreate(Schema schema, PartitionSpec spec) { return withAutoCreate(schema, spec, Map.of()); }

    /** As {@link #withAutoCreate(Schema, PartitionSpec)}, with table properties for the create. */
    public Builder withAutoCreate(Schema schema, PartitionSpec spec, Map<String, String> tableProperties) {
      Objects.requireNonNull(schema, "auto-create schema");
      draft.autoCreate = new AutoCreate(schema, spec == null ? PartitionSpec.unpartitioned() : spec, tableProperties);
      return this;
    }

    /** Maps each tuple to one record with this mapper instance; it travels with the topology. */
    public Builder withRecordMapper(RecordMapper mapper) { return recordMapper(ProviderChoice.instance(mapper)); }
    /** Maps each tuple to one record with the named mapper provider, without properties. */
    public Builder withRecordMapper(String name) { return withRecordMapper(name, Map.of()); }

    /** Maps each tuple to one record with the named mapper provider ({@code field-name}, {@code json}, ...). */
    public Builder withRecordMapper(String name, Map<String, String> properties) {
      return recordMapper(ProviderChoice.named(RecordMapperFactory.class, name, properties));
    }

    private Builder recordMapper(ProviderChoice<RecordMapper> mapper) {
      draft.recordMapper = mapper;
      draft.recordMapperChosen = true;
      return this;
    }

    /** Maps each tuple to many records, all committed and acked with the tuple, in place of a record mapper. */
    public Builder withMultiRecordMapper(MultiRecordMapper mapper) {
      draft.multiRecordMapper = ProviderChoice.instance(mapper);
      return this;
    }

    /** As {@link #withMultiRecordMapper(MultiRecordMapper)}, by provider name, without properties. */
    public Builder withMultiRecordMapper(String name) { return withMultiRecordMapper(name, Map.of()); }

    /** As {@link #withMultiRecordMapper(MultiRecordMapper)}, by provider name (for example {@code json-array}). */
    public Builder withMultiRecordMapper(String name, Map<String, String> properties) {
      draft.multiRecordMapper = ProviderChoice.named(MultiRecordMapperFactory.class, name, properties);
      return this;
    }

    /** Writes every file in this format, whatever the table's {@code write.format.default}. */
    public Builder withFileFormat(String name) { return withFileFormat(name, Map.of()); }

    /** As {@link #withFileFormat(String)}, with the format provider's properties. */
    public Builder withFileFormat(String name, Map<String, String> properties) {
      draft.fileFormat = ProviderChoice.named(FileFormatWriterFactory.class, name, properties);
      return this;
    }

    /** Writes every file with this format writer instance; it travels with the topology. */
    public Builder withFileFormat(FileFormatWriter writer) {
      draft.fileFormat = ProviderChoice.instance(writer);
      return this;
    }

    /** Keeps the write-ahead log in the named store, without properties; default {@value #DEFAULT_WAL_STORE}. */
    public Builder withWalStore(String name) { return withWalStore(name, Map.of()); }

    /** Keeps the write-ahead log in the named store, with its properties. */
    public Builder withWalStore(String name, Map<String, String> properties) {
      draft.walStore = ProviderChoice.named(WalStoreFactory.class, name, properties);
      return this;
    }

    /** Adds a seal policy by provider name; the batch seals on the first threshold crossed, among them and the commit intervals. */
    public Builder withSealPolicy(String name, Map<String, String> properties) {
      draft.sealPolicies.add(ProviderChoice.named(SealPolicyFactory.class, name, properties));
      return this;
    }

    /** Adds a seal policy instance; it travels with the topology, so it must be serializable. */
    public Builder withSealPolicy(SealPolicy policy) {
      draft.sealPolicies.add(ProviderChoice.instance(policy));
      return this;
    }

    /** Separates the WAL of sinks that share a table, topology name and component name. */
    public Builder withWalNamespace(String namespace) {
      draft.walNamespace = namespace;
      return this;
    }

    /** Adds a property to every snapshot summary the sink commits. */
    public Builder withSnapshotProperty(String key, String value) {
      draft.snapshotProperties.put(key, value);
      return this;
    }

    /** How many times an ambiguous commit is appended again under its own commit id before its batch is failed; 0 to fail at once. */
    public Builder withCommitRetries(int retries) {
      draft.commitRetries = retries;
      return this;
    }

    /** The wait before the first such retry; it doubles on each one, up to 30 s. */
    public Builder withCommitRetryBackoffMillis(long millis) {
      draft.commitRetryBackoffMillis = millis;
      return this;
    }

    /**
     * A batch is never appended, and every commit attempt stops, once its oldest tuple is older than
     * {@code topology.message.timeout.secs} less this margin (Storm would already replay it); it is
     * failed instead. Unset: the smaller of 5 s and a quarter of the timeout, which fits every
     * timeout. A margin set must be below the message timeout: checked by {@link #build()} when
     * given the topology's configuration ({@link #overriddenByTopologyConfig}), by {@link
     * IcebergTopologies#check}, and when the task starts.
     */
    public Builder withCommitDeadlineMarginMillis(long millis) {
      draft.commitDeadlineMarginMillis = millis;
      return this;
    }

    /** {@code IcebergBolt}: how many sealed batches may wait for, or be in, its commit thread (per table with a router); default 1. */
    public Builder withMaxPendingCommits(int batches) {
      draft.maxPendingCommits = (int) OptionsChecks.requirePositive(batches, "withMaxPendingCommits");
      return this;
    }

    /** Split sink: the committer commits once the oldest pending descriptor has waited this long. */
    public Builder withGroupCommitIntervalMillis(long millis) {
      draft.groupCommitIntervalMillis = millis;
      return this;
    }

    /** Split sink: the committer commits once this many data files are pending. */
    public Builder withGroupCommitMaxDataFiles(int dataFiles) {
      draft.groupCommitMaxDataFiles = dataFiles;
      return this;
    }

    /** An absolute path, writable on every worker, where a batch's held ack ids spill, instead of {@code java.io.tmpdir}. */
    public Builder withSpillDirectory(String directory) {
      draft.spillDirectory = directory;
      return this;
    }

    /**
     * Names a Trident state's commits (with the WAL namespace and the topology's name); default
     * {@value #DEFAULT_TRIDENT_STATE_NAME}. Keep it across redeploys: it is how a restarted state finds
     * the transactions it committed. Two Trident states writing one table in one topology need
     * different names.
     */
    public Builder withTridentStateName(String name) {
      draft.tridentStateName = name;
      return this;
    }

    /** What a replayed Trident transaction brings, as the spout promises; default {@code OPAQUE}. */
    public Builder withTridentStateType(StateType type) {
      draft.tridentStateType = Objects.requireNonNull(type, "withTridentStateType");
      return this;
    }

    /** {@link #withTridentStateType(StateType)} by name: {@code transactional}, {@code opaque} or {@code non-transactional}. */
    public Builder withTridentStateType(String type) { return withTridentStateType(OptionsChecks.requireStateType(type)); }

    /** Writes each source record once, by the source positions the named extractor (for example {@code kafka}) reads. */
    public Builder withSourcePositions(String name, Map<String, String> properties) {
      draft.sourcePositions = ProviderChoice.named(SourcePositionExtractorFactory.class, name, properties);
      return this;
    }

    /** As {@link #withSourcePositions(String, Map)}, with an extractor instance; it travels with the topology. */
    public Builder withSourcePositions(SourcePositionExtractor extractor) {
      draft.sourcePositions = ProviderChoice.instance(extractor);
      return this;
    }

    /** A source whose identity changed under committed positions starts over, instead of having its tuples refused; default false. */
    public Builder withSourceResetAccepted(boolean accepted) {
      draft.sourceResetAccepted = accepted;
      return this;
    }

    /** Iceberg {@code write.*} properties for this sink's files, over the table's. */
    public Builder withWriteProperties(Map<String, String> properties) {
      draft.writeProperties.clear();
      draft.writeProperties.putAll(Objects.requireNonNull(properties, "write properties"));
      return this;
    }

    /** What each tuple does to the table ({@link WriteMode}); default append. Row-level modes need a key. */
    public Builder withWriteMode(WriteMode mode) {
      draft.writeMode = SinkSettings.RowLevel.Mode.valueOf(Objects.requireNonNull(mode, "write mode").name());
      return this;
    }

    /** The key of the row-level write modes; default: the table's identifier fields. */
    public Builder withKeyColumns(String... columns) {
      return withKeyColumns(List.of(columns));
    }

    /** As {@link #withKeyColumns(String...)}. */
    public Builder withKeyColumns(List<String> columns) {
      draft.keyColumns = List.copyOf(columns);
      return this;
    }

    /**
     * Where a row-level mode reads each tuple's operation (insert, update-before, update-after,
     * delete: Debezium's {@code c r u d}, {@code I U D} or the names) and its sequence number (an LSN,
     * offset or version growing per key), the way the record mapper reads columns; changelog needs
     * both, upsert may set either (null for none).
     */
    public Builder withChangeFields(String operationField, String sequenceField) {
      draft.changeOperationField = operationField;
      draft.changeSequenceField = sequenceField;
      return this;
    }

    /**
     * How long, at most, an {@code IcebergBolt} task in a row-level mode holds a Kafka partition's later
     * changes back behind changes that failed and have not come back, or that a new task has not seen
     * yet; default 0: twice {@code topology.message.timeout.secs} plus 30 s. Raise it when the spout
     * retries a failed tuple later than that (a retry service with a longer backoff).
     */
    public Builder withChangeOrderWaitMillis(long millis) {
      draft.changeOrderWaitMillis = millis;
      return this;
    }

    /**
     * The most keys a batch in a row-level mode holds collapsed, each with its final row, until it
     * seals; default {@value #DEFAULT_MAX_HELD_CHANGE_KEYS}. A batch that changes more keys writes what
     * it holds and then each further change as it arrives, through Iceberg's equality delta writer:
     * a key changed again in that part costs a position delete (a deletion vector on format version
     * 3) of its earlier row in the batch, which readers apply until compaction.
     */
    public Builder withMaxHeldChangeKeys(int keys) {
      draft.maxHeldChangeKeys = keys;
      return this;
    }

    /** Commits every append to this branch; default {@value #DEFAULT_BRANCH}. */
    public Builder withBranch(String branch) {
      draft.branch = branch;
      return this;
    }

    /** Lets the sink add columns and widen types for tuple values (docs/MAPPING.md, "Schema evolution"); default off. */
    public Builder withSchemaEvolution(SchemaEvolution mode) {
      draft.schemaEvolution = Objects.requireNonNull(mode, "withSchemaEvolution") == SchemaEvolution.ADD_AND_WIDEN;
      return this;
    }

    /** Emits each tuple that cannot be written on this stream, anchored, then acks it, instead of failing it; bolts only. */
    public Builder withDeadLetterStream(String streamId) {
      draft.deadLetterStream = Objects.requireNonNull(streamId, "withDeadLetterStream");
      return this;
    }

    /**
     * Emits one tuple per commit that landed on this stream, unanchored, with the fields {@code
     * CommitEventFields} names (table, snapshot, files and bytes added, duration): what drives table
     * maintenance ({@code IcebergMaintenanceBolt}, fed by a fields grouping on the table). {@link
     * IcebergBolt} and {@link IcebergCommitterBolt} emit them; the Trident state does not.
     */
    public Builder withCommitEvents(String streamId) {
      draft.commitEventsStream = Objects.requireNonNull(streamId, "withCommitEvents");
      return this;
    }

    /** Fails tuples instead once more than {@code fraction} of a window of {@code perRecords} tuples went to the dead-letter stream. */
    public Builder withMaxDeadLetterFraction(double fraction, long perRecords) {
      draft.maxDeadLetterFraction = fraction;
      draft.deadLetterWindowRecords = perRecords;
      return this;
    }

    /**
     * At {@link #build()}, reads the {@code iceberg.}-prefixed {@link IcebergOptions#fromMap} keys of
     * this topology configuration, and of {@code storm jar -c} over them, over every other builder
     * call whatever its order. Unknown {@code iceberg.} keys are refused.
     */
    public Builder overriddenByTopologyConfig(Map<String, ?> topologyConfig) {
      this.topologyConfig = Objects.requireNonNull(topologyConfig, "topology configuration");
      return this;
    }

    /** Validates everything; an {@link IllegalArgumentException} says what to change. */
    public IcebergOptions build() {
      if (topologyConfig == null) {
        return new IcebergOptions(draft.settings());
      }
      IcebergOptions options = TopologyConfigKeys.applyAndBuild(TopologyConfigKeys.of(topologyConfig), MAP_KEYS, this, draft,
          () -> new IcebergOptions(draft.settings()));
      try {
        TopologyChecks.againstMessageTimeout(options.settings, topologyConfig);
      } catch (IllegalStateException doesNotFit) {
        throw new IllegalArgumentException(doesNotFit.getMessage(), doesNotFit);
      }
      return options;
    }
  }
}
