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

import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.Comparator;
import java.util.List;
import org.apache.storm.iceberg.kernel.metrics.RegistryCapture;

/**
 * Takes one {@link SoakInterval} of a running soak topology at a time: what its spout acked, the
 * JVM's heap and open file descriptors, and the sink's own metrics v2 ({@code iceberg-commit-latency},
 * {@code iceberg-oldest-pending-age-ms}) read through {@link RegistryCapture}. The oldest pending age
 * is sampled every second and its largest value kept; the heap is what is live after a full collection
 * forced at the interval's end (heap used between collections is mostly garbage and says more about
 * -Xmx than about the sink).
 */
final class SoakSampler {
  private static final String LATENCY = "iceberg-commit-latency";
  private static final String OLDEST_PENDING = "iceberg-oldest-pending-age-ms";

  private final String topology;
  private final PacedSpout.Pace pace;
  private long ackedBefore;
  private long commitsBefore;
  private long intervalStartNanos;

  SoakSampler(String topology, PacedSpout.Pace pace) {
    this.topology = topology;
    this.pace = pace;
  }

  /** Starts the first interval now. */
  void start() {
    ackedBefore = pace.acked.get();
    commitsBefore = commits();
    intervalStartNanos = System.nanoTime();
  }

  /** Runs the interval of {@code seconds} that starts where the last ended, sampling every second, and says what it saw. */
  SoakInterval next(int index, long seconds) throws InterruptedException {
    long end = intervalStartNanos + seconds * 1_000_000_000L;
    long oldestPending = -1;
    while (System.nanoTime() < end) {
      Thread.sleep(Math.max(1, Math.min(1000, (end - System.nanoTime()) / 1_000_000)));
      oldestPending = Math.max(oldestPending, RegistryCapture.maxOfGauges(topology, OLDEST_PENDING));
    }
    double elapsed = (System.nanoTime() - intervalStartNanos) / 1e9;
    long acked = pace.acked.get();
    long commits = commits();
    Snapshot latency = busiestTimer().map(Timer::getSnapshot).orElse(null);
    SoakInterval interval =
        new SoakInterval(
            index,
            (acked - ackedBefore) / elapsed,
            HeapWatch.mib(liveHeap()),
            openFileDescriptors(),
            (commits - commitsBefore) / elapsed,
            latency == null ? Double.NaN : latency.getMedian() / 1e6,
            latency == null ? Double.NaN : latency.get99thPercentile() / 1e6,
            oldestPending,
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    ackedBefore = acked;
    commitsBefore = commits;
    // The next interval starts after the forced collection, which is not counted in either.
    intervalStartNanos = System.nanoTime();
    return interval;
  }

  /** Commits made by every task of the topology so far (each commit is timed once). */
  private long commits() {
    return RegistryCapture.timers(topology, LATENCY).stream().mapToLong(Timer::getCount).sum();
  }

  /** The committing task's timer: the one that timed the most commits (writer tasks of the split sink commit none). */
  private java.util.Optional<Timer> busiestTimer() {
    List<Timer> timers = RegistryCapture.timers(topology, LATENCY);
    return timers.stream().max(Comparator.comparingLong(Timer::getCount));
  }

  /** Heap used after a full collection: what is live now. */
  private static long liveHeap() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  static long openFileDescriptors() {
    return ((UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getOpenFileDescriptorCount();
  }

}
