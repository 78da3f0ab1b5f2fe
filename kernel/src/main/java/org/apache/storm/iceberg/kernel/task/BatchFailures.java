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

package org.apache.storm.iceberg.kernel.task;

import org.apache.storm.iceberg.kernel.ack.HeldTuples;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.task.OutputCollector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How a task fails a whole batch: it says why once, then fails every tuple. */
final class BatchFailures {
  private static final Logger LOG = LoggerFactory.getLogger(BatchFailures.class);

  private BatchFailures() {}

  /** Fails every tuple of a batch, reporting {@code cause} (when there is one) once. */
  static void failAll(OutputCollector collector, HeldTuples tuples, Exception cause) {
    LOG.warn("Failing {} tuples of a batch", tuples.size(), Redaction.of(cause));
    if (cause != null) {
      collector.reportError(cause);
    }
    tuples.failAll(collector);
  }

  /** Fails every tuple of a broken batch (none when {@code cause} is null), then lets go of them. */
  static void failAndRelease(OutputCollector collector, HeldTuples tuples, Exception cause) {
    try {
      if (cause != null) {
        failAll(collector, tuples, cause);
      }
    } finally {
      tuples.release();
    }
  }
}
