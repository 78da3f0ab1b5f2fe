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

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.storm.iceberg.TableDroppedException;

/** The errors that say by themselves that a table was dropped, or that its name now holds another table. */
public final class TableGoneErrors {
  static final Pattern UUID_MISMATCH =
      Pattern.compile("Table UUID does not match: current=(\\S+) != refreshed=(\\S+)");

  private TableGoneErrors() {}

  /**
   * Whether {@code error} (or a cause, or a suppressed error) says by itself that the table is gone
   * or is now another table: a commit that met it must not be retried, for a retry cannot land in a
   * dropped table, and could land in the new one.
   */
  public static boolean isEvidentlyGone(Throwable error) {
    for (Throwable t : chain(error)) {
      if (t instanceof NoSuchTableException || t instanceof TableDroppedException || uuidMismatch(t) != null) {
        return true;
      }
    }
    return false;
  }

  /** Iceberg's "Table UUID does not match" refusal, matched (group 2: the UUID the name holds now), or null. */
  public static Matcher uuidMismatch(Throwable t) {
    if (!(t instanceof IllegalStateException) || t.getMessage() == null) {
      return null;
    }
    Matcher matcher = UUID_MISMATCH.matcher(t.getMessage());
    return matcher.find() ? matcher : null;
  }

  /** {@code error}, its causes and the suppressed errors of each (a settled commit keeps its retries' errors there). */
  public static List<Throwable> chain(Throwable error) {
    List<Throwable> chain = new ArrayList<>();
    collect(error, Collections.newSetFromMap(new IdentityHashMap<>()), chain);
    return chain;
  }

  private static void collect(Throwable error, Set<Throwable> seen, List<Throwable> chain) {
    for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
      chain.add(t);
      for (Throwable suppressed : t.getSuppressed()) {
        collect(suppressed, seen, chain);
      }
    }
  }
}
