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

import org.apache.storm.iceberg.TupleMappingException;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.tuple.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a routing task does with a tuple it cannot route (the router refused it, or named a table
 * that is invalid, outside the allowed namespaces, or missing): a mapping error, emitted on the
 * dead-letter stream when the options name one, failed otherwise, as {@link TupleIntake} does with a
 * tuple it cannot map.
 */
public final class UnroutableTuples {
  private static final Logger LOG = LoggerFactory.getLogger(UnroutableTuples.class);

  private final TaskEnvironment env;
  private final DeadLetters deadLetters;

  private UnroutableTuples(TaskEnvironment env, DeadLetters deadLetters) {
    this.env = env;
    this.deadLetters = deadLetters;
  }

  /**
   * @param env the routing task's environment, sharing its tables' dead-letter window when the
   *     options name a dead-letter stream ({@link #sharedEnvironment}); every tuple {@link #taken} counts into it
   */
  public static UnroutableTuples of(SinkSettings settings, TaskEnvironment env) {
    return new UnroutableTuples(env, DeadLetters.counting(settings, "a routed table", env));
  }

  /** {@code env}, sharing one dead-letter window among the routing task's tables when the options bound dead letters. */
  public static TaskEnvironment sharedEnvironment(SinkSettings settings, TaskEnvironment env) {
    return settings.deadLetters() == null ? env : env.sharing(DeadLetters.window(settings.deadLetters()));
  }

  /** Counts one tuple the routing task took, for the dead-letter window. */
  public void taken() {
    if (deadLetters != null) {
      deadLetters.taken();
    }
  }

  /**
   * @param route what the router named, or null when it named nothing
   * @param cause why the tuple cannot go there
   */
  public void reject(Tuple tuple, String route, RuntimeException cause) {
    TupleMappingException error = new TupleMappingException(route == null ? "(none: the router refused it)" : route, tuple, cause);
    if (deadLetters != null && deadLetters.divert(tuple, error)) {
      return;
    }
    LOG.error(Redaction.redact(error.getMessage()), Redaction.of(error));
    env.collector().reportError(error);
    env.collector().fail(tuple);
  }
}
