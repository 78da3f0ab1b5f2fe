package org.apache.storm.iceberg.kernel.position;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.junit.jupiter.api.Test;

/** The ranges a partition's offsets make, whatever order the offsets come in. */
class OffsetRangesTest {

  @Test
  void offsetsInOrderExtendTheLastRange() {
    OffsetRanges ranges = new OffsetRanges();
    for (long offset = 100; offset < 100_100; offset++) {
      ranges.add(offset);
    }
    assertThat(ranges.encode()).isEqualTo("100-100099");
    assertThat(ranges.contains(99)).isFalse();
    assertThat(ranges.contains(100)).isTrue();
    assertThat(ranges.contains(100_099)).isTrue();
    assertThat(ranges.contains(100_100)).isFalse();
  }

  @Test
  void aRetriedOffsetLeavesAGapUntilItLands() {
    OffsetRanges ranges = new OffsetRanges();
    ranges.add(0, 4);
    ranges.add(6, 100);
    assertThat(ranges.encode()).isEqualTo("0-4,6-100");
    assertThat(ranges.contains(5)).isFalse();
    ranges.add(5);
    assertThat(ranges.encode()).isEqualTo("0-100");
    assertThat(ranges.rangeCount()).isEqualTo(1);
  }

  @Test
  void offsetsOutOfOrderMergeWithTheRangesTheyTouch() {
    OffsetRanges ranges = new OffsetRanges();
    for (long offset : new long[] {50, 10, 30, 11, 70, 9, 29, 90, 31, 60}) {
      ranges.add(offset);
    }
    assertThat(ranges.encode()).isEqualTo("9-11,29-31,50,60,70,90");
    ranges.add(12, 55);
    assertThat(ranges.encode()).isEqualTo("9-55,60,70,90");
    ranges.add(0, 1000);
    assertThat(ranges.encode()).isEqualTo("0-1000");
  }

  @Test
  void agreesWithASetOfOffsetsUnderRandomAdds() {
    Random random = new Random(19);
    for (int round = 0; round < 200; round++) {
      OffsetRanges ranges = new OffsetRanges();
      TreeSet<Long> model = new TreeSet<>();
      for (int i = 0; i < 60; i++) {
        long from = random.nextInt(200);
        long to = from + (random.nextInt(4) == 0 ? random.nextInt(15) : 0);
        ranges.add(from, to);
        for (long offset = from; offset <= to; offset++) {
          model.add(offset);
        }
        OffsetRanges probe = new OffsetRanges();
        long probed = random.nextInt(200);
        probe.add(probed, probed + random.nextInt(10));
        Long shared = model.ceiling(probed);
        assertThat(ranges.firstShared(probe)).isEqualTo(shared != null && probe.contains(shared) ? shared : -1L);
      }
      for (long offset = -1; offset <= 220; offset++) {
        assertThat(ranges.contains(offset)).as("offset %d after %s", offset, ranges).isEqualTo(model.contains(offset));
      }
      assertThat(ranges.encode()).isEqualTo(encode(model));
      assertThat(OffsetRanges.decode(ranges.encode()).encode()).isEqualTo(ranges.encode());
    }
  }

  @Test
  void positionsFindEveryPartitionWhateverItsNumber() {
    Positions positions = new Positions();
    List<Integer> partitions = List.of(0, 999, 3, 65_535, 65_536, Integer.MAX_VALUE);
    for (long offset = 0; offset < 3; offset++) {
      for (int partition : partitions) {
        positions.add(new SourcePosition("events", partition, offset));
        positions.add(new SourcePosition("logs", partition, offset + 10));
      }
    }
    for (int partition : partitions) {
      assertThat(positions.contains(new SourcePosition("events", partition, 2))).isTrue();
      assertThat(positions.contains(new SourcePosition("events", partition, 3))).isFalse();
      assertThat(positions.contains(new SourcePosition("logs", partition, 2))).isFalse();
      assertThat(positions.contains(new SourcePosition("logs", partition, 12))).isTrue();
    }
    assertThat(positions.contains(new SourcePosition("events", 4, 0))).isFalse();
    assertThat(positions.contains(new SourcePosition("events", 70_000, 0))).isFalse();
    String encoded = positions.encode();
    assertThat(encoded).isEqualTo("events@|0=0-2|3=0-2|999=0-2|65535=0-2|65536=0-2|2147483647=0-2;"
        + "logs@|0=10-12|3=10-12|999=10-12|65535=10-12|65536=10-12|2147483647=10-12");
    Positions decoded = Positions.decode(encoded);
    assertThat(decoded.contains(new SourcePosition("logs", 65_536, 11))).isTrue();
    assertThat(decoded.contains(new SourcePosition("logs", 65_535, 13))).isFalse();
    positions.forget("events");
    assertThat(positions.contains(new SourcePosition("events", 0, 0))).isFalse();
    assertThat(positions.contains(new SourcePosition("logs", 0, 10))).isTrue();
  }

  private static String encode(TreeSet<Long> offsets) {
    StringBuilder text = new StringBuilder();
    Long start = null;
    Long previous = null;
    for (long offset : offsets) {
      if (previous == null || offset != previous + 1) {
        append(text, start, previous);
        start = offset;
      }
      previous = offset;
    }
    append(text, start, previous);
    return text.toString();
  }

  private static void append(StringBuilder text, Long from, Long to) {
    if (from == null) {
      return;
    }
    if (text.length() > 0) {
      text.append(',');
    }
    text.append(from);
    if (!from.equals(to)) {
      text.append('-').append(to);
    }
  }
}
