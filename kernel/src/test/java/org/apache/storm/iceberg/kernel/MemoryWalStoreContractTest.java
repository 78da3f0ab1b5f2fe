package org.apache.storm.iceberg.kernel;

import java.util.Map;
import org.apache.storm.iceberg.spi.contract.WalStoreContractTest;

/** The test-only in-memory store the fault schedules use keeps the same contract. */
class MemoryWalStoreContractTest extends WalStoreContractTest {
  @Override
  protected String providerName() {
    return "test-memory";
  }

  @Override
  protected Map<String, String> properties() {
    return Map.of("space", dir.toString());
  }
}
