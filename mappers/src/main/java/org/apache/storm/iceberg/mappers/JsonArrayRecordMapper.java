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
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.storm.iceberg.spi.MultiRecordMapper;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.tuple.ITuple;

/**
 * The {@code "json-array"} mapper: one tuple field (a Kafka record's {@code value}, by default) holds
 * a JSON array of objects, as a String or UTF-8 bytes, and each object is one record, read exactly as
 * the {@code "json"} mapper ({@link JsonRecordMapper}) reads its one object: the same types, rules and
 * messages. An element that is not an object, or an object that cannot be read, refuses the whole
 * tuple with a message naming the element's index. An empty array is a tuple with no records.
 */
public class JsonArrayRecordMapper implements MultiRecordMapper {
  private static final long serialVersionUID = 1L;

  private final JsonField json;

  /** @param field the tuple field holding the JSON array */
  public JsonArrayRecordMapper(String field) {
    this.json = new JsonField(field);
  }

  @Override
  public List<Record> mapAll(ITuple tuple, Schema schema) {
    JsonNode array = json.parse(tuple);
    if (!array.isArray()) {
      throw new RecordMappingException(json.name(), "the JSON document in field '" + json.name() + "' is a "
          + array.getNodeType() + ", not an array of objects (the \"json\" record mapper reads one object a tuple)");
    }
    JsonValues.Reader reader = json.reader(schema);
    List<Record> records = new ArrayList<>(array.size());
    for (int index = 0; index < array.size(); index++) {
      JsonNode element = array.get(index);
      if (!element.isObject()) {
        throw new RecordMappingException(json.name(), "element " + index + " of the JSON array in field '" + json.name()
            + "' is a " + element.getNodeType() + ", not an object");
      }
      try {
        records.add((Record) reader.read(element));
      } catch (RecordMappingException e) {
        throw new RecordMappingException(e.columnPath(), "element " + index + " of " + array.size()
            + " in the JSON array in field '" + json.name() + "': " + e.getMessage(), e);
      }
    }
    return records;
  }
}
