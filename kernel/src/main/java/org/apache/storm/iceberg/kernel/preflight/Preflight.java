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


package org.apache.storm.iceberg.kernel.preflight;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.kernel.batch.FileFormats;
import org.apache.storm.iceberg.kernel.change.ChangeKey;
import org.apache.storm.iceberg.kernel.commit.CommitBranch;
import org.apache.storm.iceberg.kernel.options.ProviderChoice;
import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.spi.SecretProperties;
import org.apache.storm.iceberg.spi.SecretReferences;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.kernel.table.WorkerHadoopConfiguration;
import org.apache.storm.iceberg.spi.FieldMatchingMapper;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;

/**
 * Checks one sink end to end from where it is called, as its tasks would at prepare, without
 * writing anything that stays: secret references, the catalog, the table (or what auto-create would
 * create: staged, never committed), its format version and the write mode's key, the branch, the
 * mapper's columns, Hadoop for Parquet and ORC, a probe data file and a probe WAL entry (both
 * deleted). Checks that need the topology are {@code IcebergTopologies}'.
 *
 * <p>Assumption: this JVM sees the catalog, the storage and the secrets as the workers will. What
 * differs on the workers (their environment variables, their classpath) the lines say they checked
 * here.
 */
public final class Preflight {
  private final SinkSettings settings;
  private final ClassLoader loader;
  private final List<Line> lines = new ArrayList<>();

  private Preflight(SinkSettings settings, ClassLoader loader) {
    this.settings = settings;
    this.loader = loader;
  }

  /** How one check came out (the public report's statuses, which this internal stage does not import). */
  public enum Status {
    PASS,
    WARN,
    FAIL
  }

  /** One check's result: its status, its one-word name, what was found (and for a FAIL, the fix). */
  public record Line(Status status, String check, String message) {}

  /**
   * @param tupleFields the fields the sink's tuples carry, or null when unknown
   * @return one line per check, in the order they ran
   */
  public static List<Line> run(SinkSettings settings, List<String> tupleFields, ClassLoader loader) {
    Preflight preflight = new Preflight(settings, loader);
    preflight.checkAll(tupleFields);
    return List.copyOf(preflight.lines);
  }

  private void checkAll(List<String> tupleFields) {
    check("secrets", this::secrets);
    Catalog catalog = check("catalog", () -> OpenedTable.loadCatalog(settings.target()), this::catalogListed);
    if (catalog == null) {
      notChecked("table", "the catalog did not load");
      return;
    }
    try {
      if (settings.target().table() == null) {
        add(Status.WARN, "table", "tables are routed per tuple: each is checked when its first tuple opens it"
            + (settings.routing().allowedNamespaces().isEmpty() ? "" : "; allowed namespaces " + settings.routing().allowedNamespaces()));
        return;
      }
      TargetTable target = check("table", () -> targetTable(catalog), TargetTable::description);
      if (target != null && !target.namespaceMissing()) {
        checkTable(target, tupleFields);
      } else {
        notChecked("storage", target == null ? "no table to write" : "the table's location is known once its namespace exists");
      }
    } finally {
      OpenedTable.closeCatalog(catalog);
    }
  }

  private void checkTable(TargetTable target, List<String> tupleFields) {
    Table table = target.table();
    check("format-version", () -> {
      OpenedTable.requireWritableVersion(table);
      return "format version " + TableUtil.formatVersion(table) + " is written";
    });
    check("columns", () -> {
      OpenedTable.requireWritableColumns(table);
      return "every column type is written";
    });
    check("write-mode", () -> writeMode(table));
    check("branch", () -> branch(table));
    checkLine("mapper", () -> mapper(table, tupleFields));
    FileFormatWriter writer = check("format", () -> formatWriter(table), this::describeFormat);
    if (writer == null) {
      notChecked("hadoop", "no format writer");
    } else {
      check("hadoop", () -> hadoop(writer.format()));
    }
    FileFormat format = writer == null ? FileFormat.PARQUET : writer.format();
    try (StorageProbes.LocalLocation location = new StorageProbes.LocalLocation(target.exists() ? null : table.location())) {
      check("data-files", () -> StorageProbes.dataFile(table, format));
      check("wal", () -> wal(table));
    } catch (RuntimeException leftBehind) {
      add(Status.FAIL, "cleanup", Redaction.redact(String.valueOf(leftBehind.getMessage())));
    }
  }

  // The checks, in the order they run.

  private String secrets() {
    Map<String, String> all = new java.util.TreeMap<>(settings.target().catalogProperties());
    all.putAll(settings.target().hadoopConfiguration());
    List<String> references = all.entrySet().stream()
        .filter(entry -> SecretProperties.isSecret(entry.getKey()) && isReference(entry.getValue()))
        .map(entry -> entry.getKey() + " (" + entry.getValue() + ")")
        .toList();
    if (references.isEmpty()) {
      return "no env: or file: references among the catalog properties";
    }
    SecretReferences.resolve(settings.target().catalogProperties());
    SecretReferences.resolve(settings.target().hadoopConfiguration());
    return "resolvable on this host: " + String.join(", ", references) + " (workers resolve them on their own hosts)";
  }

  private static boolean isReference(String value) {
    return value != null && (value.startsWith("env:") || value.startsWith("file:"));
  }

  private String catalogListed(Catalog catalog) {
    String loaded = "catalog '" + settings.target().catalogName() + "' loaded (" + catalog.getClass().getSimpleName() + ")";
    if (!(catalog instanceof SupportsNamespaces namespaces)) {
      return loaded;
    }
    try {
      return loaded + " and lists " + namespaces.listNamespaces(Namespace.empty()).size() + " top-level namespaces";
    } catch (NoSuchNamespaceException empty) {
      // A Hadoop catalog whose warehouse directory does not exist yet: the first table creates it.
      return loaded + "; it holds no namespace yet";
    }
  }

  /** The table, or what auto-create would create, staged in a transaction that is never committed. */
  private TargetTable targetTable(Catalog catalog) {
    SinkSettings.CatalogTarget target = settings.target();
    TableIdentifier identifier = target.tableIdentifier();
    try {
      return new TargetTable(catalog.loadTable(identifier), true, false);
    } catch (NoSuchTableException missing) {
      if (target.autoCreate() == null) {
        throw new IllegalStateException("Table " + target.table() + " does not exist in catalog '" + target.catalogName()
            + "' and auto-create is off: create the table, or set withAutoCreate(schema, spec) (Flux auto-create)");
      }
    }
    SinkSettings.AutoCreate create = target.autoCreate();
    try {
      Transaction staged = catalog.newCreateTableTransaction(identifier, create.schema(), create.spec(), OpenedTable.creationProperties(create));
      return new TargetTable(staged.table(), false, false);
    } catch (NoSuchNamespaceException missingNamespace) {
      // Catalogs that keep namespaces apart from tables stage a table only in an existing namespace.
      return new TargetTable(null, false, true);
    }
  }

  /**
   * @param table the table, or the one auto-create would create (uncommitted); null when its namespace is missing too
   * @param exists whether the table exists
   * @param namespaceMissing whether auto-create would create its namespace first
   */
  private record TargetTable(Table table, boolean exists, boolean namespaceMissing) {
    String description() {
      if (namespaceMissing) {
        return "does not exist, nor does its namespace: auto-create would create both (nothing was created)";
      }
      String shape = "format v" + TableUtil.formatVersion(table) + ", " + table.schema().columns().size() + " columns "
          + columns(table.schema().columns()) + ", partitioned by " + partitioning(table)
          + ", at " + table.location();
      return exists ? table.name() + " exists: " + shape : "does not exist: auto-create would create it (nothing was created): " + shape;
    }
  }

  private String writeMode(Table table) {
    SinkSettings.RowLevel rowLevel = settings.rowLevel();
    String mode = rowLevel.mode().name().toLowerCase(Locale.ROOT);
    if (!rowLevel.byKey()) {
      return mode + ": every record is appended";
    }
    ChangeKey key = ChangeKey.of(table, rowLevel);
    Schema schema = table.schema();
    List<String> keyNames = java.util.Arrays.stream(key.fieldIds()).mapToObj(schema::findColumnName).toList();
    return mode + " by key " + keyNames + " (the table's identifier fields: " + schema.identifierFieldNames() + "); partition"
        + " columns " + table.spec().fields().stream().map(field -> schema.findColumnName(field.sourceId())).toList()
        + " are key columns";
  }

  private String branch(Table table) {
    String name = settings.commits().branch();
    new CommitBranch(name).requireCommittable(table);
    return table.refs().containsKey(name) ? "commits go to branch " + name
        : "branch " + name + " does not exist yet: the first commit creates it from main's current snapshot";
  }

  /**
   * The mapper's columns against the table. A field-matching mapper's matching is judged leniently,
   * as the most forgiving mapper would match: by name or former name, ignoring case. A column with a
   * write default need not be given.
   */
  private Line mapper(Table table, List<String> tupleFields) {
    Schema schema = table.schema();
    SinkSettings.Providers providers = settings.providers();
    ProviderChoice<?> choice = providers.multiRecordMapper() != null ? providers.multiRecordMapper() : providers.recordMapper();
    Object mapper = choice.resolve(loader);
    String name = choice.name() != null ? "mapper '" + choice.name() + "'" : "mapper " + mapper.getClass().getName();
    List<Types.NestedField> required = schema.columns().stream().filter(column -> column.isRequired() && column.writeDefault() == null)
        .toList();
    List<Types.NestedField> optional = schema.columns().stream().filter(column -> !required.contains(column)).toList();
    String fills = "a tuple must give " + (required.isEmpty() ? "no column" : columns(required))
        + (optional.isEmpty() ? "" : "; " + columns(optional) + " take their default or null when it does not");
    if (!(mapper instanceof FieldMatchingMapper)) {
      return new Line(Status.PASS, "mapper", name + " reads tuples its own way: " + fills);
    }
    if (tupleFields == null) {
      return new Line(Status.PASS, "mapper", name + " fills each column from the tuple field of its name: " + fills);
    }
    FormerNamesSchema named = FormerNamesSchema.of(schema, table.schemas().values());
    List<String> missing = required.stream().filter(column -> fieldOf(named, column, tupleFields) == null)
        .map(Types.NestedField::name).toList();
    if (!missing.isEmpty()) {
      throw new IllegalStateException("the tuples carry fields " + tupleFields + " but not the required column(s) " + missing
          + " of table " + settings.target().table() + ": every tuple would be refused; declare those fields upstream,"
          + " or make the columns optional");
    }
    List<String> filled = schema.columns().stream().map(column -> fieldOf(named, column, tupleFields)).filter(Objects::nonNull)
        .toList();
    List<String> unmatched = tupleFields.stream().filter(field -> filled.stream().noneMatch(field::equalsIgnoreCase))
        .filter(field -> !field.equals(settings.rowLevel().operationField()) && !field.equals(settings.rowLevel().sequenceField()))
        .toList();
    List<String> nulls = optional.stream().filter(column -> fieldOf(named, column, tupleFields) == null)
        .map(Types.NestedField::name).toList();
    String seen = name + " fills " + filled + " from the tuples' fields" + (nulls.isEmpty() ? "" : "; " + nulls
        + " will take their default or null");
    if (unmatched.isEmpty()) {
      return new Line(Status.PASS, "mapper", seen);
    }
    return new Line(Status.WARN, "mapper", seen + "; fields " + unmatched + " match no column: a strict mapper refuses"
        + " such tuples, otherwise the fields are dropped");
  }

  /** The tuple field that fills {@code column}: its name, else a former one, ignoring case; or null. */
  private static String fieldOf(FormerNamesSchema schema, Types.NestedField column, List<String> tupleFields) {
    List<String> names = new ArrayList<>(List.of(column.name()));
    names.addAll(schema.formerNames(column.fieldId()));
    for (String name : names) {
      for (String field : tupleFields) {
        if (field.equalsIgnoreCase(name)) {
          return field;
        }
      }
    }
    return null;
  }

  /** The writer the sink's batches would get, made with its write properties over the table's. */
  private FileFormatWriter formatWriter(Table table) {
    FileFormatWriter writer = FileFormats.of(settings.providers(), loader).writer(table);
    writer.writerFactory(table, table.schema());
    return writer;
  }

  private String describeFormat(FileFormatWriter writer) {
    Map<String, String> properties = settings.providers().writeProperties();
    return writer.format().name().toLowerCase(Locale.ROOT) + " files" + (properties.isEmpty() ? ", with the table's write properties"
        : ", with write properties " + properties + " over the table's");
  }

  private static String hadoop(FileFormat format) {
    if (format == FileFormat.AVRO) {
      return "not needed for avro files";
    }
    if (!WorkerHadoopConfiguration.hadoopPresent()) {
      throw new IllegalStateException(format.name().toLowerCase(Locale.ROOT) + " files are written with Hadoop's client"
          + " classes, which are not on this classpath: ship hadoop-client-api and hadoop-client-runtime with the"
          + " topology (storm jar --artifacts), or write avro (withFileFormat(\"avro\"))");
    }
    return "Hadoop's client classes are on this classpath (workers need them too, for "
        + format.name().toLowerCase(Locale.ROOT) + ")";
  }

  private String wal(Table table) {
    ProviderChoice<WalStore> choice = settings.providers().walStore();
    WalStore wal = choice.resolve(loader);
    if (choice.name() != null) {
      ProviderRegistry.find(WalStoreFactory.class, choice.name(), loader).validate(table);
    }
    return "WAL store " + (choice.name() != null ? "'" + choice.name() + "'" : wal.getClass().getName()) + ": "
        + StorageProbes.walEntry(wal, table, settings.commits().walNamespace());
  }

  // How each check is run and reported.

  private interface Body<T> {
    T run();
  }

  private void check(String name, Body<String> body) {
    checkLine(name, () -> new Line(Status.PASS, name, body.run()));
  }

  private void checkLine(String name, Body<Line> body) {
    try {
      lines.add(body.run());
    } catch (RuntimeException | LinkageError failed) {
      lines.add(failure(name, failed));
    }
  }

  /** Runs {@code body}, reports what {@code describe} says of its result, and returns it (null when it failed). */
  private <T> T check(String name, Body<T> body, java.util.function.Function<T, String> describe) {
    try {
      T result = body.run();
      lines.add(new Line(Status.PASS, name, describe.apply(result)));
      return result;
    } catch (RuntimeException | LinkageError failed) {
      lines.add(failure(name, failed));
      return null;
    }
  }

  private static Line failure(String name, Throwable failed) {
    String message = failed instanceof LinkageError
        ? "a class is missing from this classpath (" + failed + "): add the library that provides it"
        : String.valueOf(failed.getMessage());
    Throwable cause = failed.getCause();
    if (cause != null && cause.getMessage() != null && !message.contains(cause.getMessage())) {
      message += " (" + cause.getMessage() + ")";
    }
    return new Line(Status.FAIL, name, Redaction.redact(message));
  }

  private void notChecked(String name, String why) {
    add(Status.WARN, name, "not checked: " + why);
  }

  private void add(Status status, String name, String message) {
    lines.add(new Line(status, name, message));
  }

  private static String partitioning(Table table) {
    return table.spec().isUnpartitioned() ? "nothing" : table.spec().fields().stream()
        .map(field -> field.transform() + "(" + table.schema().findColumnName(field.sourceId()) + ")")
        .collect(Collectors.joining(", ", "[", "]"));
  }

  private static String columns(List<Types.NestedField> fields) {
    return fields.stream().map(field -> field.name() + " (" + field.type() + ")").collect(Collectors.joining(", ", "[", "]"));
  }
}
