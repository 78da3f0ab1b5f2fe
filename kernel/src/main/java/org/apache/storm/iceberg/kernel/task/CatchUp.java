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

import org.apache.storm.iceberg.kernel.position.Positions;
import org.apache.storm.iceberg.spi.SourcePosition;

/**
 * A new task's first stretch of a partition: what arrived since the sink's newest committed
 * offset, any gap in which may be a predecessor's changes still in flight.
 * Part of {@link ChangeFence}'s state, used under its lock only.
 */
final class CatchUp {
  final long from;
  final long expiresAtMillis;
  final Positions arrived = new Positions();

  CatchUp(long from, long expiresAtMillis) {
    this.from = from;
    this.expiresAtMillis = expiresAtMillis;
  }

  /** Notes a change's arrival; whether every offset since {@code from} arrived before it. */
  boolean follows(SourcePosition position) {
    arrived.add(position);
    return arrived.holdsAll(position.source(), position.partition(), from, position.offset() - 1);
  }
}
