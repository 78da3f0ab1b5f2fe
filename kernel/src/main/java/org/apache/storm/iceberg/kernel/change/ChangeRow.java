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

package org.apache.storm.iceberg.kernel.change;

import org.apache.iceberg.StructLike;

/**
 * One tuple's change: its operation, its sequence number, and its row of the table's schema (for a
 * change that removes the row, only the key columns are set).
 *
 * @param <R> the row type ({@link RowModel})
 * @param sequence the tuple's sequence number, or null when the sink reads none (arrival order)
 */
public record ChangeRow<R extends StructLike>(ChangeOp op, Long sequence, R row) {}
