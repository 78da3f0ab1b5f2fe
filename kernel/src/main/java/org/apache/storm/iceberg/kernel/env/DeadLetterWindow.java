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

package org.apache.storm.iceberg.kernel.env;

/**
 * The tumbling window of {@code withMaxDeadLetterFraction}: of every {@code perRecords} tuples a task
 * takes, at most {@code allowed} go to the dead-letter stream. A task writing one table has its own;
 * a routing task has one for all its tables, so opening and closing tables never resets it. Not
 * thread-safe: one executor thread owns it.
 */
public final class DeadLetterWindow {
  private final long perRecords;
  private final long allowed;
  private long taken;
  private long used;
  private boolean limitReported;

  public DeadLetterWindow(long perRecords, long allowed) {
    this.perRecords = perRecords;
    this.allowed = allowed;
  }

  /** Counts one tuple taken, starting a new window after every {@code perRecords}. */
  public void taken() {
    if (taken == perRecords) {
      taken = 0;
      used = 0;
      limitReported = false;
    }
    taken++;
  }

  /** Whether the window's dead letters are used up. */
  public boolean full() {
    return used >= allowed;
  }

  /** Counts one dead letter emitted. */
  public void use() {
    used++;
  }

  /** True the first time in a window that a tuple is refused for the limit: report it once a window. */
  public boolean firstRefusal() {
    if (limitReported) {
      return false;
    }
    limitReported = true;
    return true;
  }

  public long perRecords() {
    return perRecords;
  }

  public long allowed() {
    return allowed;
  }
}
