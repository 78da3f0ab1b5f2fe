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

package org.apache.storm.iceberg.kernel.batch;

import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.storm.iceberg.kernel.options.ProviderChoice;
import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.FileFormatWriterFactory;

/**
 * Which format a sink's batches are written in, and with which Iceberg write properties: the sink's
 * {@code withWriteProperties} over the table's own, for this sink only. The format is the one the
 * options name or, by default, the {@code write.format.default} of the sink's write properties or
 * else of the table (Parquet when unset), looked up as a provider of the same name. The default
 * follows the table, so a format change made outside is picked up at the next batch.
 *
 * <p>The write properties reach the writers as the format provider's properties (under those {@code
 * withFileFormat} gives it), which Iceberg's writers apply over the table's; the target file size is
 * applied here, where the kernel rolls files.
 */
public final class FileFormats {
  private final ProviderChoice<FileFormatWriter> chosen;
  private final Map<String, String> writeProperties;
  private final ClassLoader loader;
  private FileFormatWriter chosenWriter;
  private FileFormatWriter tableDefaultWriter;
  private String tableDefaultName;

  /**
   * @param chosen the format the options name, or null to follow the default format
   * @param writeProperties the sink's {@code write.*} properties (checked at {@code build()})
   */
  public FileFormats(ProviderChoice<FileFormatWriter> chosen, Map<String, String> writeProperties, ClassLoader loader) {
    this.chosen = chosen;
    this.writeProperties = Map.copyOf(writeProperties);
    this.loader = loader;
  }

  /** The format and write properties {@code providers} name. */
  public static FileFormats of(SinkSettings.Providers providers, ClassLoader loader) {
    return new FileFormats(providers.fileFormat(), providers.writeProperties(), loader);
  }

  /** The writer of the next batch, against the table's current (refreshed) metadata. */
  public FileFormatWriter writer(Table table) {
    if (chosen != null) {
      if (chosenWriter == null) {
        chosenWriter = chosen.resolve(loader, writeProperties);
      }
      return chosenWriter;
    }
    String name =
        writeProperties.getOrDefault(
                TableProperties.DEFAULT_FILE_FORMAT,
                table.properties().getOrDefault(TableProperties.DEFAULT_FILE_FORMAT, TableProperties.DEFAULT_FILE_FORMAT_DEFAULT))
            .trim()
            .toLowerCase(Locale.ROOT);
    if (!name.equals(tableDefaultName)) {
      tableDefaultWriter = ProviderRegistry.find(FileFormatWriterFactory.class, name, loader).create(writeProperties);
      tableDefaultName = name;
    }
    return tableDefaultWriter;
  }

  /** Where each partition's file rolls over: the sink's target file size, else the table's. */
  long targetFileSize(Table table) {
    String sinks = writeProperties.get(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES);
    return sinks != null
        ? Long.parseLong(sinks.trim())
        : PropertyUtil.propertyAsLong(
            table.properties(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
  }
}
