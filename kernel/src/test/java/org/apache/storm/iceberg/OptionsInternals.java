package org.apache.storm.iceberg;

import org.apache.storm.iceberg.kernel.options.SinkSettings;

/** Lets kernel tests open stages from options, as the bolts do. */
public final class OptionsInternals {
  private OptionsInternals() {}

  /** What the bolts hand the stages of a sink built from {@code options}. */
  public static SinkSettings settings(IcebergOptions options) {
    return options.settings();
  }
}
