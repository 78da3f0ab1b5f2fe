/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *   http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing,
 * software distributed under the License is distributed on an
 * "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
 * KIND, either express or implied.  See the License for the
 * specific language governing permissions and limitations
 * under the License.
 */


package org.apache.storm.iceberg.kernel.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.LongStream;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.junit.jupiter.api.Test;

/** What each commit of a split-sink committer round records of its descriptors' offsets routed to other tables. */
class RoundClaimsTest {
  private static Positions of(long... offsets) {
    Positions positions = new Positions();
    LongStream.of(offsets).forEach(offset -> positions.add(new SourcePosition("orders", 0, offset)));
    return positions;
  }

  private static DataFilesCodec.Entry descriptor(Positions own, Positions elsewhere) {
    return new DataFilesCodec.Entry("b", "db.t0", "writer", 0, 1L, List.of(), 1L, own.encode(), List.of(), null,
        elsewhere == null ? null : elsewhere.encode());
  }

  @Test
  void aCommitRecordsItsOwnOffsetsAndTheOffsetsRoutedElsewhereThatTheLedgerAndTheRoundLack() {
    RoundClaims round = new RoundClaims(of(0, 1, 2));
    // The writer sent 1-2 again (its ledger view was older) and 4, 5: routed to other tables. 3 and 7 are the batch's own.
    Positions first = round.recording(descriptor(of(3, 7), of(1, 2, 4, 5)), of(3, 7));
    assertThat(first.encode()).isEqualTo("orders@|0=3-5,7");
    // The writer's next descriptor overlaps the first's claims: each offset is recorded once.
    Positions second = round.recording(descriptor(of(9), of(1, 2, 4, 5, 8)), of(9));
    assertThat(second.encode()).isEqualTo("orders@|0=8-9");
  }

  @Test
  void aDescriptorOfAWriterThatDoesNotRouteRecordsItsOwnOffsetsAlone() {
    RoundClaims round = new RoundClaims(of(0));
    assertThat(round.recording(descriptor(of(2), null), of(2)).encode()).isEqualTo("orders@|0=2");
    assertThat(round.recording(descriptor(of(2), null), null)).as("no positions at all").isNull();
  }
}
