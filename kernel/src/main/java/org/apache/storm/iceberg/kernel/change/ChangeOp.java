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

import java.util.Locale;
import java.util.Map;

/**
 * What one tuple does to the row of its key. An update-before image and a delete both remove the
 * key's row; an insert and an update-after image both set it.
 */
public enum ChangeOp {
  INSERT,
  UPDATE_BEFORE,
  UPDATE_AFTER,
  DELETE;

  private static final Map<String, ChangeOp> NAMES = Map.ofEntries(
      Map.entry("c", INSERT), Map.entry("r", INSERT), Map.entry("u", UPDATE_AFTER), Map.entry("d", DELETE),
      Map.entry("i", INSERT), Map.entry("insert", INSERT), Map.entry("update_before", UPDATE_BEFORE),
      Map.entry("update_after", UPDATE_AFTER), Map.entry("delete", DELETE));

  /** The accepted spellings, for messages. */
  static final String ACCEPTED = "Debezium's c, r, u, d; I, U, D; INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE (any case)";

  /** Whether the change removes the key's row rather than setting it. */
  public boolean removes() {
    return this == DELETE || this == UPDATE_BEFORE;
  }

  /**
   * The operation a tuple's operation field holds.
   *
   * @throws IllegalArgumentException for null or an unknown value, naming the field and what is accepted
   */
  static ChangeOp parse(Object value, String field) {
    ChangeOp op = value == null ? null : NAMES.get(value.toString().trim().toLowerCase(Locale.ROOT));
    if (op == null) {
      throw new IllegalArgumentException("operation field '" + field + "' holds "
          + (value == null ? "null" : "'" + value + "' (" + value.getClass().getName() + ")") + ", not an operation: accepted are "
          + ACCEPTED);
    }
    return op;
  }
}
