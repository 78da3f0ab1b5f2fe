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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.iceberg.metrics.CommitMetricsResult;
import org.apache.iceberg.metrics.CommitReport;
import org.apache.iceberg.metrics.CounterResult;
import org.apache.iceberg.metrics.MetricsReport;
import org.apache.iceberg.metrics.MetricsReporter;

/**
 * Logs every Iceberg commit of a catalog, one CSV line each, to the file named by the system property
 * {@code bench.commitReports}: when it ended, on which thread, the operation, the attempts it took
 * (above 1: it met a concurrent commit and retried), its time, and the manifests it wrote, replaced
 * (a merge) and kept. To tell what makes a slow commit slow. Set as the catalog's
 * {@code metrics-reporter-impl}.
 */
public final class CommitReportLog implements MetricsReporter {
  static final String PROPERTY = "bench.commitReports";
  private static Writer out;

  /** The catalog properties that send commit reports here, when {@code bench.commitReports} is set; else none. */
  static java.util.Map<String, String> catalogProperties() {
    return System.getProperty(PROPERTY) == null
        ? java.util.Map.of()
        : java.util.Map.of("metrics-reporter-impl", CommitReportLog.class.getName());
  }

  /** Logs one line of another kind, {@code kind,fields...}, beside the commit reports. */
  static synchronized void line(String kind, Object... fields) {
    if (System.getProperty(PROPERTY) == null) {
      return;
    }
    StringBuilder line = new StringBuilder(kind).append(',').append(System.currentTimeMillis()).append(',')
        .append(Thread.currentThread().getName().replace(',', ' '));
    for (Object field : fields) {
      line.append(',').append(field);
    }
    write(line.append('\n').toString());
  }

  /** The JVM's garbage collectors' time so far, in ms. */
  static long gcMillis() {
    return java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(java.lang.management.GarbageCollectorMXBean::getCollectionTime).sum();
  }

  /** The CPU time so far of the live threads whose names start with {@code prefix}, in ms. */
  static long cpuMillisOfThreads(String prefix) {
    java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    long nanos = 0;
    for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith(prefix)) {
        nanos += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
      }
    }
    return nanos / 1_000_000;
  }

  @Override
  public void report(MetricsReport report) {
    if (report instanceof CommitReport commit) {
      CommitMetricsResult metrics = commit.commitMetrics();
      line("commit", commit.operation(), commit.snapshotId(), count(metrics.attempts()),
          metrics.totalDuration() == null ? -1 : metrics.totalDuration().totalDuration().toMillis(),
          count(metrics.manifestsCreated()), count(metrics.manifestsReplaced()), count(metrics.manifestsKept()),
          count(metrics.manifestEntriesProcessed()));
    }
  }

  private static long count(CounterResult counter) {
    return counter == null ? -1 : counter.value();
  }

  private static synchronized void write(String line) {
    try {
      if (out == null) {
        out = Files.newBufferedWriter(Path.of(System.getProperty(PROPERTY)), StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      }
      out.write(line);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
