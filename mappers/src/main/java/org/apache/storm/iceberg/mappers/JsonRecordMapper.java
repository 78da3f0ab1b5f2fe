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
import java.util.List;
import org.apache.iceberg.data.Record;
import org.apache.storm.iceberg.spi.FieldPathReader;
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
 * per schema, not per document. With {@code row-path} the row is read from a member of the document
 * (Debezium's {@code after}, or {@code before} for a delete); the row-level write modes read a
 * tuple's operation and sequence number at dotted paths of the document ({@link FieldPathReader}).
 */
public class JsonRecordMapper implements RecordMapper, FieldPathReader {
  private static final long serialVersionUID = 1L;

  private final JsonField json;
  /** Where in the document the row is: the first of these members holding an object; empty for the document itself. */
  private final List<String> rowPaths;
  /** The last tuple parsed and its document: a row-level sink reads one tuple's row, operation and sequence. */
  private transient ITuple lastTuple;
  private transient JsonNode lastDocument;
  private transient Object lastPayload;

  /** @param field the tuple field holding the JSON document */
  public JsonRecordMapper(String field) {
    this(field, List.of());
  }

  /**
   * @param field the tuple field holding the JSON document
   * @param rowPaths dotted paths of the members that may hold the row, tried in order (Debezium's
   *     envelope: {@code after}, then {@code before} for a delete); empty for the whole document
   */
  public JsonRecordMapper(String field, List<String> rowPaths) {
    this.json = new JsonField(field);
    this.rowPaths = List.copyOf(rowPaths);
  }

  @Override
  public Record map(ITuple tuple, Schema schema) {
    JsonNode document = document(tuple);
    JsonNode row = rowPaths.isEmpty() ? document : firstObject(document);
    if (!row.isObject()) {
      throw new RecordMappingException(
          json.name(), "the JSON document in field '" + json.name() + "' is a " + row.getNodeType() + ", not an object");
    }
    return (Record) json.reader(schema).read(row);
  }

  /**
   * Each call copies the schema's empty record. A subclass that overrides {@link #map} to return one
   * record object more than once must override this to return false.
   */
  @Override
  public boolean returnsNewRecords() {
    return true;
  }

  private JsonNode firstObject(JsonNode document) {
    for (String path : rowPaths) {
      JsonNode candidate = at(document, path);
      if (candidate.isObject()) {
        return candidate;
      }
    }
    throw new RecordMappingException(json.name(), "the JSON document in field '" + json.name() + "' holds no object at "
        + String.join(" or ", rowPaths));
  }

  /** The value at a dotted path of the document: text as String, whole numbers as Long, other numbers as BigDecimal. */
  @Override
  public Object read(ITuple tuple, String path) {
    JsonNode node = at(document(tuple), path);
    if (node.isMissingNode() || node.isNull()) {
      return null;
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return node.longValue();
    }
    if (node.isNumber()) {
      return node.decimalValue();
    }
    return node.isValueNode() ? node.asText() : node.toString();
  }

  /**
   * The tuple's document, parsed once for the row, the operation and the sequence number: cached by
   * the tuple and its payload object, since a caller may hand the mapper one reused view of many
   * tuples (the partition grouping does).
   */
  private JsonNode document(ITuple tuple) {
    Object payload = tuple.contains(json.name()) ? tuple.getValueByField(json.name()) : null;
    if (tuple != lastTuple || payload != lastPayload || payload == null) {
      lastDocument = json.parse(tuple);
      lastTuple = tuple;
      lastPayload = payload;
    }
    return lastDocument;
  }

  private static JsonNode at(JsonNode document, String path) {
    JsonNode node = document;
    for (String member : path.split("\\.")) {
      node = node.path(member);
    }
    return node;
  }
}
