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

package org.apache.storm.iceberg.kernel.commit;

import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.storm.Config;
import org.apache.storm.utils.ObjectReader;

/**
 * When a batch must stop trying to commit. Storm replays a tuple once {@code
 * topology.message.timeout.secs} have passed since its spout emitted it; a commit that lands after
 * that holds rows the source is already sending again, a duplicate with no fault at all, only
 * slowness. So no commit attempt of a batch starts once its oldest tuple is older than the message
 * timeout less a margin.
 *
 * <p>Assumptions: the sink cannot see when the spout emitted a tuple, only when it reached the task,
 * which is later. The margin covers that queueing and one catalog call that starts before the
 * deadline and answers after it; neither can be bounded here.
 */
public final class CommitDeadline {
  /** The margin when none is set: the smaller of {@link #DEFAULT_MARGIN_MILLIS} and a quarter of the message timeout. */
  public static final long SCALED_MARGIN = -1;
  /** The largest margin {@link #SCALED_MARGIN} gives. */
  public static final long DEFAULT_MARGIN_MILLIS = 5_000;
  /** No deadline: a task outside Storm, or a topology with message timeouts turned off. */
  static final CommitDeadline NONE = new CommitDeadline(Long.MAX_VALUE, () -> Long.MIN_VALUE);

  private final long budgetMillis;
  private final LongSupplier clock;

  private CommitDeadline(long budgetMillis, LongSupplier clock) {
    this.budgetMillis = budgetMillis;
    this.clock = clock;
  }

  /**
   * The deadline rule of a task running with {@code topologyConfig}.
   *
   * @param marginMillis the margin set, or {@link #SCALED_MARGIN} for the smaller
   *     of {@link #DEFAULT_MARGIN_MILLIS} and a quarter of the timeout,
   *     which fits every timeout Storm accepts
   * @throws IllegalStateException when the margin leaves no time to commit, saying how to fix it
   */
  public static CommitDeadline of(Map<String, ?> topologyConfig, long marginMillis, LongSupplier clock) {
    if (topologyConfig.isEmpty()
        || !ObjectReader.getBoolean(topologyConfig.get(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS), true)) {
      return NONE;
    }
    int timeoutSecs = ObjectReader.getInt(topologyConfig.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS), 30);
    long timeoutMillis = timeoutSecs * 1000L;
    if (marginMillis == SCALED_MARGIN) {
      marginMillis = Math.min(DEFAULT_MARGIN_MILLIS, timeoutMillis / 4);
    }
    if (marginMillis >= timeoutMillis) {
      throw new IllegalStateException(
          "commit deadline margin " + marginMillis + " ms is not below topology.message.timeout.secs (" + timeoutSecs
              + " s): every batch would pass its deadline before it could commit; lower"
              + " withCommitDeadlineMarginMillis or raise the timeout");
    }
    return new CommitDeadline(timeoutMillis - marginMillis, clock);
  }

  /**
   * The guard of a batch whose oldest tuple reached the task at {@code oldestTupleMillis} (on the
   * task's clock, which this rule reads too).
   */
  DeadlineGuard guardFor(long oldestTupleMillis) {
    long deadlineMillis = budgetMillis == Long.MAX_VALUE ? Long.MAX_VALUE : oldestTupleMillis + budgetMillis;
    return new DeadlineGuard(deadlineMillis, clock);
  }

  /** The time from a batch's oldest tuple to its deadline, for messages. */
  long budgetMillis() {
    return budgetMillis;
  }
}
