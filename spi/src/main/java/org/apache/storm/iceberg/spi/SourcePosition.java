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

/**
 * Where a tuple sits in its source: a Kafka topic's partition and offset, for example. Two tuples
 * at one position carry the same record, so the sink writes it once.
 *
 * @param source the source's name, such as a Kafka topic; letters, digits, '.', '_' and '-'
 * @param partition the partition within the source, 0 or more
 * @param offset the position within the partition, 0 or more
 */
public record SourcePosition(String source, int partition, long offset) {
  public SourcePosition {
    if (source == null || source.isEmpty()) {
      throw new IllegalArgumentException("a source position needs a source name, got '" + source + "'");
    }
    if (partition < 0 || offset < 0) {
      throw new IllegalArgumentException(
          "a source position needs a partition and an offset of 0 or more, got partition " + partition + ", offset " + offset);
    }
  }
}
