package org.apache.storm.iceberg.wal;

import com.google.auto.service.AutoService;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.spi.ProviderProperties;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;

/**
 * Registers the default WAL store, {@code "table-fileio"}. It takes no properties, and refuses a
 * table whose FileIO cannot list by prefix.
 */
@AutoService(WalStoreFactory.class)
public class TableFileIoWalStoreFactory implements WalStoreFactory {
  public static final String NAME = "table-fileio";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public WalStore create(Map<String, String> properties) {
    ProviderProperties.check("WAL store 'table-fileio'", properties, Set.of(), Set.of());
    return new TableFileIoWalStore();
  }

  @Override
  public void validate(Table table) {
    TableFileIoWalStore.requireListable(table);
  }
}
