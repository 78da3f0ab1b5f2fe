package org.apache.storm.iceberg.spi;

/** Discovers {@link WalStore}s by name (the default is {@code "table-fileio"}). */
public interface WalStoreFactory extends ProviderFactory<WalStore> {}
