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

package org.apache.storm.iceberg.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongFunction;

/**
 * Runs independent seeded schedules on two plain threads, one per core of the test machines.
 *
 * <p>Not a parallel stream: its tasks run on the JVM's common ForkJoin pool, which on 2 cores has one
 * worker. A schedule blocked in Iceberg's {@code Tasks.waitFor} (a commit waiting for its manifests)
 * then holds that worker, while the manifest writer, on Iceberg's worker pool, closes its file through
 * Hadoop's local file system, whose statistics aggregate in a parallel stream of their own, waiting for
 * the same worker: a deadlock (seen in {@code RoutedKafkaSchedulesTest}, 2026-12-06).
 */
public final class SeededRuns {
  private static final int THREADS = 2;

  private SeededRuns() {}

  /** {@code run} applied to every seed from {@code first} on, {@code count} of them; results in seed order. */
  public static <T> List<T> map(long first, long count, LongFunction<T> run) {
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<T>> pending = new ArrayList<>();
      for (long seed = first; seed < first + count; seed++) {
        long each = seed;
        pending.add(threads.submit(() -> run.apply(each)));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> result : pending) {
        results.add(result.get());
      }
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the seeded runs", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      threads.shutdownNow();
    }
  }

  /** The sum of {@code run} over the seeds, as {@link #map}. */
  public static int sum(long first, long count, LongFunction<Integer> run) {
    return map(first, count, run).stream().mapToInt(Integer::intValue).sum();
  }
}
