package org.apache.storm.iceberg.kernel;

import java.nio.file.Path;
import java.util.Map;

class TableFileIoWalStoreContractTest extends WalStoreContractTest {
  @Override
  String providerName() {
    return "table-fileio";
  }

  @Override
  Map<String, String> providerProperties(Path dir) {
    return Map.of();
  }
}
