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
import org.apache.storm.tuple.ITuple;

/**
 * Names the table a tuple is written to, so one sink writes one stream into many tables.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>{@link #route} returns a table name, {@code namespace.table} (nested namespaces with more
 *       dots). The sink checks the name; an invalid one, or one outside the namespaces the options
 *       allow, makes the tuple a mapping error (failed, or dead-lettered when the sink has a
 *       dead-letter stream).
 *   <li>It is deterministic: a replayed tuple routes to the table its first attempt routed to, or a
 *       replay would write its row into another table.
 *   <li>A tuple it cannot route throws {@link RecordMappingException} naming the field; the tuple is
 *       failed (or dead-lettered) on its own.
 *   <li>It is asked on the task's executor thread for every tuple, so it must be cheap and must not
 *       block. Instances travel inside the topology; one task's thread uses an instance at a time.
 * </ul>
 */
public interface TableRouter extends Serializable {
  /** The table {@code tuple} goes to, {@code namespace.table}. */
  String route(ITuple tuple);
}
