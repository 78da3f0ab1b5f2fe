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

import java.util.HashSet;
import java.util.Set;
import org.apache.storm.iceberg.spi.FieldPathReader;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.tuple.ITuple;

/**
 * Reads a tuple's operation and sequence number where the options name them, the way the record
 * mapper reads columns: through the mapper when it reads paths of its own ({@link FieldPathReader}:
 * JSON paths such as {@code source.lsn} for the json mapper), otherwise from the tuple's fields.
 */
public final class ChangeFields {
  private final FieldPathReader reader;
  private final String operationField;
  private final String sequenceField;

  /**
   * @param operationField null when every tuple upserts its row
   * @param sequenceField null when a batch's changes of a key apply in arrival order
   */
  public ChangeFields(RecordMapper mapper, String operationField, String sequenceField) {
    this.reader = mapper instanceof FieldPathReader paths ? paths : ChangeFields::tupleField;
    this.operationField = operationField;
    this.sequenceField = sequenceField;
  }

  private static Object tupleField(ITuple tuple, String field) {
    return tuple.contains(field) ? tuple.getValueByField(field) : null;
  }

  /** The fields (or paths) the operation and the sequence number are read from: those the options name. */
  public Set<String> names() {
    Set<String> names = new HashSet<>();
    if (operationField != null) {
      names.add(operationField);
    }
    if (sequenceField != null) {
      names.add(sequenceField);
    }
    return names;
  }

  /** The tuple's operation; {@link ChangeOp#INSERT} (an upsert) when no operation field is read. */
  public ChangeOp operation(ITuple tuple) {
    return operationField == null ? ChangeOp.INSERT : ChangeOp.parse(reader.read(tuple, operationField), operationField);
  }

  /**
   * The tuple's sequence number, or null when none is read.
   *
   * @throws IllegalArgumentException when it is missing or not a whole number
   */
  public Long sequence(ITuple tuple) {
    if (sequenceField == null) {
      return null;
    }
    Object value = reader.read(tuple, sequenceField);
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof CharSequence || value instanceof java.math.BigInteger || value instanceof java.math.BigDecimal) {
      try {
        return new java.math.BigDecimal(value.toString().trim()).longValueExact();
      } catch (ArithmeticException | NumberFormatException e) {
        // Refused below, naming the value.
      }
    }
    throw new IllegalArgumentException("sequence field '" + sequenceField + "' holds "
        + (value == null ? "nothing" : "'" + value + "' (" + value.getClass().getName() + ")")
        + ", not a whole number growing per key (an LSN, an offset, a version)");
  }
}
