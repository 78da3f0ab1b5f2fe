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

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The heap a run keeps live: the largest heap used right after any collection (from the JVM's GC
 * notifications), and the live heap now, after forcing full collections. Heap used between
 * collections is mostly garbage and says more about -Xmx than about the sink, so it is not used.
 */
final class HeapWatch {
  private final AtomicLong peakAfterGc = new AtomicLong();

  HeapWatch() {
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener(
          (notification, handback) -> {
            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
              var info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
              long used = info.getGcInfo().getMemoryUsageAfterGc().values().stream().mapToLong(MemoryUsage::getUsed).sum();
              peakAfterGc.accumulateAndGet(used, Math::max);
            }
          },
          null, null);
    }
  }

  /** The largest heap (plus non-heap pools the collector reports) used after any collection so far. */
  long peakAfterGcBytes() {
    return peakAfterGc.get();
  }

  /** Heap used after full collections: what is live now. */
  static long liveBytes() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  static double mib(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }
}
