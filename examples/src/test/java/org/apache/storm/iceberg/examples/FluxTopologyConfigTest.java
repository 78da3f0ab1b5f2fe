package org.apache.storm.iceberg.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.storm.Config;
import org.apache.storm.flux.FluxBuilder;
import org.apache.storm.flux.model.ExecutionContext;
import org.apache.storm.flux.model.TopologyDef;
import org.apache.storm.flux.parser.FluxParser;
import org.apache.storm.iceberg.IcebergOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Flux's {@code config:} section, and {@code storm jar -c} over it, reach IcebergOptions when Flux builds the topology. */
class FluxTopologyConfigTest {
  @AfterEach
  void clearCommandLine() {
    System.clearProperty("storm.options");
  }

  @Test
  void theConfigSectionOverridesFromMapsArgument() throws Exception {
    IcebergOptions options = optionsBuiltByFlux();
    assertThat(options.table()).isEqualTo("examples.from_config");
    assertThat(options.commitIntervalRecords()).isEqualTo(5000);
    assertThat(options.commitIntervalMillis()).as("only in fromMap's argument").isEqualTo(2000);
  }

  @Test
  void stormJarDashCOverridesTheConfigSection() throws Exception {
    // What `storm jar app.jar org.apache.storm.flux.Flux --remote ... -c iceberg.table=examples.from_command_line` sets.
    System.setProperty("storm.options", URLEncoder.encode("iceberg.table=examples.from_command_line", StandardCharsets.UTF_8));
    assertThat(optionsBuiltByFlux().table()).isEqualTo("examples.from_command_line");
  }

  private static IcebergOptions optionsBuiltByFlux() throws Exception {
    TopologyDef definition = FluxParser.parseResource("/flux/topology-config.yaml", false, true, null, false);
    Config conf = FluxBuilder.buildConfig(definition);
    ExecutionContext context = new ExecutionContext(definition, conf);
    FluxBuilder.buildTopology(context);
    return (IcebergOptions) context.getComponent("icebergOptions");
  }
}
