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
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.storm.tuple.ITuple;

/**
 * Turns one Storm tuple that carries many records (a Kafka message holding a JSON array, an Avro
 * container) into Iceberg records of the table's current schema. Chosen instead of a {@link
 * RecordMapper}, never beside one.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>Each returned record's struct is {@code schema.asStruct()}, with values in Iceberg's generic
 *       representation, as for {@link RecordMapper}; the list holds them in the tuple's order, and
 *       may be empty.
 *   <li>A tuple is taken whole or not at all: when any of its records cannot be converted, the
 *       mapper throws {@link RecordMappingException} naming the column (and which record), and the
 *       sink writes none of them. The kernel adds the table and the tuple's origin.
 *   <li>{@code schema} may change between calls, and is a {@link FormerNamesSchema}, as for {@link
 *       RecordMapper}.
 *   <li>The kernel checks every record of the list before it writes any, and is done with the list
 *       and its records before it maps the next tuple: a mapper may reuse the list, but each record
 *       in one list must be its own object.
 *   <li>Instances travel inside the topology, so they are {@link Serializable}; one instance is used
 *       by one task's thread at a time.
 * </ul>
 */
public interface MultiRecordMapper extends Serializable {
  List<Record> mapAll(ITuple tuple, Schema schema);
}
