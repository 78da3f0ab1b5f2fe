package org.apache.storm.iceberg.spi;

import org.apache.iceberg.Table;

/** Discovers {@link WalStore}s by name (the default is {@code "table-fileio"}). */
public interface WalStoreFactory extends ProviderFactory<WalStore> {
  /**
   * Checks, when a committing task starts, that this provider's stores can keep entries for {@code
   * table}; throws {@link IllegalStateException} saying what to use instead when they cannot. The
   * default accepts every table.
   */
  default void validate(Table table) {}
}
