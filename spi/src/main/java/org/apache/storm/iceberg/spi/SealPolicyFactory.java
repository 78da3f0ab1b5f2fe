package org.apache.storm.iceberg.spi;

/** Discovers {@link SealPolicy}s by name ({@code "records"}, {@code "bytes"}, {@code "age"}). */
public interface SealPolicyFactory extends ProviderFactory<SealPolicy> {}
