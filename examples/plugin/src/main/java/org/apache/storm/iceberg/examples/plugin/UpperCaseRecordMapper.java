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

package org.apache.storm.iceberg.examples.plugin;

import java.util.Locale;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.mappers.FieldNameRecordMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.tuple.ITuple;

/**
 * Maps like the default field-name mapper, then upper-cases every top-level string column. Small on
 * purpose: it shows the shape of a mapper plug-in, reusing the built-in conversions.
 */
public final class UpperCaseRecordMapper implements RecordMapper {
  private static final long serialVersionUID = 1L;

  private final FieldNameRecordMapper byName = new FieldNameRecordMapper();

  @Override
  public Record map(ITuple tuple, Schema schema) {
    Record record = byName.map(tuple, schema);
    for (Types.NestedField column : schema.columns()) {
      Object value = record.getField(column.name());
      if (column.type().typeId() == Type.TypeID.STRING && value != null) {
        record.setField(column.name(), value.toString().toUpperCase(Locale.ROOT));
      }
    }
    return record;
  }
}
