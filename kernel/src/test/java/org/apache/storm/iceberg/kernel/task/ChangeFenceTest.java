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

import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.junit.jupiter.api.Test;

/**
 * The fence that keeps one source partition's changes in order across failures, driven as a task
 * drives it while a spout retries: failed changes come back late, and later ones keep coming.
 */
class ChangeFenceTest {
  private final AtomicLong clock = new AtomicLong(1_000);
  private final ChangeFence fence = new ChangeFence("db.accounts", clock::get, 16_000);

  private static SourcePosition at(long offset) {
    return new SourcePosition("topic", 0, offset);
  }

  private static Positions of(long from, long to) {
    Positions positions = new Positions();
    LongStream.rangeClosed(from, to).forEach(offset -> positions.add(at(offset)));
    return positions;
  }

  /** What the task does with a change that arrives: held back (failed), or written into the open batch. */
  private boolean takes(long offset) {
    if (fence.holdsBack(at(offset))) {
      return false;
    }
    fence.taken(at(offset));
    return true;
  }

  @Test
  void aChangeHeldBackIsFencedSoALaterOneWaitsForItsReplayAfterTheFailedBatchLanded() {
    fence.failed(of(0, 9));
    assertThat(takes(10)).as("a later change while offsets 0-9 are out").isFalse();
    LongStream.rangeClosed(0, 9).forEach(offset -> assertThat(takes(offset)).isTrue());
    fence.landed(of(0, 9));

    assertThat(takes(11)).as("offset 11 before offset 10, held back above, came back").isFalse();
    assertThat(fence.blocks(of(11, 11))).as("a batch holding 11 without 10")
        .contains("after offset 0, whose batch did not land");
    assertThat(takes(10)).as("the replay of 10").isTrue();
    assertThat(takes(11)).as("11 once 10 is back in a batch").isTrue();
    assertThat(fence.blocks(of(10, 11))).isNull();
    fence.landed(of(10, 11));
    assertThat(takes(12)).as("the partition is no longer fenced").isTrue();
  }

  @Test
  void aLaterChangeIsTakenOnceEveryFailedChangeBeforeItIsBackInABatch() {
    fence.failed(of(0, 4));
    LongStream.rangeClosed(0, 4).forEach(offset -> assertThat(takes(offset)).isTrue());
    assertThat(takes(5)).as("5 follows 0-4 in the open batch, which commits them in order").isTrue();
    assertThat(fence.blocks(of(0, 5))).isNull();

    fence.failed(of(0, 5));
    assertThat(takes(6)).as("the batch holding 0-5 failed: 6 waits for them again").isFalse();
  }

  /** What the split sink's committer does with a descriptor: commits it, or fails it unattempted and fences it. */
  private String commits(Positions batch, Positions ledger) {
    String blocked = fence.blocksArrived(batch, ledger, null);
    if (blocked != null) {
      fence.failed(batch);
    }
    return blocked;
  }

  @Test
  void aNewCommitterHoldsBackABatchWithAGapSinceTheLedgersNewestOffsetEvenInsideIt() {
    Positions ledger = of(0, 1);
    Positions gapInside = of(2, 2);
    gapInside.add(at(4));
    assertThat(commits(gapInside, ledger)).as("2 and 4 without 3, lost with a predecessor's pending batch")
        .contains("has not seen every offset since 2");
    assertThat(commits(of(3, 3), ledger)).as("3, joining 2 and 4, which failed above")
        .contains("after offset 2, whose batch did not land");
    assertThat(commits(of(2, 4), ledger)).as("2-4 together").isNull();
    fence.landed(of(2, 4));
    assertThat(commits(of(5, 6), of(0, 4))).isNull();
  }

  @Test
  void aNewRoutingCommitterCountsTheOffsetsRoutedToOtherTablesAsArrived() {
    Positions ledger = of(0, 1);
    Positions own = of(3, 3);
    own.add(at(5));
    assertThat(fence.blocksArrived(own, ledger, of(2, 2))).as("3 and 5 after 2, routed elsewhere; 4 unseen")
        .contains("has not seen every offset since 2");
    Positions elsewhere = of(2, 2);
    elsewhere.add(at(4));
    assertThat(fence.blocksArrived(own, ledger, elsewhere)).as("2 and 4 went to other tables: nothing is missing").isNull();
  }

  @Test
  void aCommitterCountsWhatTheLedgerHoldsAsLandedAndLiftsAFenceThatWaitedTooLong() {
    assertThat(commits(of(0, 4), new Positions())).isNull();
    fence.failed(of(0, 4)); // its commit was refused: as the committer saw it, applied late
    assertThat(commits(of(5, 6), new Positions())).as("5-6 while 0-4 are out")
        .contains("after offset 0, whose batch did not land");
    assertThat(commits(of(5, 6), of(0, 4))).as("0-4 landed late (the writers skip their replays): 5-6 may commit")
        .isNull();

    fence.failed(of(7, 8));
    clock.addAndGet(16_000);
    assertThat(commits(of(9, 9), of(0, 6))).as("7-8 never came back within the wait").isNull();
  }

  @Test
  void aChangeBeyondANewTasksGapIsFencedUntilItsReplayCame() {
    fence.seen(at(5), -1);
    assertThat(takes(5)).as("5, beyond offsets 0-4 a predecessor may have held").isFalse();
    LongStream.rangeClosed(0, 4).forEach(offset -> assertThat(takes(offset)).isTrue());
    assertThat(takes(6)).as("6 before the replay of 5").isFalse();
    assertThat(takes(5)).isTrue();
    assertThat(takes(6)).isTrue();
    assertThat(fence.blocks(of(0, 6))).isNull();
  }

  @Test
  void aNewTasksLaterGapHoldsTheChangesAfterItUntilItFills() {
    fence.seen(at(0), -1);
    assertThat(takes(0)).isTrue();
    assertThat(takes(1)).isTrue();
    assertThat(takes(4)).as("4 while 2-3, a predecessor's perhaps, have not arrived").isFalse();
    assertThat(takes(5)).isFalse();
    assertThat(takes(2)).isTrue();
    assertThat(takes(3)).isTrue();
    assertThat(takes(4)).as("the replay of 4, once 2-3 are back").isTrue();
    assertThat(takes(5)).isTrue();
    assertThat(fence.blocks(of(0, 5))).isNull();
  }

  @Test
  void aGapThatNeverFillsHoldsChangesBackOnlyUntilTheReplaysAreDue() {
    fence.seen(at(0), -1);
    assertThat(takes(0)).isTrue();
    assertThat(takes(2)).as("offset 1 may be a transaction's commit marker, or a change in flight").isFalse();
    clock.addAndGet(16_000);
    assertThat(takes(2)).as("the replay of 2, once the replays were due").isTrue();
    assertThat(takes(3)).isTrue();
  }

  @Test
  void aFailedChangeThatComesBackBeforeThoseAheadOfItWaitsRatherThanFailItsBatch() {
    fence.failed(of(0, 9));
    LongStream.rangeClosed(0, 4).forEach(offset -> assertThat(takes(offset)).isTrue());
    assertThat(takes(7)).as("the retry of 7, before those of 5 and 6").isFalse();
    assertThat(fence.blocks(of(0, 4))).as("the batch of the replays 0-4").isNull();
    fence.landed(of(0, 4));
    assertThat(takes(5)).isTrue();
    assertThat(takes(6)).isTrue();
    assertThat(takes(7)).isTrue();
  }

  @Test
  void aFenceWhoseChangesNeverComeBackIsLiftedAfterTheWaitAndOneThatSeesThemComeWaitsOn() {
    fence.failed(of(2, 2));
    assertThat(takes(3)).as("3 while 2 is out").isFalse();
    clock.addAndGet(15_999);
    assertThat(takes(4)).as("still within the wait").isFalse();
    clock.addAndGet(1);
    assertThat(takes(5)).as("2 never came back (compacted away, say): the fence is lifted").isTrue();
    assertThat(fence.blocks(of(5, 5))).isNull();

    fence.failed(of(10, 19));
    clock.addAndGet(10_000);
    LongStream.rangeClosed(10, 14).forEach(offset -> assertThat(takes(offset)).isTrue());
    clock.addAndGet(10_000); // 20 s after the failure, 10 s after the last change came back
    assertThat(takes(20)).as("20 while 15-19 are out, their fence seeing changes come back").isFalse();
  }

  @Test
  void aChangeTheSinkCommittedBeforeCountsAsLanded() {
    fence.failed(of(3, 4));
    fence.committed(at(3));
    fence.committed(at(4));
    assertThat(takes(5)).as("both failed changes were committed already").isTrue();
    assertThat(fence.blocks(of(5, 5))).isNull();
  }
  @Test
  void aRoutedTableNewToAPartitionWaitsOnlyForOffsetsThatMayBeItsOwn() {
    org.apache.storm.iceberg.kernel.position.OffsetClaims claims = new org.apache.storm.iceberg.kernel.position.OffsetClaims();
    fence.routedWith(claims, "db.accounts");
    claims.routed(at(0), "db.accounts");
    claims.routed(at(1), "db.other");
    claims.routed(at(2), "db.accounts");
    fence.seen(at(0), -1);
    assertThat(takes(0)).isTrue();
    assertThat(takes(2)).as("offset 1 went to another table: nothing of this table's is missing").isTrue();
    claims.routed(at(4), "db.accounts");
    assertThat(takes(4)).as("offset 3 not seen yet: it may be this table's, still on its way").isFalse();
  }
}
