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

/**
 * Internal: not an API. Nothing here is stable across releases, and no public signature of the
 * sink's API packages may name a type of this package.
 *
 * <p>The <b>hold acks</b> stage. A batch's tuples stay un-acked until its commit settles; this
 * package owns them in the meantime, behind {@link org.apache.storm.iceberg.kernel.ack.HeldTuples}:
 * hold each tuple, then settle them all by ack or by fail. It keeps only their ack ids, in
 * columns, spills the oldest ids to a file beyond a fixed heap budget, and acks or fails through
 * value-free copies of the tuples. It is the only part of the sink that depends on Storm's tuple
 * internals ({@code TupleImpl}, {@code MessageId}, the acker's XOR ledger); {@code
 * StormAckInternalsTest} pins them.
 */
package org.apache.storm.iceberg.kernel.ack;
