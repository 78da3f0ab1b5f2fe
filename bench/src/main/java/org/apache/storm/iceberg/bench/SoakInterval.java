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

package org.apache.storm.iceberg.bench;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * What one interval (a minute, by default) of a soak run saw.
 *
 * @param index the interval's number, from 1
 * @param ackedPerSecond tuples the spout saw acked, a second
 * @param liveHeapMib heap used after a full collection at the interval's end, MiB
 * @param openFileDescriptors the process's open file descriptors at the interval's end
 * @param commitsPerSecond commits the sink timed, a second
 * @param commitP50Millis the sink's {@code iceberg-commit-latency} median, ms
 * @param commitP99Millis its 99th percentile, ms
 * @param oldestPendingAgeMillis the largest {@code iceberg-oldest-pending-age-ms} sampled (every second)
 * @param loadAverage the machine's one-minute load average at the interval's end (not checked: the
 *     machine is shared, and this says how much)
 */
record SoakInterval(
    int index,
    double ackedPerSecond,
    double liveHeapMib,
    long openFileDescriptors,
    double commitsPerSecond,
    double commitP50Millis,
    double commitP99Millis,
    long oldestPendingAgeMillis,
    double loadAverage) {

  /**
   * A figure the soak checks for flatness: the last interval against the second (the first holds the
   * topology's start), within {@code relative} of it plus {@code absolute} (noise on a shared
   * machine), and no steady trend (every interval from the second on worse than the one before,
   * by more than {@code absolute} in all). The acked rate is held against the offered rate instead:
   * the sink keeps up with the load, whatever burst the second interval caught up on.
   */
  enum Metric {
    ACKED("records/s", SoakInterval::ackedPerSecond, false, 0.20, 0),
    LIVE_HEAP("live-heap-mib", SoakInterval::liveHeapMib, true, 0.25, 32),
    OPEN_FDS("open-fds", i -> i.openFileDescriptors, true, 0.10, 16),
    COMMITS("commits/s", SoakInterval::commitsPerSecond, false, 0.25, 0),
    COMMIT_P50("commit-p50-ms", SoakInterval::commitP50Millis, true, 0.50, 20),
    COMMIT_P99("commit-p99-ms", SoakInterval::commitP99Millis, true, 0.50, 50),
    OLDEST_PENDING("oldest-pending-age-ms", i -> i.oldestPendingAgeMillis, true, 0.50, 1000);

    final String label;
    final ToDoubleFunction<SoakInterval> value;
    /** Whether growth is what would be wrong (a leak, a growing lag); otherwise a drop is. */
    final boolean growthIsBad;
    final double relative;
    final double absolute;

    Metric(String label, ToDoubleFunction<SoakInterval> value, boolean growthIsBad, double relative, double absolute) {
      this.label = label;
      this.value = value;
      this.growthIsBad = growthIsBad;
      this.relative = relative;
      this.absolute = absolute;
    }

    /** How the rule reads, for the report. */
    String rule() {
      if (this == ACKED) {
        return String.format(java.util.Locale.ROOT, "last ≥ offered × %.2f", 1 - relative);
      }
      return growthIsBad
          ? String.format(java.util.Locale.ROOT, "last ≤ second × %.2f + %s", 1 + relative, (absolute == Math.rint(absolute) ? Long.toString((long) absolute) : Double.toString(absolute)))
          : String.format(java.util.Locale.ROOT, "last ≥ second × %.2f", 1 - relative);
    }

    /** Whether {@code intervals} (at least two), offered {@code offeredPerSecond}, hold this figure flat. */
    boolean flat(List<SoakInterval> intervals, double offeredPerSecond) {
      double second = this == ACKED ? offeredPerSecond : value.applyAsDouble(intervals.get(Math.min(1, intervals.size() - 1)));
      double last = value.applyAsDouble(intervals.get(intervals.size() - 1));
      boolean within = growthIsBad ? last <= second * (1 + relative) + absolute : last >= second * (1 - relative) - absolute;
      return within && !trending(intervals);
    }

    private boolean trending(List<SoakInterval> intervals) {
      List<SoakInterval> steady = intervals.subList(Math.min(1, intervals.size()), intervals.size());
      if (steady.size() < 4) {
        return false;
      }
      for (int i = 1; i < steady.size(); i++) {
        double change = value.applyAsDouble(steady.get(i)) - value.applyAsDouble(steady.get(i - 1));
        if (growthIsBad ? change <= 0 : change >= 0) {
          return false;
        }
      }
      double total = value.applyAsDouble(steady.get(steady.size() - 1)) - value.applyAsDouble(steady.get(0));
      return Math.abs(total) > absolute;
    }
  }
}
