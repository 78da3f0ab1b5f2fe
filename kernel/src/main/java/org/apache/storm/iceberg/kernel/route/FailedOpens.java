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

package org.apache.storm.iceberg.kernel.route;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * Tables a routing task could not open lately, each with its error for {@code retryMillis}: a tuple
 * routed to one meanwhile is settled with that error instead of paying a catalog open that would
 * fail the same way. At most {@value #MAX_REMEMBERED} are remembered, the oldest forgotten first.
 * Not thread-safe: one executor thread owns it.
 */
final class FailedOpens {
  static final int MAX_REMEMBERED = 1_024;

  private record Failure(RuntimeException error, long untilMillis) {}

  private final long retryMillis;
  private final LinkedHashMap<String, Failure> failures = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Failure> eldest) {
      return size() > MAX_REMEMBERED;
    }
  };

  FailedOpens(long retryMillis) {
    this.retryMillis = retryMillis;
  }

  /** The error {@code table} failed to open with, if it failed less than {@code retryMillis} ago; else null. */
  RuntimeException recent(String table, long nowMillis) {
    Failure failure = failures.get(table);
    if (failure == null) {
      return null;
    }
    if (nowMillis >= failure.untilMillis()) {
      failures.remove(table);
      return null;
    }
    return failure.error();
  }

  void remember(String table, RuntimeException error, long nowMillis) {
    failures.remove(table);
    failures.put(table, new Failure(error, nowMillis + retryMillis));
  }

  /**
   * Whether the catalog refused the table for good (it or its namespace does not exist, and the sink
   * may not create it; or the catalog forbids it): the route is wrong, as an invalid name is.
   */
  static boolean permanent(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof NoSuchTableException || t instanceof NoSuchNamespaceException
          || t instanceof ForbiddenException || t instanceof NotAuthorizedException) {
        return true;
      }
    }
    return false;
  }
}
