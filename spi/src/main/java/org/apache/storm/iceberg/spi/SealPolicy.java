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

/**
 * Decides when the open batch is sealed and committed. Several policies combine as "first threshold
 * crossed": the batch seals as soon as any one says so. An empty batch is never sealed, whatever a
 * policy says.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>{@link #shouldSeal} is a threshold: once it says {@code true} for some stats, it says so for
 *       any stats grown from them (more records, bytes, open files or partitions, an older batch, a
 *       later clock). The sink asks after records and on tick tuples, not after every change, and
 *       reads its clock when it likes, so a policy that could turn {@code true} and back again
 *       might never be seen to.
 *   <li>It is asked on the task's executor thread while tuples wait, so it must be cheap, must not
 *       block, and answers from {@link BatchStats} alone.
 *   <li>The time it sees ({@link BatchStats#nowMillis}, {@link BatchStats#ageMillis}) may be late:
 *       a time threshold seals at most a bounded number of records or one tick interval after it
 *       passes.
 *   <li>A policy that seals on time must never keep a batch open as long as {@code
 *       topology.message.timeout.secs}, or its tuples time out and replay before they commit. The
 *       sink checks this for its built-in {@code age} and {@code wall-clock} policies; it cannot for
 *       a plug-in, which tells no interval, so that is the plug-in author's to keep. A bolt with a
 *       plug-in policy and no {@code withTickIntervalSecs} asks for a tick every second.
 *   <li>Instances travel inside the topology, so they are {@link Serializable}.
 * </ul>
 */
public interface SealPolicy extends Serializable {
  boolean shouldSeal(BatchStats stats);
}
