package org.apache.storm.iceberg.spi;

import java.util.Map;

/**
 * A named provider of one plug-in kind, discovered with {@link java.util.ServiceLoader}.
 *
 * <p>Implementations have a public no-arg constructor and are registered under their kind's factory
 * interface (usually with {@code @AutoService}). Names are unique per kind across the classpath; two
 * providers with one name are a configuration error, never a silent override.
 *
 * @param <T> what the provider creates
 */
public interface ProviderFactory<T> {
  /** The name users select this provider by, for example {@code "parquet"}. */
  String name();

  /**
   * Creates the plug-in from string properties, so it can be configured from topology config or
   * Flux YAML. Unknown or malformed properties throw {@link IllegalArgumentException} saying which.
   */
  T create(Map<String, String> properties);
}
