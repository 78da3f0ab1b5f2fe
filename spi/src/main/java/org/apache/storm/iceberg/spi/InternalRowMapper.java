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

import org.apache.iceberg.Schema;
import org.apache.storm.tuple.ITuple;

/**
 * A {@link RecordMapper} that can also build rows in Iceberg's internal representation ({@link
 * InternalRow}), which formats with an internal-row writer (Parquet) encode without first building
 * and then unpicking a {@code java.time} object per date, time and timestamp value.
 *
 * <p>The kernel calls {@link #mapInternal} instead of {@link #map} for every batch written in such a
 * format, and {@link #map} otherwise; both must accept and refuse the same tuples, with the same
 * messages, and describe the same row. Everything else in the {@link RecordMapper} contract holds:
 * the row is written before the next tuple is mapped and is not kept, so one row may be overwritten
 * and returned on every call.
 */
public interface InternalRowMapper extends RecordMapper {
  /**
   * The tuple as a row of {@code schema.asStruct()}, in Iceberg's internal representation.
   *
   * @throws RecordMappingException naming the column, when the tuple cannot be converted
   */
  InternalRow mapInternal(ITuple tuple, Schema schema);
}
