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

package org.apache.storm.iceberg.kernel.options;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.TableProperties;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.FileFormatWriterFactory;

/**
 * The checks of {@code withWriteProperties}, run at {@code build()}: only
 * Iceberg's {@code write.*} keys, sizes that are positive whole numbers, a default format that a
 * provider on the classpath writes and that does not contradict {@code withFileFormat}, and a
 * format chosen by name (an instance is handed the table and writes as it chooses, so the
 * properties could not reach it).
 */
final class WritePropertiesChecks {
  private static final String PREFIX = "write.";
  private static final Set<String> SIZES =
      Set.of(
          TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
          TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES,
          TableProperties.PARQUET_PAGE_SIZE_BYTES,
          TableProperties.PARQUET_PAGE_ROW_LIMIT,
          TableProperties.PARQUET_DICT_SIZE_BYTES,
          TableProperties.ORC_STRIPE_SIZE_BYTES,
          TableProperties.ORC_BLOCK_SIZE_BYTES);

  private WritePropertiesChecks() {}

  static void check(Map<String, String> properties, ProviderChoice<FileFormatWriter> fileFormat, ClassLoader loader) {
    properties.forEach(WritePropertiesChecks::checkEntry);
    if (properties.isEmpty()) {
      return;
    }
    if (fileFormat != null && fileFormat.name() == null) {
      throw new IllegalArgumentException(
          "withWriteProperties reaches the writers through a format provider, and withFileFormat was given an"
              + " instance: name the format (withFileFormat(\"parquet\")) or pass the properties to your"
              + " FileFormatWriter instance");
    }
    String defaultFormat = properties.get(TableProperties.DEFAULT_FILE_FORMAT);
    if (defaultFormat == null) {
      return;
    }
    String name = defaultFormat.trim().toLowerCase(Locale.ROOT);
    if (fileFormat != null && !fileFormat.name().equalsIgnoreCase(name)) {
      throw new IllegalArgumentException(
          "withWriteProperties sets " + TableProperties.DEFAULT_FILE_FORMAT + "=" + defaultFormat + " but withFileFormat(\""
              + fileFormat.name() + "\") pins another format; drop one of them");
    }
    ProviderRegistry.find(FileFormatWriterFactory.class, name, loader);
  }

  private static void checkEntry(String key, String value) {
    if (key == null || !key.startsWith(PREFIX)) {
      throw new IllegalArgumentException(
          "withWriteProperties takes Iceberg's write.* table properties (such as "
              + TableProperties.WRITE_TARGET_FILE_SIZE_BYTES + " or " + TableProperties.PARQUET_COMPRESSION
              + "); '" + key + "' is not one: catalog settings go in withCatalogProperties, snapshot summary"
              + " entries in withSnapshotProperty");
    }
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("withWriteProperties: '" + key + "' has no value");
    }
    if (SIZES.contains(key)) {
      long size;
      try {
        size = Long.parseLong(value.trim());
      } catch (NumberFormatException e) {
        size = 0;
      }
      if (size <= 0) {
        throw new IllegalArgumentException(
            "withWriteProperties: '" + key + "' must be a positive whole number, got '" + value + "'");
      }
    }
  }
}
