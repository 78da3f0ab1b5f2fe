package org.apache.storm.iceberg.wal;

import com.google.auto.service.AutoService;
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.spi.ProviderProperties;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;

/**
 * Registers the {@code "hadoop-fs"} WAL store. Property {@code path} (required): the Hadoop file
 * system directory entries go under, for example {@code hdfs://namenode/storm-iceberg-wal}.
 */
@AutoService(WalStoreFactory.class)
public class HadoopFsWalStoreFactory implements WalStoreFactory {
  public static final String NAME = "hadoop-fs";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public WalStore create(Map<String, String> properties) {
    ProviderProperties.check("WAL store 'hadoop-fs'", properties, Set.of("path"), Set.of());
    return new HadoopFsWalStore(properties.get("path"));
  }
}
