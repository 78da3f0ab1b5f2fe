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

import org.apache.storm.iceberg.kernel.options.SinkSettings;

/**
 * The tick interval each bolt declares, so that a quiet stream still seals and commits: the one set
 * with {@code withTickIntervalSecs}, or else one derived from the thresholds that need ticks.
 */
public final class TickIntervals {
  private TickIntervals() {}

  /**
   * For {@code IcebergBolt} and {@code IcebergWriterBolt}: the interval set, or else the one {@link
   * TimedSealPolicies#defaultTickSecs} derives from the time thresholds (0: no ticks). Named seal
   * policies are resolved on the thread's context class loader.
   */
  public static int forWriter(SinkSettings settings) {
    int set = settings.thresholds().tickIntervalSecs();
    return set > 0
        ? set
        : TimedSealPolicies.of(settings, Thread.currentThread().getContextClassLoader()).defaultTickSecs();
  }

  /**
   * For {@code IcebergCommitterBolt}: the interval set, or else half the group commit interval (at
   * least one second), so a lull never leaves descriptors uncommitted.
   */
  public static int forCommitter(SinkSettings settings) {
    int set = settings.thresholds().tickIntervalSecs();
    return set > 0 ? set : (int) Math.max(1, settings.splitSink().groupCommitIntervalMillis() / 2000);
  }
}
