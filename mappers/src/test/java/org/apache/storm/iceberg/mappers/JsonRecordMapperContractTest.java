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

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.storm.iceberg.spi.contract.ContractTuples;
import org.apache.storm.iceberg.spi.contract.RecordMapperContractTest;
import org.apache.storm.tuple.ITuple;

class JsonRecordMapperContractTest extends RecordMapperContractTest {
  @Override
  protected String providerName() {
    return JsonRecordMapperFactory.NAME;
  }

  /** One JSON document in field {@code value}: numbers as numbers, everything else as ISO text. */
  @Override
  protected ITuple tupleOf(Map<String, Object> values) {
    StringBuilder json = new StringBuilder("{");
    values.forEach((name, value) -> {
      if (json.length() > 1) {
        json.append(", ");
      }
      json.append('"').append(name).append("\": ");
      if (value == null || value instanceof Number) {
        json.append(value);
      } else {
        json.append('"').append(value).append('"');
      }
    });
    Map<String, Object> tuple = new LinkedHashMap<>();
    tuple.put(JsonRecordMapperFactory.DEFAULT_FIELD, json.append('}').toString());
    return ContractTuples.of(tuple);
  }
}
