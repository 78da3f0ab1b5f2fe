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

import java.util.ArrayList;
import java.util.List;
import org.apache.storm.iceberg.TupleMappingException;
import org.apache.storm.iceberg.kernel.env.DeadLetterWindow;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a task sends a tuple it cannot write, when the options name a dead-letter stream: it emits
 * the tuple's values, origin, table, column and redacted error on that stream, anchored to the
 * tuple, and only then acks the tuple, so a consumer that fails the dead letter makes the tuple
 * replay. A tuple is failed instead when the stream has no subscriber (acking it would lose it) or
 * when the window's share of dead letters is used up (a bad deploy must not be dead-lettered
 * silently); the latter is logged as an error once per window and counted.
 *
 * <p>The window is tumbling: every {@code perRecords} tuples taken, the count starts again
 * ({@link DeadLetterWindow}). A routing task's tables share its one window, which the routing task
 * counts tuples into once each.
 */
public final class DeadLetters {
  private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

  public static final String VALUES = "values";
  public static final String SOURCE_COMPONENT = "source_component";
  public static final String SOURCE_STREAM = "source_stream";
  public static final String TABLE = "table";
  public static final String COLUMN = "column";
  public static final String ERROR = "error";
  /** The fields of a dead-letter tuple, in order. */
  public static final List<String> FIELDS = List.of(VALUES, SOURCE_COMPONENT, SOURCE_STREAM, TABLE, COLUMN, ERROR);

  private final String streamId;
  private final String table;
  private final OutputCollector collector;
  private final SinkMetrics metrics;
  private final DeadLetterWindow window;
  /** Whether {@link #taken} counts into the window: false for a table whose routing task counts. */
  private final boolean countsTaken;

  private DeadLetters(SinkSettings.DeadLetters settings, String table, TaskEnvironment env, DeadLetterWindow window, boolean countsTaken) {
    this.streamId = settings.streamId();
    this.table = table;
    this.collector = env.collector();
    this.metrics = env.metrics();
    this.window = window;
    this.countsTaken = countsTaken;
  }

  /**
   * The task's dead letters, or null when the options name no dead-letter stream; in the window
   * {@code env} shares, without counting tuples into it, when it shares one.
   */
  static DeadLetters of(SinkSettings settings, String table, TaskEnvironment env) {
    SinkSettings.DeadLetters dead = settings.deadLetters();
    if (dead == null) {
      return null;
    }
    return env.deadLetterWindow() != null
        ? new DeadLetters(dead, table, env, env.deadLetterWindow(), false)
        : new DeadLetters(dead, table, env, window(dead), true);
  }

  /** A routing task's dead letters: they count every tuple the task takes into {@code env}'s shared window. */
  static DeadLetters counting(SinkSettings settings, String table, TaskEnvironment env) {
    SinkSettings.DeadLetters dead = settings.deadLetters();
    return dead == null ? null : new DeadLetters(dead, table, env, env.deadLetterWindow(), true);
  }

  /** A window for {@code settings}' bound. */
  public static DeadLetterWindow window(SinkSettings.DeadLetters settings) {
    return new DeadLetterWindow(settings.perRecords(), settings.allowedPerWindow());
  }

  /** The fields a bolt declares for its dead-letter stream. */
  public static Fields fields() {
    return new Fields(FIELDS);
  }

  /** Counts one tuple taken by the task, for the window. */
  void taken() {
    if (countsTaken) {
      window.taken();
    }
  }

  /**
   * Emits {@code tuple}'s dead letter and acks the tuple.
   *
   * @return false, having done nothing, when the tuple must be failed instead
   */
  boolean divert(Tuple tuple, TupleMappingException error) {
    if (window.full()) {
      refuseOverLimit();
      return false;
    }
    List<Integer> consumers = collector.emit(streamId, tuple, new Values(new ArrayList<>(tuple.getValues()),
        tuple.getSourceComponent(), tuple.getSourceStreamId(), error.table(), error.columnPath(), Redaction.redact(error.getMessage())));
    if (consumers.isEmpty()) {
      // Acking now would drop the tuple: nothing reads the stream.
      LOG.error("Dead-letter stream '{}' of the sink writing {} has no subscriber; failing the tuple instead:"
          + " subscribe a bolt to it", streamId, table);
      return false;
    }
    window.use();
    metrics.recordDeadLettered();
    collector.ack(tuple);
    return true;
  }

  private void refuseOverLimit() {
    metrics.deadLetterLimitExceeded();
    if (window.firstRefusal()) {
      long allowed = window.allowed();
      long perRecords = window.perRecords();
      String message = "More than " + allowed + " of " + perRecords
          + " tuples could not be written to " + table + " (withMaxDeadLetterFraction): failing them instead of"
          + " dead-lettering them until the window of " + perRecords + " tuples ends; a mapper or producer change"
          + " is likely making every tuple bad: fix it, or raise the fraction";
      LOG.error(message);
      collector.reportError(new IllegalStateException(message));
    }
  }
}
