package org.apache.storm.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.storm.Config;
import org.junit.jupiter.api.Test;

class IcebergBoltTest {
  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder().withCatalogProperties(Map.of("type", "hadoop", "warehouse", "/tmp/w")).withTable("db.t");
  }

  @Test
  void declaresItsTickIntervalWhenSet() {
    assertThat(new IcebergBolt(options().withTickIntervalSecs(7).build()).getComponentConfiguration())
        .containsEntry(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 7);
  }

  @Test
  void declaresNoTicksWithoutAnAgeThresholdOrTickInterval() {
    assertThat(new IcebergBolt(options().build()).getComponentConfiguration()).isNull();
  }
}
