package org.apache.storm.iceberg.mappers;

import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.spi.ProviderProperties;

/** Reads a mapper provider's string properties, refusing unknown keys ({@link ProviderProperties}) and malformed values. */
final class MapperProperties {
  private final String mapper;
  private final Map<String, String> properties;

  MapperProperties(String mapper, Map<String, String> properties, Set<String> known) {
    this.mapper = mapper;
    this.properties = properties;
    ProviderProperties.check("record mapper '" + mapper + "'", properties, Set.of(), known);
  }

  boolean flag(String key) {
    String value = properties.getOrDefault(key, "false").trim();
    if (!value.equals("true") && !value.equals("false")) {
      throw new IllegalArgumentException(
          "record mapper '" + mapper + "': property '" + key + "' must be true or false, got '" + value + "'");
    }
    return Boolean.parseBoolean(value);
  }

  String string(String key, String defaultValue) {
    String value = properties.getOrDefault(key, defaultValue);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("record mapper '" + mapper + "': property '" + key + "' must not be blank");
    }
    return value;
  }
}
