package org.apache.storm.iceberg.wal;

import com.google.auto.service.AutoService;
import java.util.Map;
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
    String path = properties.get("path");
    if (path == null || path.isBlank() || properties.size() != 1) {
      throw new IllegalArgumentException(
          "WAL store 'hadoop-fs' takes exactly one property, 'path' (a Hadoop file system directory such as"
              + " hdfs://namenode/storm-iceberg-wal), got " + properties.keySet());
    }
    return new HadoopFsWalStore(path);
  }
}
