package org.apache.storm.iceberg.wal;

import java.util.Map;
import org.apache.storm.iceberg.spi.contract.WalStoreContractTest;

class HadoopFsWalStoreContractTest extends WalStoreContractTest {
  @Override
  protected String providerName() {
    return HadoopFsWalStoreFactory.NAME;
  }

  @Override
  protected Map<String, String> properties() {
    return Map.of("path", dir.resolve("wal-root").toUri().toString());
  }
}
