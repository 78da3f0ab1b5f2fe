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

package org.apache.storm.iceberg.kernel.ack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.tuple.Tuple;

/**
 * The tuples of one batch, held un-acked until the batch settles: hold each one as it is written,
 * then settle them all, once, by {@link #ackAll ack} or by {@link #failAll fail}. Whoever drops a
 * holder, settled or not, calls {@link #release}.
 *
 * <p>The tuples settled may be value-free copies of the ones held ({@link Holders#compact}): same source
 * task, stream, message id and latency sample time, which is all Storm's acker, spout and metrics
 * read. A task hook sees the copies, with every value null.
 *
 * <p>Not thread-safe: one task's executor thread owns a holder.
 */
public interface HeldTuples {
  /** Holds {@code tuple} until the batch settles. */
  void hold(Tuple tuple);

  /** The number of tuples held. */
  int size();

  /**
   * The tuples this holder settles from now on, in the order held: anchor an emit to them, then
   * {@link #ackAll ack} them, so that the acks carry the ack values the emit gave them. Calling it
   * again returns the same list. It keeps every copy on the heap at once; settle without it when
   * nothing is emitted.
   *
   * @throws IllegalStateException when the tuples are settled already
   */
  List<Tuple> materialize();

  /**
   * Acks every tuple through {@code collector}, in the order held.
   *
   * @throws IllegalStateException when the tuples are settled already: a tuple acked twice would
   *     undo its first ack in the acker's ledger
   */
  void ackAll(IOutputCollector collector);

  /**
   * Fails every tuple through {@code collector}, in the order held; the source replays them.
   *
   * @throws IllegalStateException when the tuples are settled already
   */
  void failAll(IOutputCollector collector);

  /** Frees what the holder keeps outside the heap (a spill file); call it once the batch is settled or dropped. */
  void release();
}
