package org.apache.storm.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.StreamInfo;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.trident.IcebergStateFactory;
import org.apache.storm.iceberg.trident.IcebergTrident;
import org.apache.storm.topology.OutputFieldsGetter;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.trident.testing.FixedBatchSpout;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;

/**
 * {@code withDeadLetterStream} and {@code withMaxDeadLetterFraction}: their Flux keys, the mistakes
 * refused at build, the streams the bolts declare, and the Trident states that refuse them.
 */
class DeadLetterOptionsTest {
  static IcebergOptions.Builder builder() {
    return new IcebergOptions.Builder().withCatalogProperties(Map.of("type", "hadoop", "warehouse", "file:/tmp/w"))
        .withTable("db.events");
  }

  static Map<String, Object> flux(Object fraction) {
    Map<String, Object> config = new HashMap<>();
    config.put("catalog", Map.of("type", "hadoop", "warehouse", "file:/tmp/w"));
    config.put("table", "db.events");
    config.put("dead-letter-stream", "bad-events");
    if (fraction != null) {
      config.put("max-dead-letter-fraction", fraction);
    }
    return config;
  }

  @Test
  void fluxKeysSetTheStreamAndTheBoundAsAMapOrAsText() {
    assertThat(IcebergOptions.fromMap(flux(null)).settings().deadLetters())
        .isEqualTo(new SinkSettings.DeadLetters("bad-events", 1, 1));
    SinkSettings.DeadLetters expected = new SinkSettings.DeadLetters("bad-events", 0.01, 10_000);
    assertThat(IcebergOptions.fromMap(flux(Map.of("fraction", 0.01, "per-records", 10_000))).settings().deadLetters())
        .isEqualTo(expected);
    assertThat(IcebergOptions.fromMap(flux("0.01/10000")).settings().deadLetters()).isEqualTo(expected);
    assertThat(IcebergOptions.fromMap(flux(null)).deadLetterStream()).isEqualTo("bad-events");
    assertThat(builder().build().deadLetterStream()).isNull();
    assertThat(builder().withDeadLetterStream("bad-events").withMaxDeadLetterFraction(0.01, 10_000).build().toString())
        .contains("deadLetters=bad-events (at most 0.01 of every 10000 tuples)");
  }

  @Test
  void mistakesFailAtBuildNamingTheFix() {
    assertThatThrownBy(() -> builder().withMaxDeadLetterFraction(0.01, 10_000).build())
        .hasMessage("withMaxDeadLetterFraction bounds a dead-letter stream, but none is set: add withDeadLetterStream(\"<stream id>\")");
    assertThatThrownBy(() -> builder().withDeadLetterStream("__ack_ack").build())
        .hasMessage("withDeadLetterStream needs a stream id that is not blank and does not start with '__' (Storm's system streams), got '__ack_ack'");
    assertThatThrownBy(() -> builder().withDeadLetterStream(" ").build()).hasMessageStartingWith("withDeadLetterStream needs a stream id");
    assertThatThrownBy(() -> builder().withMaxDeadLetterFraction(0, 100).build())
        .hasMessage("withMaxDeadLetterFraction takes a fraction above 0 and at most 1 (0.01 for 1%), got 0.0");
    assertThatThrownBy(() -> builder().withMaxDeadLetterFraction(1.5, 100).build()).hasMessageContaining("got 1.5");
    assertThatThrownBy(() -> builder().withMaxDeadLetterFraction(0.5, 0).build())
        .hasMessage("withMaxDeadLetterFraction's perRecords must be positive, got 0");
    assertThatThrownBy(() -> builder().withDeadLetterStream("bad").withMaxDeadLetterFraction(0.001, 100).build())
        .hasMessage("withMaxDeadLetterFraction(0.001, 100) lets no tuple of a window through (0.001 x 100 < 1): raise the fraction or the window");
    assertThatThrownBy(() -> IcebergOptions.fromMap(flux(Map.of("fraction", 0.01))))
        .hasMessage("'max-dead-letter-fraction' takes {fraction: 0.01, per-records: 10000} or \"0.01/10000\", got {fraction=0.01}");
    assertThatThrownBy(() -> IcebergOptions.fromMap(flux("1%")))
        .hasMessage("'max-dead-letter-fraction' takes {fraction: 0.01, per-records: 10000} or \"0.01/10000\", got '1%'");
    assertThatThrownBy(() -> IcebergOptions.fromMap(flux("one/100")))
        .hasMessage("'max-dead-letter-fraction' needs a decimal fraction such as 0.01, got 'one'");
  }

  @Test
  void theBoltsDeclareTheDeadLetterStreamWithItsFields() {
    IcebergOptions options = builder().withDeadLetterStream("bad-events").build();
    Map<String, StreamInfo> bolt = declared(new IcebergBolt(options));
    assertThat(bolt).containsOnlyKeys("bad-events");
    assertThat(bolt.get("bad-events").get_output_fields())
        .containsExactly("values", "source_component", "source_stream", "table", "column", "error")
        .isEqualTo(DeadLetterFields.fields().toList());
    assertThat(declared(new IcebergWriterBolt(options))).containsOnlyKeys("default", "bad-events");
    assertThat(declared(new IcebergBolt(builder().build()))).isEmpty();
    assertThatThrownBy(() -> new IcebergWriterBolt(builder().withDeadLetterStream("default").build()))
        .hasMessage("IcebergWriterBolt emits its descriptors on the default stream: give withDeadLetterStream another"
            + " stream id, such as \"dead-letters\"");
  }

  static Map<String, StreamInfo> declared(SinkTaskBolt bolt) {
    OutputFieldsGetter getter = new OutputFieldsGetter();
    bolt.declareOutputFields(getter);
    return getter.getFieldsDeclaration();
  }

  @Test
  void tridentStatesRefuseADeadLetterStreamOnTheClient() {
    IcebergOptions options = builder().withDeadLetterStream("bad-events").withTridentStateType(StateType.TRANSACTIONAL).build();
    assertThatThrownBy(() -> new IcebergStateFactory(options))
        .hasMessageStartingWith("IcebergStateFactory takes no dead-letter stream (withDeadLetterStream(\"bad-events\")):"
            + " Trident has no stream ids")
        .hasMessageContaining("Drop withDeadLetterStream from these options");
    var stream = new TridentTopology().newStream("spout", new FixedBatchSpout(new Fields("id"), 1, List.of(1L)));
    assertThatThrownBy(() -> IcebergTrident.persist(stream, new Fields("id"), options))
        .hasMessageStartingWith("IcebergTrident.persist takes no dead-letter stream");
  }
}
