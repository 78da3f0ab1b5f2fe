/**
 * Internal: the options stage. Not an API; anything here may change in any release.
 *
 * <p>It owns what a sink was configured with, as the stages read it: {@link
 * org.apache.storm.iceberg.kernel.options.SinkSettings} (small immutable records, built and checked
 * by {@code IcebergOptions.Builder}, which holds them), the providers chosen by name or instance
 * ({@link org.apache.storm.iceberg.kernel.options.ProviderChoice}), every check that {@code build()}
 * runs ({@link org.apache.storm.iceberg.kernel.options.OptionsChecks}), and the reading of {@code
 * IcebergOptions.fromMap} keys ({@link org.apache.storm.iceberg.kernel.options.OptionKeys}). The
 * public bolts hand the settings to the stages; no stage sees {@code IcebergOptions}.
 */
package org.apache.storm.iceberg.kernel.options;
