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


package org.apache.storm.iceberg.maintenance;

import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.FileFormatWriterFactory;

/**
 * What compaction writes its files with: the sink's own file-format providers ({@link
 * FileFormatWriterFactory}, found by name on the classpath), chosen as the sink chooses them. The
 * provider the options name, given the write properties under its own, as the sink's {@code
 * withFileFormat}; by default the provider named like the {@code write.format.default} of the write
 * properties, else of the table (Parquet when unset), given the write properties, as the sink's
 * default. So the same {@code withFileFormat} and {@code withWriteProperties} as the sink's make
 * compacted files like the sink's. When no provider of the table's default format is on the
 * classpath (this module needs none), Iceberg's own generic writer writes it, with the table's
 * properties; a provider the options name must be there ({@link #requireProvider}).
 */
final class CompactionFormat implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Follows the table's format, with no write properties of its own. */
  static final CompactionFormat FOLLOW_TABLE = new CompactionFormat(null, Map.of(), Map.of());

  private final String provider;
  private final Map<String, String> providerProperties;
  private final Map<String, String> writeProperties;

  /**
   * @param provider the provider's name, or null to follow the default format
   * @param providerProperties the named provider's own properties
   * @param writeProperties Iceberg {@code write.*} properties over the table's, for compaction's files
   */
  CompactionFormat(String provider, Map<String, String> providerProperties, Map<String, String> writeProperties) {
    this.provider = provider;
    this.providerProperties = Map.copyOf(providerProperties);
    this.writeProperties = Map.copyOf(writeProperties);
  }

  /** The format and the writers of one compaction group's files, against the table's current metadata. */
  record Writers(FileFormat format, FileWriterFactory<Record> factory) {}

  Writers writers(Table table, Schema schema) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (provider != null) {
      Map<String, String> merged = new TreeMap<>(writeProperties);
      merged.putAll(providerProperties);
      return writers(requireProvider(provider, loader).create(merged), table, schema);
    }
    String name = writeProperties.getOrDefault(TableProperties.DEFAULT_FILE_FORMAT,
            table.properties().getOrDefault(TableProperties.DEFAULT_FILE_FORMAT, TableProperties.DEFAULT_FILE_FORMAT_DEFAULT))
        .trim().toLowerCase(Locale.ROOT);
    Optional<FileFormatWriterFactory> found = find(name, loader);
    if (found.isPresent()) {
      return writers(found.get().create(writeProperties), table, schema);
    }
    FileFormat format = FileFormat.fromString(name);
    return new Writers(format, new GenericFileWriterFactory.Builder(table).dataFileFormat(format).build());
  }

  private static Writers writers(FileFormatWriter writer, Table table, Schema schema) {
    return new Writers(writer.format(), writer.writerFactory(table, schema));
  }

  /** The provider named {@code name} on {@code loader}'s classpath, or throws naming the ones there are. */
  static FileFormatWriterFactory requireProvider(String name, ClassLoader loader) {
    return find(name, loader).orElseThrow(() -> new IllegalArgumentException("No file-format provider named '" + name
        + "' on the classpath for compaction; found " + names(loader) + ". Name the provider the sink writes with"
        + " (its withFileFormat), and ship the artifact that provides it with the topology or the tools jar"));
  }

  private static Optional<FileFormatWriterFactory> find(String name, ClassLoader loader) {
    for (FileFormatWriterFactory factory : ServiceLoader.load(FileFormatWriterFactory.class, loader)) {
      if (factory.name().equals(name)) {
        return Optional.of(factory);
      }
    }
    return Optional.empty();
  }

  private static TreeSet<String> names(ClassLoader loader) {
    TreeSet<String> names = new TreeSet<>();
    ServiceLoader.load(FileFormatWriterFactory.class, loader).forEach(factory -> names.add(factory.name()));
    return names;
  }

  @Override
  public String toString() {
    return (provider == null ? "the table's format" : provider + (providerProperties.isEmpty() ? "" : " " + providerProperties))
        + (writeProperties.isEmpty() ? "" : ", write properties " + writeProperties);
  }
}
