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

package org.apache.storm.iceberg.testing;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.apache.storm.iceberg.spi.SourcePositionExtractor;
import org.apache.storm.tuple.ITuple;

/**
 * A source position extractor over the fields {@code topic}, {@code partition} and {@code offset},
 * as KafkaSpout emits them, whose topics' identities a test sets ({@link #IDENTITIES}), as a
 * recreated Kafka topic gets a new id.
 */
public final class FieldPositions implements SourcePositionExtractor {
  /** Topic → its identity now; a topic not in it has identity "id-1". */
  public static final Map<String, String> IDENTITIES = new ConcurrentHashMap<>();

  @Override
  public SourcePosition position(ITuple tuple) {
    if (!tuple.getFields().contains("offset")) {
      return null;
    }
    return new SourcePosition(
        tuple.getStringByField("topic"), tuple.getIntegerByField("partition"), tuple.getLongByField("offset"));
  }

  @Override
  public String sourceIdentity(String source) {
    return IDENTITIES.getOrDefault(source, "id-1");
  }

  @Override
  public List<String> partitionFields() {
    return List.of("topic", "partition");
  }
}
