package org.apache.storm.iceberg.kernel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.IcebergOptions;

/**
 * Builds {@link IcebergOptions} from a map, as Flux YAML gives one (nested maps and lists, values
 * as strings or numbers). Every key maps to one builder method, and the result goes through {@link
 * IcebergOptions.Builder#build()}, so the same checks and messages apply. An unknown key fails with
 * the list of known keys.
 *
 * <p>{@code auto-create.schema} is a list of {@code "name type [required]"} columns (primitive
 * types, for example {@code "event_time timestamptz"}), or a string holding Iceberg's schema JSON.
 * {@code auto-create.spec} is a list of transforms ({@code "region"}, {@code "day(event_time)"},
 * {@code "bucket(16, id)"}, {@code "truncate(4, name)"}), or Iceberg's spec JSON.
 */
public final class OptionsMap {
  private static final Set<String> KEYS =
      Set.of(
          "catalog-name", "catalog", "table", "commit-interval-records", "commit-interval-bytes",
          "commit-interval-millis", "tick-interval-secs", "auto-create", "record-mapper", "file-format",
          "wal-store", "wal-namespace", "spill-directory", "seal-policies", "snapshot-properties", "group-commit-interval-millis",
          "group-commit-max-data-files", "commit-retries", "commit-retry-backoff-millis",
          "commit-deadline-margin-millis");
  private static final Pattern TRANSFORM = Pattern.compile("(\\w+)\\(\\s*(?:(\\d+)\\s*,\\s*)?([\\w.]+)\\s*\\)");

  private OptionsMap() {}

  public static IcebergOptions toOptions(Map<String, ?> config) {
    Set<String> unknown = new TreeSet<>(config.keySet());
    unknown.removeAll(KEYS);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown IcebergOptions keys " + unknown + "; known keys are " + new TreeSet<>(KEYS));
    }
    IcebergOptions.Builder builder = new IcebergOptions.Builder();
    if (config.containsKey("catalog-name")) {
      builder.withCatalogName(text(config, "catalog-name"));
    }
    builder.withCatalogProperties(strings(map(config, "catalog")));
    builder.withTable(text(config, "table"));
    whole(config, "commit-interval-records").ifPresent(builder::withCommitIntervalRecords);
    whole(config, "commit-interval-bytes").ifPresent(builder::withCommitIntervalBytes);
    whole(config, "commit-interval-millis").ifPresent(builder::withCommitIntervalMillis);
    whole(config, "tick-interval-secs").ifPresent(v -> builder.withTickIntervalSecs(Math.toIntExact(v)));
    whole(config, "group-commit-interval-millis").ifPresent(builder::withGroupCommitIntervalMillis);
    whole(config, "group-commit-max-data-files").ifPresent(v -> builder.withGroupCommitMaxDataFiles(Math.toIntExact(v)));
    whole(config, "commit-retries").ifPresent(v -> builder.withCommitRetries(Math.toIntExact(v)));
    whole(config, "commit-retry-backoff-millis").ifPresent(builder::withCommitRetryBackoffMillis);
    whole(config, "commit-deadline-margin-millis").ifPresent(builder::withCommitDeadlineMarginMillis);
    if (config.containsKey("wal-namespace")) {
      builder.withWalNamespace(text(config, "wal-namespace"));
    }
    if (config.containsKey("spill-directory")) {
      builder.withSpillDirectory(text(config, "spill-directory"));
    }
    if (config.containsKey("auto-create")) {
      autoCreate(builder, map(config, "auto-create"));
    }
    provider(config, "record-mapper", builder::withRecordMapper);
    provider(config, "file-format", builder::withFileFormat);
    provider(config, "wal-store", builder::withWalStore);
    if (config.containsKey("seal-policies")) {
      for (Object policy : list(config, "seal-policies")) {
        Map<String, String> props = strings(asMap(policy, "seal-policies entry"));
        String name = props.remove("name");
        if (name == null) {
          throw new IllegalArgumentException("each seal-policies entry needs a 'name', got " + policy);
        }
        builder.withSealPolicy(name, props);
      }
    }
    if (config.containsKey("snapshot-properties")) {
      strings(map(config, "snapshot-properties")).forEach(builder::withSnapshotProperty);
    }
    return builder.build();
  }

  private interface ProviderSetter {
    void set(String name, Map<String, String> properties);
  }

  /** A provider given as a name, or as a map with a {@code name} and its properties. */
  private static void provider(Map<String, ?> config, String key, ProviderSetter setter) {
    Object value = config.get(key);
    if (value == null) {
      return;
    }
    if (value instanceof Map) {
      Map<String, String> props = strings(asMap(value, key));
      String name = props.remove("name");
      if (name == null) {
        throw new IllegalArgumentException("'" + key + "' needs a 'name', got " + value);
      }
      setter.set(name, props);
    } else {
      setter.set(value.toString(), Map.of());
    }
  }

  private static void autoCreate(IcebergOptions.Builder builder, Map<String, ?> autoCreate) {
    Object schemaValue = autoCreate.get("schema");
    if (schemaValue == null) {
      throw new IllegalArgumentException("'auto-create' needs a 'schema': a list of \"name type [required]\" columns or Iceberg schema JSON");
    }
    Schema schema = schemaValue instanceof List ? columns((List<?>) schemaValue) : SchemaParser.fromJson(schemaValue.toString());
    Object specValue = autoCreate.get("spec");
    PartitionSpec spec =
        specValue == null
            ? PartitionSpec.unpartitioned()
            : specValue instanceof List ? transforms(schema, (List<?>) specValue) : PartitionSpecParser.fromJson(schema, specValue.toString());
    Map<String, String> properties = autoCreate.containsKey("properties") ? strings(map(autoCreate, "properties")) : Map.of();
    builder.withAutoCreate(schema, spec, properties);
  }

  private static Schema columns(List<?> columns) {
    List<Types.NestedField> fields = new ArrayList<>();
    int id = 1;
    for (Object column : columns) {
      String[] parts = column.toString().trim().split("\\s+");
      boolean required = parts.length == 3 && parts[2].equalsIgnoreCase("required");
      if (parts.length < 2 || parts.length > 3 || (parts.length == 3 && !required)) {
        throw new IllegalArgumentException("auto-create column '" + column + "' is not \"name type [required]\"");
      }
      Types.NestedField.Builder field = required ? Types.NestedField.required(parts[0]) : Types.NestedField.optional(parts[0]);
      fields.add(field.withId(id++).ofType(Types.fromPrimitiveString(parts[1].toLowerCase(Locale.ROOT))).build());
    }
    return new Schema(fields);
  }

  private static PartitionSpec transforms(Schema schema, List<?> transforms) {
    PartitionSpec.Builder spec = PartitionSpec.builderFor(schema);
    for (Object value : transforms) {
      String transform = value.toString().trim();
      Matcher call = TRANSFORM.matcher(transform);
      if (!call.matches()) {
        spec.identity(transform);
        continue;
      }
      String function = call.group(1).toLowerCase(Locale.ROOT);
      String column = call.group(3);
      switch (function) {
        case "identity" -> spec.identity(column);
        case "year", "years" -> spec.year(column);
        case "month", "months" -> spec.month(column);
        case "day", "days" -> spec.day(column);
        case "hour", "hours" -> spec.hour(column);
        case "bucket" -> spec.bucket(column, Integer.parseInt(requireWidth(call, transform)));
        case "truncate" -> spec.truncate(column, Integer.parseInt(requireWidth(call, transform)));
        default -> throw new IllegalArgumentException("unknown partition transform '" + transform + "'");
      }
    }
    return spec.build();
  }

  private static String requireWidth(Matcher call, String transform) {
    if (call.group(2) == null) {
      throw new IllegalArgumentException("partition transform '" + transform + "' needs a width, as in bucket(16, id)");
    }
    return call.group(2);
  }

  private static String text(Map<String, ?> config, String key) {
    Object value = config.get(key);
    if (value == null) {
      throw new IllegalArgumentException("'" + key + "' is required");
    }
    return value.toString();
  }

  private static java.util.Optional<Long> whole(Map<String, ?> config, String key) {
    Object value = config.get(key);
    if (value == null) {
      return java.util.Optional.empty();
    }
    try {
      return java.util.Optional.of(value instanceof Number ? ((Number) value).longValue() : Long.parseLong(value.toString().trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + key + "' must be a whole number, got '" + value + "'", e);
    }
  }

  private static Map<String, ?> map(Map<String, ?> config, String key) {
    return asMap(config.get(key), key);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, ?> asMap(Object value, String what) {
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException("'" + what + "' must be a map, got " + value);
    }
    return (Map<String, ?>) value;
  }

  private static List<?> list(Map<String, ?> config, String key) {
    Object value = config.get(key);
    if (!(value instanceof List)) {
      throw new IllegalArgumentException("'" + key + "' must be a list, got " + value);
    }
    return (List<?>) value;
  }

  private static Map<String, String> strings(Map<String, ?> values) {
    Map<String, String> strings = new LinkedHashMap<>();
    values.forEach((k, v) -> strings.put(k, v == null ? null : v.toString()));
    return strings;
  }
}
