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
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.spi.MultiRecordMapper;
import org.apache.storm.iceberg.spi.MultiRecordMapperFactory;

/**
 * Registers {@link JsonArrayRecordMapper} as {@code "json-array"}. Property: {@code field}, the tuple
 * field holding the JSON array (default {@value JsonRecordMapperFactory#DEFAULT_FIELD}, as
 * storm-kafka-client emits it).
 */
@AutoService(MultiRecordMapperFactory.class)
public class JsonArrayRecordMapperFactory implements MultiRecordMapperFactory {
  public static final String NAME = "json-array";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public MultiRecordMapper create(Map<String, String> properties) {
    return new JsonArrayRecordMapper(
        new MapperProperties(NAME, properties, Set.of("field")).string("field", JsonRecordMapperFactory.DEFAULT_FIELD));
  }
}
