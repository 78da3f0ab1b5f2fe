package org.apache.storm.iceberg.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Smoke test: the Quick start example runs end to end and reports what it committed. */
class IcebergBoltExampleTopologyTest {
  @TempDir Path warehouse;

  @Test
  void theExampleCommitsEveryEventAndSaysSo() throws Exception {
    String first = IcebergBoltExampleTopology.run(warehouse, 3_000);
    assertThat(first).startsWith("storm-iceberg example: 3000 events acked in ").contains("the table now holds 3000 rows");

    String second = IcebergBoltExampleTopology.run(warehouse, 1_000);
    assertThat(second).contains("committed to examples.events").contains(": 1000 rows in ").contains("the table now holds 4000 rows");
  }
}
