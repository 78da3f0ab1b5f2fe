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

package org.apache.storm.iceberg.kernel.position;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.storm.iceberg.spi.SourcePosition;
import org.junit.jupiter.api.Test;

/** What each table's batch claims of a partition whose offsets a routing task spread over tables. */
class OffsetClaimsTest {
  private static final String TOPIC = "orders";

  private final OffsetClaims claims = new OffsetClaims();

  @Test
  void eachTableClaimsTheOtherTablesOffsetsBelowItsLargestOwnOffset() {
    route(0, 0, 4, "db.a");
    route(0, 5, 9, "db.b");
    route(0, 10, 14, "db.a");
    assertThat(claims.claim("db.a", own(0, 0, 4, 10, 12), new Positions()).encode()).isEqualTo("orders@|0=0-12");
    assertThat(claims.claim("db.b", own(0, 5, 9), new Positions()).encode()).isEqualTo("orders@|0=0-9");
    // Nothing above the batch's largest own offset: 13 and 14 are db.a's, not in this batch.
    assertThat(claims.claim("db.b", own(0, 5, 9), new Positions()).largest(TOPIC, 0)).isEqualTo(9);
  }

  @Test
  void anOffsetOfItsOwnTableThatIsNotInTheBatchIsNeverClaimed() {
    for (long offset = 0; offset < 10; offset++) {
      route(0, offset, offset, offset % 2 == 0 ? "db.a" : "db.b");
    }
    // 4 and 6 are db.a's, in flight or replaying: a claim of them would skip them on replay.
    assertThat(claims.claim("db.a", own(0, 0, 2, 8, 8), new Positions()).encode()).isEqualTo("orders@|0=0-3,5,7-8");
  }

  @Test
  void aFailedBatchLeavesAGapThatItsReplayClosesOnceItLands() {
    for (long offset = 0; offset < 7; offset++) {
      route(0, offset, offset, offset % 2 == 0 ? "db.a" : "db.b");
    }
    Positions ledger = new Positions();
    // db.a's first batch (0, 2, 4) fails: nothing lands. Its next batch (6) claims around the gap.
    Positions second = claims.claim("db.a", own(0, 6, 6), ledger);
    assertThat(second.encode()).isEqualTo("orders@|0=1,3,5-6");
    ledger.addAll(second);
    // The failed offsets replay, are routed to db.a again, and land in a batch of their own.
    for (long offset = 0; offset <= 4; offset += 2) {
      route(0, offset, offset, "db.a");
    }
    Positions replay = claims.claim("db.a", ownOffsets(0, 0, 2, 4), ledger);
    assertThat(replay.encode()).isEqualTo("orders@|0=0,2,4");
    ledger.addAll(replay);
    assertThat(ledger.encode()).isEqualTo("orders@|0=0-6");
  }

  @Test
  void whatTheLedgerHoldsIsNotClaimedAgain() {
    route(0, 0, 9, "db.b");
    route(0, 10, 10, "db.a");
    route(0, 11, 19, "db.b");
    route(0, 20, 20, "db.a");
    Positions ledger = claims.claim("db.a", own(0, 10, 10), new Positions());
    assertThat(ledger.encode()).isEqualTo("orders@|0=0-10");
    assertThat(claims.claim("db.a", own(0, 20, 20), ledger).encode()).isEqualTo("orders@|0=11-20");
  }

  @Test
  void anOffsetTheTaskNeverSawIsNotClaimed() {
    route(0, 0, 0, "db.a");
    route(0, 1, 1, "db.b");
    route(0, 3, 3, "db.a"); // 2 not seen: it may be db.a's, still on its way
    assertThat(claims.claim("db.a", ownOffsets(0, 0, 3), new Positions()).encode()).isEqualTo("orders@|0=0-1,3");
  }

  @Test
  void partitionsAndSourcesAreClaimedApart() {
    route(0, 0, 4, "db.b");
    route(1, 0, 9, "db.b");
    claims.routed(new SourcePosition("logs", 0, 0), "db.b");
    route(0, 5, 5, "db.a");
    Positions own = own(0, 5, 5);
    own.add(new SourcePosition(TOPIC, 1, 3));
    // Partition 1: only offsets below its own largest (3); the source logs is not in the batch at all.
    assertThat(claims.claim("db.a", own, new Positions()).encode()).isEqualTo("orders@|0=0-5|1=0-3");
  }

  @Test
  void anOffsetRoutedToTwoTablesIsClaimedByNeither() {
    route(0, 0, 4, "db.b");
    route(0, 2, 2, "db.c"); // a router that is not deterministic
    route(0, 5, 5, "db.a");
    assertThat(claims.claim("db.a", own(0, 5, 5), new Positions()).encode()).isEqualTo("orders@|0=0-1,3-5");
  }

  @Test
  void theOldestRunsAreForgottenPastTheBoundLeavingAGapNotALoss() {
    OffsetClaims bounded = new OffsetClaims(3);
    for (long offset = 0; offset < 6; offset++) {
      bounded.routed(new SourcePosition(TOPIC, 0, offset), offset % 2 == 0 ? "db.b" : "db.c");
    }
    bounded.routed(new SourcePosition(TOPIC, 0, 6), "db.a");
    // Runs kept: 4 (db.b), 5 (db.c), 6 (db.a); 0-3 were forgotten, so db.a's claim starts at 4.
    assertThat(bounded.claim("db.a", own(0, 6, 6), new Positions()).encode()).isEqualTo("orders@|0=4-6");
  }

  @Test
  void offsetsRoutedElsewhereCountAsArrivedForATableNewToThePartition() {
    route(0, 0, 0, "db.a");
    route(0, 1, 3, "db.b");
    route(0, 4, 4, "db.a");
    Positions arrived = ownOffsets(0, 0);
    assertThat(claims.arrivedOrRoutedElsewhere("db.a", TOPIC, 0, 0, 3, arrived)).isTrue();
    assertThat(claims.arrivedOrRoutedElsewhere("db.a", TOPIC, 0, 0, 4, arrived)).as("4 is db.a's, not arrived").isFalse();
    assertThat(claims.arrivedOrRoutedElsewhere("db.b", TOPIC, 0, 0, 3, new Positions())).as("0 is db.a's").isFalse();
    assertThat(claims.arrivedOrRoutedElsewhere("db.a", TOPIC, 0, 0, 5, ownOffsets(0, 0, 4))).as("5 never seen").isFalse();
  }

  private void route(int partition, long from, long to, String table) {
    for (long offset = from; offset <= to; offset++) {
      claims.routed(new SourcePosition(TOPIC, partition, offset), table);
    }
  }

  /** Own positions: the offsets of each {@code from, to} pair. */
  private static Positions own(int partition, long... bounds) {
    Positions own = new Positions();
    for (int i = 0; i < bounds.length; i += 2) {
      for (long offset = bounds[i]; offset <= bounds[i + 1]; offset++) {
        own.add(new SourcePosition(TOPIC, partition, offset));
      }
    }
    return own;
  }

  private static Positions ownOffsets(int partition, long... offsets) {
    Positions own = new Positions();
    for (long offset : offsets) {
      own.add(new SourcePosition(TOPIC, partition, offset));
    }
    return own;
  }
}
