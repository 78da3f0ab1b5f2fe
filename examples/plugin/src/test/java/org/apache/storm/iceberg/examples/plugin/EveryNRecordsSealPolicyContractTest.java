package org.apache.storm.iceberg.examples.plugin;

import java.util.Map;
import org.apache.storm.iceberg.spi.BatchStats;
import org.apache.storm.iceberg.spi.contract.SealPolicyContractTest;

/** The plug-in's seal policy keeps the SPI's contract, as every provider's test should check. */
class EveryNRecordsSealPolicyContractTest extends SealPolicyContractTest {
  @Override
  protected String providerName() {
    return "every-n";
  }

  @Override
  protected Map<String, String> properties() {
    return Map.of("n", "7");
  }

  @Override
  protected BatchStats belowThreshold() {
    return new BatchStats(6, 1_000, 500, 1, 1, 1_000_000);
  }

  @Override
  protected BatchStats atThreshold() {
    return new BatchStats(7, 1_000, 500, 1, 1, 1_000_000);
  }
}
