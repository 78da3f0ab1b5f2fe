package org.apache.storm.iceberg.wal;

import org.apache.storm.iceberg.spi.contract.WalStoreContractTest;

class TableFileIoWalStoreContractTest extends WalStoreContractTest {
  @Override
  protected String providerName() {
    return TableFileIoWalStoreFactory.NAME;
  }
}
