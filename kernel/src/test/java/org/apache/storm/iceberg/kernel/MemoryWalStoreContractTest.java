package org.apache.storm.iceberg.kernel;

import java.nio.file.Path;
import java.util.Map;

/** The test-only in-memory store the fault schedules use keeps the same contract. */
class MemoryWalStoreContractTest extends WalStoreContractTest {
  @Override
  String providerName() {
    return "test-memory";
  }

  @Override
  Map<String, String> providerProperties(Path dir) {
    return Map.of("space", dir.toString());
  }
}
