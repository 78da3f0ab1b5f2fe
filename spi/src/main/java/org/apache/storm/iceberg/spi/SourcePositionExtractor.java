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

package org.apache.storm.iceberg.spi;

import java.io.Serializable;
import java.util.List;
import org.apache.storm.tuple.ITuple;

/**
 * Reads a tuple's {@link SourcePosition}: the deterministic identity that lets the sink write each
 * source record once (exactly-once), however often the source replays it.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>Two tuples at one position carry the same record; a position is never reused for another
 *       record while its source keeps its {@link #sourceIdentity identity}.
 *   <li>A tuple without a position returns null: the sink writes it at-least-once.
 *   <li>A tuple whose position fields are malformed throws {@link RecordMappingException} naming
 *       the field; the tuple is failed, as a tuple that cannot be mapped is.
 *   <li>Instances travel inside the topology; one instance is used by one task's thread at a time.
 * </ul>
 */
public interface SourcePositionExtractor extends Serializable {
  /** The tuple's position, or null when it has none. */
  SourcePosition position(ITuple tuple);

  /**
   * What identifies the incarnation of {@code source} right now, such as a Kafka topic's id, which
   * changes when the topic is deleted and created again under its name, restarting its offsets. The
   * sink records it with the positions it commits and compares it when a task first sees the
   * source: positions recorded under another identity are never taken for duplicates.
   *
   * @return the identity, or null when this extractor cannot tell
   * @throws RuntimeException when the identity cannot be read now (the source is unreachable)
   */
  String sourceIdentity(String source);

  /**
   * The tuple fields that name a position's source and partition. The sink refuses to start unless
   * each source partition reaches one of its tasks: a {@code fieldsGrouping} on (a subset of) these
   * fields, a global grouping, or one task.
   */
  List<String> partitionFields();
}
