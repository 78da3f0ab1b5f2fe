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

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.Schema;
import org.apache.storm.iceberg.spi.FormerNamesSchema;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.tuple.ITuple;

/**
 * The tuple field a JSON mapper reads (a String or UTF-8 bytes, parsed with Jackson, numbers exact)
 * and the reader of documents of a schema's columns ({@link JsonValues}), built once per schema, not
 * per document. One instance is used by one task's thread at a time.
 */
final class JsonField implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  private final String field;
  private transient Schema readerSchema;
  private transient JsonValues.Reader reader;

  JsonField(String field) {
    this.field = field;
  }

  String name() {
    return field;
  }

  /** The JSON document the tuple's field holds. */
  JsonNode parse(ITuple tuple) {
    if (!tuple.contains(field)) {
      throw new RecordMappingException(
          field, "the tuple has no field '" + field + "' holding the JSON document; its fields are " + tuple.getFields());
    }
    Object payload = tuple.getValueByField(field);
    try {
      if (payload instanceof byte[]) {
        return JSON.readTree(new String((byte[]) payload, StandardCharsets.UTF_8));
      }
      if (payload instanceof CharSequence) {
        return JSON.readTree(payload.toString());
      }
    } catch (JsonProcessingException e) {
      throw new RecordMappingException(
          field, "field '" + field + "' is not valid JSON: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new RecordMappingException(field, "field '" + field + "' cannot be read: " + e.getMessage(), e);
    }
    throw new RecordMappingException(
        field,
        "field '" + field + "' must hold a JSON document as String or byte[], got "
            + (payload == null ? "null" : payload.getClass().getName()));
  }

  /** The reader of a JSON object whose members fill {@code schema}'s columns, built once per schema (id, columns and former names). */
  JsonValues.Reader reader(Schema schema) {
    if (schema != readerSchema) {
      if (readerSchema == null || !SchemaColumns.same(schema, readerSchema)) {
        reader = JsonValues.documentReader(schema.asStruct(), FormerNamesSchema.formerNamesById(schema));
      }
      readerSchema = schema;
    }
    return reader;
  }
}
