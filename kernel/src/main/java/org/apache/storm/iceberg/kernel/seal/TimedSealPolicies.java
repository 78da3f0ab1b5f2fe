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

package org.apache.storm.iceberg.kernel.seal;

import org.apache.storm.iceberg.kernel.seal.TopologyChecks;
import java.util.ArrayList;
import java.util.List;
import org.apache.storm.iceberg.kernel.options.ProviderChoice;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.spi.SealPolicy;

/**
 * The seal policies of a sink that seal on time, each with the longest a batch stays open under it:
 * the age threshold ({@code withCommitIntervalMillis}) and the built-in {@code age} and {@code
 * wall-clock} policies, whether named with {@code withSealPolicy} or given as instances. Any other
 * policy is a plug-in that may read time and tells no interval; its author must keep it below {@code
 * topology.message.timeout.secs}.
 *
 * <p>{@link TopologyChecks} holds every interval against the message timeout; the bolts declare
 * the tick interval {@link #defaultTickSecs} gives when {@code withTickIntervalSecs} is unset.
 */
public final class TimedSealPolicies {
  /**
   * The tick interval a plug-in policy gets by default. Whether it reads time, and its interval, are
   * unknown, so it gets the finest tick Storm offers ({@code topology.tick.tuple.freq.secs} counts
   * whole seconds): a quiet stream then seals at most a second late, well inside any message
   * timeout, for one tick tuple a second per task.
   */
  static final int PLUG_IN_TICK_SECS = 1;

  /**
   * One time threshold.
   *
   * @param threshold what it is, for messages ("an age threshold", "a wall-clock threshold")
   * @param name its setting ("commit interval", "seal policy 'age' limit")
   * @param setter what to lower to shorten it ("withCommitIntervalMillis")
   * @param millis the longest a batch stays open under it
   */
  record Interval(String threshold, String name, String setter, long millis) {}

  private final List<Interval> intervals;
  private final boolean plugInReadsTime;

  private TimedSealPolicies(List<Interval> intervals, boolean plugInReadsTime) {
    this.intervals = List.copyOf(intervals);
    this.plugInReadsTime = plugInReadsTime;
  }

  /** The sink's time thresholds; named policies are resolved on {@code loader}. */
  public static TimedSealPolicies of(SinkSettings settings, ClassLoader loader) {
    List<Interval> intervals = new ArrayList<>();
    long ageMillis = settings.thresholds().millis();
    if (ageMillis > 0) {
      intervals.add(new Interval("an age threshold", "commit interval", "withCommitIntervalMillis", ageMillis));
    }
    boolean plugInReadsTime = false;
    for (ProviderChoice<SealPolicy> choice : settings.providers().sealPolicies()) {
      SealPolicy policy = choice.resolve(loader);
      if (policy instanceof ThresholdSealPolicy threshold) {
        if (threshold.measure() == ThresholdSealPolicy.Measure.AGE_MILLIS) {
          intervals.add(new Interval("an age threshold", "seal policy 'age' limit",
              "the limit of withSealPolicy(\"age\", …)", threshold.limit()));
        }
      } else if (policy instanceof WallClockSealPolicy wallClock) {
        intervals.add(new Interval("a wall-clock threshold", "seal policy 'wall-clock' every-ms",
            "the every-ms of withSealPolicy(\"wall-clock\", …)", wallClock.everyMillis()));
      } else if (readsTime(policy)) {
        plugInReadsTime = true;
      }
    }
    return new TimedSealPolicies(intervals, plugInReadsTime);
  }

  /**
   * Whether {@code policy} may read {@code BatchStats}' time: the kernel knows its own policies, and
   * takes every plug-in to read it.
   */
  public static boolean readsTime(SealPolicy policy) {
    if (policy instanceof ThresholdSealPolicy threshold) {
      return threshold.measure() == ThresholdSealPolicy.Measure.AGE_MILLIS;
    }
    return !(policy instanceof OpenFilesSealPolicy);
  }

  List<Interval> intervals() {
    return intervals;
  }

  /**
   * The tick interval a bolt declares when {@code withTickIntervalSecs} is unset: half the
   * shortest time threshold (at least one second), so a quiet stream seals at most half a
   * threshold late; {@value #PLUG_IN_TICK_SECS} s with a plug-in policy; 0 (no ticks)
   * when no policy seals on time.
   */
  public int defaultTickSecs() {
    int secs = plugInReadsTime ? PLUG_IN_TICK_SECS : Integer.MAX_VALUE;
    for (Interval interval : intervals) {
      secs = (int) Math.min(secs, Math.max(1, interval.millis() / 2000));
    }
    return secs == Integer.MAX_VALUE ? 0 : secs;
  }
}
