package org.apache.storm.iceberg;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.kernel.OptionsChecks;
import org.apache.storm.iceberg.kernel.ProviderChoice;
import org.apache.storm.iceberg.kernel.Redaction;
import org.apache.storm.iceberg.kernel.SecretReferences;
import org.apache.storm.iceberg.kernel.ThresholdSealPolicy;
import org.apache.storm.iceberg.kernel.TimedSealPolicies;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.FileFormatWriterFactory;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMapperFactory;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.iceberg.spi.SealPolicyFactory;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;

/**
 * Everything a storm-iceberg bolt needs to know, immutable and serializable, made by {@link Builder}.
 * {@link Builder#build()} validates all of it on the submitting client, including that every named
 * provider is on the classpath exactly once, so configuration mistakes never reach a worker.
 * {@link #toString()} masks catalog secrets.
 */
public final class IcebergOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final String DEFAULT_CATALOG_NAME = "storm_iceberg";
  /** Records per batch when no threshold is configured. */
  public static final long DEFAULT_COMMIT_INTERVAL_RECORDS = 1000;
  public static final String DEFAULT_RECORD_MAPPER = "field-name";
  public static final String DEFAULT_WAL_STORE = "table-fileio";
  public static final String DEFAULT_WAL_NAMESPACE = "default";
  /** How many times an ambiguous commit (its answer lost) is re-appended under its commit id. */
  public static final int DEFAULT_COMMIT_RETRIES = 3;
  /** The first wait before such a retry; it doubles on each one. */
  public static final long DEFAULT_COMMIT_RETRY_BACKOFF_MILLIS = 500;
  /** How long the split sink's committer lets descriptors wait, at most, before it commits them. */
  /** {@link Builder#withCommitDeadlineMarginMillis}: how long before a tuple would time out its batch stops committing. */
  public static final long DEFAULT_COMMIT_DEADLINE_MARGIN_MILLIS = 5_000;
  public static final long DEFAULT_GROUP_COMMIT_INTERVAL_MILLIS = 10_000;
  /** How many data files the split sink's committer gathers, at most, into one commit. */
  public static final int DEFAULT_GROUP_COMMIT_MAX_DATA_FILES = 1_000;
  /** Summary key carrying the commit id of every snapshot the sink commits. */
  public static final String COMMIT_ID_PROPERTY = "storm.iceberg.commit-id";
  /** Prefix of the snapshot-summary keys the sink owns; user snapshot properties may not use it. */
  public static final String RESERVED_SUMMARY_PREFIX = "storm.iceberg.";

  private final String catalogName;
  private final Map<String, String> catalogProperties;
  private final String table;
  private final long commitIntervalRecords;
  private final long commitIntervalBytes;
  private final long commitIntervalMillis;
  private final Schema autoCreateSchema;
  private final PartitionSpec autoCreateSpec;
  private final Map<String, String> autoCreateProperties;
  private final ProviderChoice<RecordMapper> recordMapper;
  private final ProviderChoice<FileFormatWriter> fileFormat;
  private final ProviderChoice<WalStore> walStore;
  private final String walNamespace;
  private final String spillDirectory;
  private final int tickIntervalSecs;
  private final Map<String, String> snapshotProperties;
  private final long groupCommitIntervalMillis;
  private final int groupCommitMaxDataFiles;
  private final List<ProviderChoice<SealPolicy>> sealPolicyChoices;
  private final int commitRetries;
  private final long commitRetryBackoffMillis;
  private final long commitDeadlineMarginMillis;

  private IcebergOptions(Builder builder) {
    this.catalogName = builder.catalogName;
    this.catalogProperties = Collections.unmodifiableMap(new LinkedHashMap<>(builder.catalogProperties));
    this.table = builder.table;
    boolean noThreshold =
        builder.commitIntervalRecords == 0
            && builder.commitIntervalBytes == 0
            && builder.commitIntervalMillis == 0
            && builder.sealPolicyChoices.isEmpty();
    this.commitIntervalRecords =
        noThreshold ? DEFAULT_COMMIT_INTERVAL_RECORDS : builder.commitIntervalRecords;
    this.commitIntervalBytes = builder.commitIntervalBytes;
    this.commitIntervalMillis = builder.commitIntervalMillis;
    this.autoCreateSchema = builder.autoCreateSchema;
    this.autoCreateSpec = builder.autoCreateSpec;
    this.autoCreateProperties = Collections.unmodifiableMap(new LinkedHashMap<>(builder.autoCreateProperties));
    this.recordMapper = builder.recordMapper;
    this.fileFormat = builder.fileFormat;
    this.walStore = builder.walStore;
    this.walNamespace = builder.walNamespace;
    this.spillDirectory = builder.spillDirectory;
    this.tickIntervalSecs = builder.tickIntervalSecs;
    this.snapshotProperties = Collections.unmodifiableMap(new LinkedHashMap<>(builder.snapshotProperties));
    this.groupCommitIntervalMillis = builder.groupCommitIntervalMillis;
    this.groupCommitMaxDataFiles = builder.groupCommitMaxDataFiles;
    this.sealPolicyChoices = List.copyOf(builder.sealPolicyChoices);
    this.commitRetries = builder.commitRetries;
    this.commitRetryBackoffMillis = builder.commitRetryBackoffMillis;
    this.commitDeadlineMarginMillis = builder.commitDeadlineMarginMillis;
  }

  /** Re-appends of an ambiguous commit under its own commit id before its batch is failed. */
  public int commitRetries() {
    return commitRetries;
  }

  /** The wait before the first such re-append; it doubles on each one (at most 30 s). */
  public long commitRetryBackoffMillis() {
    return commitRetryBackoffMillis;
  }

  /**
   * How long before {@code topology.message.timeout.secs} would expire a batch's oldest tuple the
   * sink stops trying to commit the batch, and fails it instead.
   */
  public long commitDeadlineMarginMillis() {
    return commitDeadlineMarginMillis;
  }

  /**
   * Builds options from a map, for Flux: {@code factory: "fromMap"} with the map as its one
   * argument. Keys: {@code catalog} (map, required), {@code table} (required), {@code catalog-name},
   * {@code commit-interval-records|bytes|millis}, {@code tick-interval-secs}, {@code auto-create}
   * ({@code schema}, {@code spec}, {@code properties}), {@code record-mapper}, {@code file-format},
   * {@code wal-store} (a name, or a map with {@code name} and properties), {@code wal-namespace},
   * {@code seal-policies} (a list of maps with {@code name}), {@code snapshot-properties}, {@code
   * group-commit-interval-millis}, {@code group-commit-max-data-files}. See README.md, "Flux".
   */
  public static IcebergOptions fromMap(Map<String, Object> config) {
    return org.apache.storm.iceberg.kernel.OptionsMap.toOptions(config);
  }

  public String catalogName() {
    return catalogName;
  }

  /** The catalog properties exactly as given (references unresolved); never log them, use {@link #toString()}. */
  public Map<String, String> catalogProperties() {
    return catalogProperties;
  }

  public String table() {
    return table;
  }

  public TableIdentifier tableIdentifier() {
    return TableIdentifier.parse(table);
  }

  /** Records per batch, 0 when unset (only when another threshold is set). */
  public long commitIntervalRecords() {
    return commitIntervalRecords;
  }

  public long commitIntervalBytes() {
    return commitIntervalBytes;
  }

  public long commitIntervalMillis() {
    return commitIntervalMillis;
  }

  /** The schema to create the table with when it does not exist, or null for no auto-create. */
  public Schema autoCreateSchema() {
    return autoCreateSchema;
  }

  public PartitionSpec autoCreateSpec() {
    return autoCreateSpec;
  }

  public Map<String, String> autoCreateProperties() {
    return autoCreateProperties;
  }

  public ProviderChoice<RecordMapper> recordMapper() {
    return recordMapper;
  }

  /** The chosen file format, or null to follow the table's {@code write.format.default}. */
  public ProviderChoice<FileFormatWriter> fileFormat() {
    return fileFormat;
  }

  public ProviderChoice<WalStore> walStore() {
    return walStore;
  }

  public String walNamespace() {
    return walNamespace;
  }

  /**
   * Where a batch's held ack ids spill beyond about 5.5 MiB, on the worker: the directory set with
   * {@link Builder#withSpillDirectory}, or the worker JVM's {@code java.io.tmpdir}.
   */
  public Path spillDirectory() {
    return Path.of(spillDirectory != null ? spillDirectory : System.getProperty("java.io.tmpdir"));
  }

  /** Seconds between tick tuples the bolt asks for, 0 for none. */
  public int tickIntervalSecs() {
    return tickIntervalSecs;
  }

  /**
   * The tick interval the bolts declare: {@link #tickIntervalSecs()} when set; otherwise, when a
   * seal policy reads time, half the shortest time threshold (the age threshold, an {@code age} or
   * {@code wall-clock} policy; at least one second), or one second for a plug-in policy that tells
   * no interval, so an idle stream still seals; else 0. See {@link TimedSealPolicies}.
   */
  public int effectiveTickIntervalSecs() {
    if (tickIntervalSecs > 0) {
      return tickIntervalSecs;
    }
    return TimedSealPolicies.of(this, Thread.currentThread().getContextClassLoader()).defaultTickSecs();
  }

  /** Split sink: the longest a descriptor waits in the committer before a commit. */
  public long groupCommitIntervalMillis() {
    return groupCommitIntervalMillis;
  }

  /** Split sink: the committer commits once this many data files are pending. */
  public int groupCommitMaxDataFiles() {
    return groupCommitMaxDataFiles;
  }

  /**
   * The tick interval {@link IcebergCommitterBolt} declares: {@link #tickIntervalSecs()} when set,
   * otherwise half the group commit interval (at least one second), so a lull never leaves
   * descriptors uncommitted.
   */
  public int committerTickIntervalSecs() {
    return tickIntervalSecs > 0 ? tickIntervalSecs : (int) Math.max(1, groupCommitIntervalMillis / 2000);
  }

  /** User snapshot-summary properties added to every commit (the sink's own keys win). */
  public Map<String, String> snapshotProperties() {
    return snapshotProperties;
  }

  /** The seal policies chosen with {@code withSealPolicy}, besides the commit-interval thresholds. */
  public List<ProviderChoice<SealPolicy>> sealPolicyChoices() {
    return sealPolicyChoices;
  }

  /**
   * Every seal policy of the sink: the commit-interval thresholds, then those chosen with {@code
   * withSealPolicy}, resolved on {@code loader}. The first one crossed seals the batch.
   */
  public List<SealPolicy> sealPolicies(ClassLoader loader) {
    List<SealPolicy> policies = thresholdPolicies();
    sealPolicyChoices.forEach(choice -> policies.add(choice.resolve(loader)));
    return policies;
  }

  /** The commit-interval thresholds (records, bytes, age) as seal policies. */
  public List<SealPolicy> thresholdPolicies() {
    List<SealPolicy> policies = new ArrayList<>();
    if (commitIntervalRecords > 0) {
      policies.add(new ThresholdSealPolicy(ThresholdSealPolicy.Measure.RECORDS, commitIntervalRecords));
    }
    if (commitIntervalBytes > 0) {
      policies.add(new ThresholdSealPolicy(ThresholdSealPolicy.Measure.BYTES, commitIntervalBytes));
    }
    if (commitIntervalMillis > 0) {
      policies.add(
          new ThresholdSealPolicy(ThresholdSealPolicy.Measure.AGE_MILLIS, commitIntervalMillis));
    }
    return policies;
  }

  @Override
  public String toString() {
    return "IcebergOptions{table="
        + table
        + ", catalog="
        + catalogName
        + " "
        + Redaction.redact(catalogProperties)
        + ", commitIntervalRecords="
        + commitIntervalRecords
        + ", commitIntervalBytes="
        + commitIntervalBytes
        + ", commitIntervalMillis="
        + commitIntervalMillis
        + ", autoCreate="
        + (autoCreateSchema != null)
        + ", recordMapper="
        + recordMapper
        + ", fileFormat="
        + (fileFormat == null ? "table default" : fileFormat)
        + ", walStore="
        + walStore
        + ", walNamespace="
        + walNamespace
        + ", spillDirectory="
        + (spillDirectory != null ? spillDirectory : "java.io.tmpdir")
        + ", tickIntervalSecs="
        + tickIntervalSecs
        + ", groupCommitIntervalMillis="
        + groupCommitIntervalMillis
        + ", groupCommitMaxDataFiles="
        + groupCommitMaxDataFiles
        + ", sealPolicies="
        + sealPolicyChoices
        + ", commitRetries="
        + commitRetries
        + ", commitDeadlineMarginMillis="
        + commitDeadlineMarginMillis
        + "}";
  }

  /** Builds {@link IcebergOptions}; every setter returns the builder. */
  public static final class Builder {
    private String catalogName = DEFAULT_CATALOG_NAME;
    private Map<String, String> catalogProperties = Map.of();
    private String table;
    private long commitIntervalRecords;
    private long commitIntervalBytes;
    private long commitIntervalMillis;
    private Schema autoCreateSchema;
    private PartitionSpec autoCreateSpec;
    private Map<String, String> autoCreateProperties = Map.of();
    private ProviderChoice<RecordMapper> recordMapper =
        ProviderChoice.named(RecordMapperFactory.class, DEFAULT_RECORD_MAPPER, Map.of());
    private ProviderChoice<FileFormatWriter> fileFormat;
    private ProviderChoice<WalStore> walStore =
        ProviderChoice.named(WalStoreFactory.class, DEFAULT_WAL_STORE, Map.of());
    private String walNamespace = DEFAULT_WAL_NAMESPACE;
    private String spillDirectory;
    private int tickIntervalSecs;
    private final Map<String, String> snapshotProperties = new LinkedHashMap<>();
    private long groupCommitIntervalMillis = DEFAULT_GROUP_COMMIT_INTERVAL_MILLIS;
    private int groupCommitMaxDataFiles = DEFAULT_GROUP_COMMIT_MAX_DATA_FILES;
    private final List<ProviderChoice<SealPolicy>> sealPolicyChoices = new ArrayList<>();
    private int commitRetries = DEFAULT_COMMIT_RETRIES;
    private long commitRetryBackoffMillis = DEFAULT_COMMIT_RETRY_BACKOFF_MILLIS;
    private long commitDeadlineMarginMillis = DEFAULT_COMMIT_DEADLINE_MARGIN_MILLIS;

    /**
     * Catalog properties, passed to {@code CatalogUtil.buildIcebergCatalog} on each worker. The value
     * of a secret-named property may be a reference, {@code env:NAME} or {@code file:/path}, resolved
     * on the worker (see {@link org.apache.storm.iceberg.kernel.SecretReferences}).
     */
    public Builder withCatalogProperties(Map<String, String> properties) {
      this.catalogProperties = Map.copyOf(Objects.requireNonNull(properties, "catalog properties"));
      return this;
    }

    /** The catalog's name (used in Iceberg's metrics and logs); default {@value #DEFAULT_CATALOG_NAME}. */
    public Builder withCatalogName(String name) {
      this.catalogName = name;
      return this;
    }

    /** The target table, {@code namespace.table} (nested namespaces with more dots). */
    public Builder withTable(String tableName) {
      this.table = tableName;
      return this;
    }

    public Builder withCommitIntervalRecords(long records) {
      this.commitIntervalRecords = requireNonNegative(records, "withCommitIntervalRecords");
      return this;
    }

    public Builder withCommitIntervalBytes(long bytes) {
      this.commitIntervalBytes = requireNonNegative(bytes, "withCommitIntervalBytes");
      return this;
    }

    public Builder withCommitIntervalMillis(long millis) {
      this.commitIntervalMillis = requireNonNegative(millis, "withCommitIntervalMillis");
      return this;
    }

    /**
     * Creates the table with this schema and spec when it does not exist. For an existing table the
     * stored schema and spec win.
     */
    public Builder withAutoCreate(Schema schema, PartitionSpec spec) {
      return withAutoCreate(schema, spec, Map.of());
    }

    /** As {@link #withAutoCreate(Schema, PartitionSpec)}, with table properties for the create. */
    public Builder withAutoCreate(Schema schema, PartitionSpec spec, Map<String, String> tableProperties) {
      this.autoCreateSchema = Objects.requireNonNull(schema, "auto-create schema");
      this.autoCreateSpec = spec == null ? PartitionSpec.unpartitioned() : spec;
      this.autoCreateProperties = Map.copyOf(tableProperties);
      return this;
    }

    public Builder withRecordMapper(RecordMapper mapper) {
      this.recordMapper = ProviderChoice.instance(mapper);
      return this;
    }

    public Builder withRecordMapper(String name) {
      return withRecordMapper(name, Map.of());
    }

    public Builder withRecordMapper(String name, Map<String, String> properties) {
      this.recordMapper = ProviderChoice.named(RecordMapperFactory.class, name, properties);
      return this;
    }

    /** Writes every file in this format, whatever the table's {@code write.format.default}. */
    public Builder withFileFormat(String name) {
      return withFileFormat(name, Map.of());
    }

    public Builder withFileFormat(String name, Map<String, String> properties) {
      this.fileFormat = ProviderChoice.named(FileFormatWriterFactory.class, name, properties);
      return this;
    }

    public Builder withFileFormat(FileFormatWriter writer) {
      this.fileFormat = ProviderChoice.instance(writer);
      return this;
    }

    public Builder withWalStore(String name) {
      return withWalStore(name, Map.of());
    }

    public Builder withWalStore(String name, Map<String, String> properties) {
      this.walStore = ProviderChoice.named(WalStoreFactory.class, name, properties);
      return this;
    }

    /** Separates the WAL of sinks that share a table, topology name and component name. */
    public Builder withWalNamespace(String namespace) {
      this.walNamespace = namespace;
      return this;
    }

    /**
     * Where each task spills the ack ids of a batch's tuples beyond about 5.5 MiB (some 262,000
     * tuples), instead of the worker JVM's {@code java.io.tmpdir}: choose a local disk with room,
     * not a RAM-backed tmpfs, which would hold the ids in memory after all. An absolute path that
     * must be a writable directory on every worker; a task checks it when it starts.
     */
    public Builder withSpillDirectory(String directory) {
      this.spillDirectory = directory;
      return this;
    }

    /** Asks Storm for a tick tuple every {@code seconds}, so age thresholds fire in a lull. */
    public Builder withTickIntervalSecs(int seconds) {
      this.tickIntervalSecs = (int) requireNonNegative(seconds, "withTickIntervalSecs");
      return this;
    }

    /**
     * Split sink: the committer commits pending descriptors once the first of them has waited this
     * long (checked on every descriptor and tick). Must be positive.
     */
    public Builder withGroupCommitIntervalMillis(long millis) {
      if (millis <= 0) {
        throw new IllegalArgumentException("withGroupCommitIntervalMillis must be positive, got " + millis);
      }
      this.groupCommitIntervalMillis = millis;
      return this;
    }

    /** Split sink: the committer commits once this many data files are pending. Must be positive. */
    public Builder withGroupCommitMaxDataFiles(int dataFiles) {
      if (dataFiles <= 0) {
        throw new IllegalArgumentException("withGroupCommitMaxDataFiles must be positive, got " + dataFiles);
      }
      this.groupCommitMaxDataFiles = dataFiles;
      return this;
    }

    /**
     * Adds a seal policy by provider name, with its properties (for example {@code
     * withSealPolicy("open-files", Map.of("max-partitions", "64"))}). Several may be added; the
     * batch seals on the first threshold crossed, among them and the commit intervals.
     */
    public Builder withSealPolicy(String name, Map<String, String> properties) {
      this.sealPolicyChoices.add(ProviderChoice.named(SealPolicyFactory.class, name, properties));
      return this;
    }

    /** Adds a seal policy instance; it travels with the topology, so it must be serializable. */
    public Builder withSealPolicy(SealPolicy policy) {
      this.sealPolicyChoices.add(ProviderChoice.instance(policy));
      return this;
    }

    /**
     * How many times a commit whose outcome is ambiguous (the catalog's answer was lost) is appended
     * again, with the same files under the same commit id, before its batch is failed; 0 to fail
     * at once. See README.md, "Guarantees".
     */
    public Builder withCommitRetries(int retries) {
      this.commitRetries = (int) requireNonNegative(retries, "withCommitRetries");
      return this;
    }

    /** The wait before the first such retry; it doubles on each one, up to 30 s. */
    public Builder withCommitRetryBackoffMillis(long millis) {
      this.commitRetryBackoffMillis = requireNonNegative(millis, "withCommitRetryBackoffMillis");
      return this;
    }

    /**
     * A batch is never appended once its oldest tuple is older than {@code
     * topology.message.timeout.secs} less this margin: Storm would already have replayed its tuples,
     * so a late commit would duplicate them. Such a batch is failed (and counted in {@code
     * iceberg-batches-expired}), and every commit attempt, Iceberg's own conflict retries included,
     * stops at that deadline. The margin covers one catalog call; it must be below the message
     * timeout (checked when the task starts). Default {@value #DEFAULT_COMMIT_DEADLINE_MARGIN_MILLIS}.
     */
    public Builder withCommitDeadlineMarginMillis(long millis) {
      this.commitDeadlineMarginMillis = requireNonNegative(millis, "withCommitDeadlineMarginMillis");
      return this;
    }

    /** Adds a property to every snapshot summary the sink commits. */
    public Builder withSnapshotProperty(String key, String value) {
      this.snapshotProperties.put(key, value);
      return this;
    }

    /**
     * Validates everything and returns the options. Throws {@link IllegalArgumentException} whose
     * message says what to change.
     */
    public IcebergOptions build() {
      OptionsChecks.requireCatalog(catalogProperties);
      SecretReferences.validate(catalogProperties);
      OptionsChecks.requireTable(table);
      OptionsChecks.requireAutoCreateSpecMatchesSchema(autoCreateSchema, autoCreateSpec);
      OptionsChecks.requireName(walNamespace, "withWalNamespace");
      OptionsChecks.requireAbsolutePath(spillDirectory, "withSpillDirectory");
      OptionsChecks.requireName(catalogName, "withCatalogName");
      snapshotProperties.keySet().forEach(OptionsChecks::requireUserSummaryKey);
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      recordMapper.validate(loader);
      walStore.validate(loader);
      if (fileFormat != null) {
        fileFormat.validate(loader);
      }
      sealPolicyChoices.forEach(choice -> choice.validate(loader));
      return new IcebergOptions(this);
    }

    private static long requireNonNegative(long value, String setter) {
      return OptionsChecks.requireNonNegative(value, setter);
    }
  }
}
