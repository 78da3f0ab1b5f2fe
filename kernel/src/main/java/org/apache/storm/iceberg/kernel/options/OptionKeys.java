package org.apache.storm.iceberg.kernel.options;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.ObjIntConsumer;
import java.util.function.ObjLongConsumer;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;

/**
 * The keys of {@code IcebergOptions.fromMap}, each bound to the one builder call it makes, and the
 * reading of a map, as Flux YAML gives one (nested maps and lists, values as strings or numbers),
 * through them. An unknown key fails with the list of known keys; a value of the wrong shape fails
 * naming its key. The builder's own checks apply to what is read.
 *
 * @param <B> the builder the keys call
 */
public final class OptionKeys<B> {
  /** Reads one key's value and calls the builder with it; {@code key} names the value in messages. */
  public interface Reader<B> {
    void read(B builder, String key, Object value);
  }

  /** A builder call that takes a name and a value, such as a provider and its properties. */
  public interface NamedSetter<B, V> {
    void set(B builder, String name, V value);
  }

  /** A builder call that takes a table's schema, spec and properties. */
  public interface AutoCreateSetter<B> {
    void set(B builder, Schema schema, PartitionSpec spec, Map<String, String> properties);
  }

  private final Map<String, Reader<B>> readers = new LinkedHashMap<>();
  private final Set<String> required = new TreeSet<>();

  /** Binds {@code key}, which every map must have, to {@code reader}. */
  public OptionKeys<B> required(String key, Reader<B> reader) {
    required.add(key);
    return optional(key, reader);
  }

  /** Binds {@code key} to {@code reader}; an absent key leaves the builder's default. */
  public OptionKeys<B> optional(String key, Reader<B> reader) {
    readers.put(key, reader);
    return this;
  }

  /** Every key bound. */
  public Set<String> keys() {
    return new TreeSet<>(readers.keySet());
  }

  /** Calls {@code builder} once for each key in {@code config}, in the order the keys were bound. */
  public B read(Map<String, ?> config, B builder) {
    Set<String> unknown = new TreeSet<>(config.keySet());
    unknown.removeAll(readers.keySet());
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown IcebergOptions keys " + unknown + "; known keys are " + keys());
    }
    readers.forEach((key, reader) -> {
      Object value = config.get(key);
      if (value != null) {
        reader.read(builder, key, value);
      } else if (required.contains(key)) {
        throw new IllegalArgumentException("'" + key + "' is required");
      }
    });
    return builder;
  }

  public static <B> Reader<B> text(BiConsumer<B, String> setter) {
    return (builder, key, value) -> setter.accept(builder, value.toString());
  }

  public static <B> Reader<B> wholeNumber(ObjLongConsumer<B> setter) {
    return (builder, key, value) -> setter.accept(builder, wholeNumber(key, value));
  }

  public static <B> Reader<B> wholeInt(ObjIntConsumer<B> setter) {
    return (builder, key, value) -> setter.accept(builder, Math.toIntExact(wholeNumber(key, value)));
  }

  public static <B> Reader<B> stringMap(BiConsumer<B, Map<String, String>> setter) {
    return (builder, key, value) -> setter.accept(builder, strings(asMap(value, key)));
  }

  /** A map whose every entry is one call, such as {@code snapshot-properties}. */
  public static <B> Reader<B> eachEntry(NamedSetter<B, String> setter) {
    return (builder, key, value) -> strings(asMap(value, key)).forEach((k, v) -> setter.set(builder, k, v));
  }

  /** A provider given as a name, or as a map with a {@code name} and its properties. */
  public static <B> Reader<B> provider(NamedSetter<B, Map<String, String>> setter) {
    return (builder, key, value) -> {
      if (value instanceof Map) {
        Map<String, String> properties = strings(asMap(value, key));
        String name = properties.remove("name");
        if (name == null) {
          throw new IllegalArgumentException("'" + key + "' needs a 'name', got " + value);
        }
        setter.set(builder, name, properties);
      } else {
        setter.set(builder, value.toString(), Map.of());
      }
    };
  }

  /** A list of providers, each a map with a {@code name} and its properties. */
  public static <B> Reader<B> providerList(NamedSetter<B, Map<String, String>> setter) {
    return (builder, key, value) -> {
      if (!(value instanceof List<?> entries)) {
        throw new IllegalArgumentException("'" + key + "' must be a list, got " + value);
      }
      for (Object entry : entries) {
        Map<String, String> properties = strings(asMap(entry, key + " entry"));
        String name = properties.remove("name");
        if (name == null) {
          throw new IllegalArgumentException("each " + key + " entry needs a 'name', got " + entry);
        }
        setter.set(builder, name, properties);
      }
    };
  }

  /** A builder call that takes a fraction and the window of records it is counted over. */
  public interface FractionSetter<B> {
    void set(B builder, double fraction, long perRecords);
  }

  /**
   * A fraction over a window of records: a map {@code {fraction: 0.01, per-records: 10000}}, or the
   * same as text, {@code "0.01/10000"}.
   */
  public static <B> Reader<B> fractionPerRecords(FractionSetter<B> setter) {
    return (builder, key, value) -> {
      Object fraction;
      Object perRecords;
      if (value instanceof Map) {
        Map<String, ?> map = asMap(value, key);
        Set<String> unknown = new TreeSet<>(map.keySet());
        unknown.removeAll(Set.of("fraction", "per-records"));
        fraction = map.get("fraction");
        perRecords = map.get("per-records");
        if (!unknown.isEmpty() || fraction == null || perRecords == null) {
          throw new IllegalArgumentException("'" + key + "' takes {fraction: 0.01, per-records: 10000} or \"0.01/10000\", got " + value);
        }
      } else {
        String[] parts = value.toString().split("/", -1);
        if (parts.length != 2) {
          throw new IllegalArgumentException("'" + key + "' takes {fraction: 0.01, per-records: 10000} or \"0.01/10000\", got '" + value + "'");
        }
        fraction = parts[0];
        perRecords = parts[1];
      }
      double parsed;
      try {
        parsed = fraction instanceof Number number ? number.doubleValue() : Double.parseDouble(fraction.toString().trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + key + "' needs a decimal fraction such as 0.01, got '" + fraction + "'", e);
      }
      setter.set(builder, parsed, wholeNumber(key, perRecords));
    };
  }

  /** An {@code auto-create} map: {@code schema}, and optionally {@code spec} and {@code properties}. */
  public static <B> Reader<B> autoCreate(AutoCreateSetter<B> setter) {
    return (builder, key, value) -> {
      Map<String, ?> autoCreate = asMap(value, key);
      Schema schema = AutoCreateValues.schema(autoCreate.get("schema"));
      PartitionSpec spec = AutoCreateValues.spec(schema, autoCreate.get("spec"));
      Object properties = autoCreate.get("properties");
      setter.set(builder, schema, spec, properties == null ? Map.of() : strings(asMap(properties, "properties")));
    };
  }

  private static long wholeNumber(String key, Object value) {
    try {
      return value instanceof Number number ? number.longValue() : Long.parseLong(value.toString().trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + key + "' must be a whole number, got '" + value + "'", e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, ?> asMap(Object value, String what) {
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException("'" + what + "' must be a map, got " + value);
    }
    return (Map<String, ?>) value;
  }

  private static Map<String, String> strings(Map<String, ?> values) {
    Map<String, String> strings = new LinkedHashMap<>();
    values.forEach((k, v) -> strings.put(k, v == null ? null : v.toString()));
    return strings;
  }
}
