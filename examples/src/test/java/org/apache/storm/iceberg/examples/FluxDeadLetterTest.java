package org.apache.storm.iceberg.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.storm.Config;
import org.apache.storm.flux.FluxBuilder;
import org.apache.storm.flux.model.ExecutionContext;
import org.apache.storm.flux.model.TopologyDef;
import org.apache.storm.flux.parser.FluxParser;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.iceberg.DeadLetterFields;
import org.apache.storm.iceberg.IcebergOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dead-letter keys in Flux YAML: the options carry the stream and its bound, the bolt declares
 * the stream with its fields, and the reading bolt subscribes to it.
 */
class FluxDeadLetterTest {
  @TempDir Path dir;

  @Test
  void theYamlsDeadLetterKeysReachTheOptionsAndTheStreamIsWired() throws Exception {
    Path properties = dir.resolve("example.properties");
    Files.writeString(properties, "warehouse=" + dir.resolve("warehouse").toUri() + "\nrun_id=flux-dead-letters\n");
    TopologyDef definition = FluxParser.parseResource(
        "/flux/dead-letters.yaml", false, true, FluxParser.parseProperties(properties.toString(), false), false);
    Config conf = FluxBuilder.buildConfig(definition);
    ExecutionContext context = new ExecutionContext(definition, conf);
    StormTopology topology = FluxBuilder.buildTopology(context);

    IcebergOptions options = (IcebergOptions) context.getComponent("icebergOptions");
    assertThat(options.deadLetterStream()).isEqualTo("dead-letters");
    assertThat(options.toString()).contains("deadLetters=dead-letters (at most 0.01 of every 10000 tuples)");
    assertThat(topology.get_bolts().get("iceberg").get_common().get_streams().get("dead-letters").get_output_fields())
        .isEqualTo(DeadLetterFields.fields().toList());
    assertThat(topology.get_bolts().get("dead-letter-log").get_common().get_inputs())
        .containsOnlyKeys(new GlobalStreamId("iceberg", "dead-letters"));
  }
}
