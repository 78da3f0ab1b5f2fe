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

import org.apache.storm.tuple.ITuple;

/**
 * A record mapper that can read a value the tuple carries outside the table's columns, by the same
 * rules it reads columns with: the row-level write modes read each tuple's operation and sequence
 * number through it ({@code withChangeFields}). A mapper that does not implement it has them read
 * from the tuple's fields by name.
 */
@FunctionalInterface
public interface FieldPathReader {
  /**
   * The value at {@code path} (a field name, or a dotted path into nested values), or null when the
   * tuple holds none there.
   *
   * @throws RuntimeException when the tuple cannot be read at all (a payload that is not JSON, say)
   */
  Object read(ITuple tuple, String path);
}
