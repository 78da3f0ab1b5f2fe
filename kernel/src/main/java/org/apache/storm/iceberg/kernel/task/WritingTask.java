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

import java.io.Closeable;
import org.apache.storm.tuple.Tuple;

/**
 * What a writing bolt drives, one executor thread at a time: a {@link SinkTask} writing one table,
 * or a routing task writing many through one {@link SinkTask} per table.
 */
public interface WritingTask extends Closeable {
  /** Takes one tuple (or a tick). */
  void execute(Tuple tuple);

  /** Closes the catalogs under a call still running on another thread, leaving the batches alone. */
  void abandon();

  /** Abandons the open batches (their tuples time out and replay) and closes the catalogs. */
  @Override
  void close();
}
