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

package org.apache.storm.iceberg.bench;

import java.util.List;
import java.util.Map;
import org.apache.storm.iceberg.sources.KafkaPositionsFactory;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.apache.storm.iceberg.spi.SourcePositionExtractor;
import org.apache.storm.tuple.ITuple;

/**
 * The {@code kafka} provider itself, reading {@code topic}, {@code partition} and {@code offset} as
 * storm-kafka-client's default record translator emits them, with every topic given one fixed
 * identity instead of the id the provider asks a broker for once per task and topic: that one call
 * is all this leaves out, so no broker is needed.
 */
final class FixedIdentityPositions implements SourcePositionExtractor {
  private static final long serialVersionUID = 1L;
  static final String TOPIC = "topic";
  static final String PARTITION = "partition";
  static final String OFFSET = "offset";

  // Never contacted: only sourceIdentity would, and it is not delegated.
  private final SourcePositionExtractor kafka =
      new KafkaPositionsFactory().create(Map.of("bootstrap.servers", "127.0.0.1:9"));

  @Override
  public SourcePosition position(ITuple tuple) {
    return kafka.position(tuple);
  }

  @Override
  public String sourceIdentity(String source) {
    return "bench-topic-id";
  }

  @Override
  public List<String> partitionFields() {
    return kafka.partitionFields();
  }
}
