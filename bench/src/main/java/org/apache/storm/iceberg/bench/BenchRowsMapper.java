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

package org.apache.storm.iceberg.bench;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.storm.iceberg.spi.MultiRecordMapper;
import org.apache.storm.tuple.ITuple;

/**
 * The benchmarks' multi-record mapper: a tuple's {@link CountingSpout#ROWS_FIELD} holds the values of
 * its rows ({@link BenchData#values}), in column order, and each becomes a generic record
 * (timestamptz from epoch millis), as a program building Iceberg records from such values would. It
 * parses nothing, so that what is measured is the sink and Storm, not a payload format.
 */
final class BenchRowsMapper implements MultiRecordMapper {
  private static final long serialVersionUID = 1L;

  private transient Schema templateSchema;
  private transient Record template;
  private transient boolean[] timestamps;

  @Override
  @SuppressWarnings("unchecked")
  public List<Record> mapAll(ITuple tuple, Schema schema) {
    if (schema != templateSchema) {
      template = GenericRecord.create(schema);
      timestamps = new boolean[schema.columns().size()];
      for (int i = 0; i < timestamps.length; i++) {
        timestamps[i] = schema.columns().get(i).type().typeId() == Type.TypeID.TIMESTAMP;
      }
      templateSchema = schema;
    }
    List<List<Object>> rows = (List<List<Object>>) tuple.getValueByField(CountingSpout.ROWS_FIELD);
    List<Record> records = new ArrayList<>(rows.size());
    for (List<Object> values : rows) {
      Record record = template.copy();
      for (int i = 0; i < timestamps.length; i++) {
        Object value = values.get(i);
        record.set(i, timestamps[i] ? Instant.ofEpochMilli((Long) value).atOffset(ZoneOffset.UTC) : value);
      }
      records.add(record);
    }
    return records;
  }
}
