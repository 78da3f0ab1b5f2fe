package org.apache.storm.iceberg.kernel;

import java.nio.file.Path;
import java.util.Map;

class HadoopFsWalStoreContractTest extends WalStoreContractTest {
  @Override
  String providerName() {
    return "hadoop-fs";
  }

  @Override
  Map<String, String> providerProperties(Path dir) {
    return Map.of("path", dir.toUri().toString());
  }
}
