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

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMapperFactory;

/**
 * Registers {@link JsonRecordMapper} as {@code "json"}. Properties: {@code field}, the tuple field
 * holding the JSON document (default {@value #DEFAULT_FIELD}, as storm-kafka-client emits it);
 * {@code row-path}, comma-separated dotted paths of the members that may hold the row, the first
 * holding an object wins (Debezium: {@code after,before}; default: the whole document).
 */
@AutoService(RecordMapperFactory.class)
public class JsonRecordMapperFactory implements RecordMapperFactory {
  public static final String NAME = "json";
  public static final String DEFAULT_FIELD = "value";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public RecordMapper create(Map<String, String> properties) {
    MapperProperties read = new MapperProperties(NAME, properties, Set.of("field", "row-path"));
    List<String> rowPaths = properties.containsKey("row-path")
        ? java.util.Arrays.stream(read.string("row-path", null).split(",")).map(String::trim).toList()
        : List.of();
    return new JsonRecordMapper(read.string("field", DEFAULT_FIELD), rowPaths);
  }
}
