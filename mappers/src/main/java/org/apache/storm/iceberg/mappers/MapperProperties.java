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

import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.spi.ProviderProperties;

/** Reads a mapper provider's string properties, refusing unknown keys ({@link ProviderProperties}) and malformed values. */
final class MapperProperties {
  private final String mapper;
  private final Map<String, String> properties;

  MapperProperties(String mapper, Map<String, String> properties, Set<String> known) {
    this.mapper = mapper;
    this.properties = properties;
    ProviderProperties.check("record mapper '" + mapper + "'", properties, Set.of(), known);
  }

  boolean flag(String key) {
    String value = properties.getOrDefault(key, "false").trim();
    if (!value.equals("true") && !value.equals("false")) {
      throw new IllegalArgumentException(
          "record mapper '" + mapper + "': property '" + key + "' must be true or false, got '" + value + "'");
    }
    return Boolean.parseBoolean(value);
  }

  String string(String key, String defaultValue) {
    String value = properties.getOrDefault(key, defaultValue);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("record mapper '" + mapper + "': property '" + key + "' must not be blank");
    }
    return value;
  }
}
