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

package org.apache.storm.iceberg.mappers;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.tuple.ITuple;

/**
 * The {@code "json"} mapper: one tuple field (a Kafka record's {@code value}, by default) holds a JSON
 * object, as a String or UTF-8 bytes, whose members fill the columns by name, recursively. Parsing is
 * driven by each column's Iceberg type through {@link JsonValues}, with the same rules and messages
 * as {@link FieldNameRecordMapper}: ISO-8601 text for dates and times (with an offset for
 * timestamptz), epoch milliseconds for a numeric timestamptz, base64 text for binary. Numbers are read
 * exactly (as BigDecimal), so a decimal column never sees a rounded double. A column or nested field
 * renamed from outside takes, when the document has no member under its name, the member under one
 * of its former names ({@link org.apache.storm.iceberg.spi.FormerNamesSchema}). The readers of a schema's columns are built once
 * per schema, not per document.
 */
public class JsonRecordMapper implements RecordMapper {
  private static final long serialVersionUID = 1L;

  private final JsonField json;

  /** @param field the tuple field holding the JSON document */
  public JsonRecordMapper(String field) {
    this.json = new JsonField(field);
  }

  @Override
  public Record map(ITuple tuple, Schema schema) {
    JsonNode document = json.parse(tuple);
    if (!document.isObject()) {
      throw new RecordMappingException(
          json.name(), "the JSON document in field '" + json.name() + "' is a " + document.getNodeType() + ", not an object");
    }
    return (Record) json.reader(schema).read(document);
  }
}
