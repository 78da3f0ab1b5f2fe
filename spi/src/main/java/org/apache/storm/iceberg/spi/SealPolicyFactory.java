package org.apache.storm.iceberg.spi;

/**
 * Discovers {@link SealPolicy}s by name ({@code "records"}, {@code "bytes"}, {@code "age"}, {@code
 * "open-files"} and {@code "wall-clock"} ship in the kernel).
 */
public interface SealPolicyFactory extends ProviderFactory<SealPolicy> {}
