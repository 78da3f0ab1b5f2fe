package org.apache.storm.iceberg.kernel.options;

import java.util.Objects;
import java.util.function.Function;

/**
 * Hands the settings inside an {@code IcebergOptions} to the public classes of other API packages
 * (the Trident states), so that {@code IcebergOptions} needs no public method returning an internal
 * type. {@code IcebergOptions} registers its reader when its class initializes, which is before any
 * instance exists to be read. Typed {@code Object} so that this internal package does not depend on
 * the public one.
 */
public final class OptionsAccess {
  private static volatile Function<Object, SinkSettings> reader;

  private OptionsAccess() {}

  /** Called once, by {@code IcebergOptions}. */
  public static void register(Function<Object, SinkSettings> settingsReader) {
    reader = Objects.requireNonNull(settingsReader);
  }

  /** The settings of {@code options}, an {@code IcebergOptions}. */
  public static SinkSettings settings(Object options) {
    return reader.apply(Objects.requireNonNull(options, "options"));
  }
}
