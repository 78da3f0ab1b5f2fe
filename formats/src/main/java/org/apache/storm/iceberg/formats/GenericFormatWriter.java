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

package org.apache.storm.iceberg.formats;

import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.InternalRow;

/**
 * Writes generic records in one file format through Iceberg 1.11's format-model registry ({@link
 * GenericFileWriterFactory} looks the format up in {@code FormatModelRegistry}), so compression,
 * row-group and stripe sizes, and column metrics follow the table's {@code write.*} properties.
 * Properties given to the provider are passed on as writer properties and win over the table's.
 *
 * <p>Parquet also writes {@link InternalRow}s ({@link InternalRowWriterFactory}); ORC and Avro write
 * generic records only.
 */
final class GenericFormatWriter implements FileFormatWriter {
  private static final long serialVersionUID = 1L;

  private final FileFormat format;
  private final Map<String, String> writerProperties;

  GenericFormatWriter(FileFormat format, Map<String, String> writerProperties) {
    this.format = format;
    this.writerProperties = new java.util.TreeMap<>(writerProperties);
  }

  @Override
  public FileFormat format() {
    return format;
  }

  @Override
  public FileWriterFactory<Record> writerFactory(Table table, Schema schema) {
    return new GenericFileWriterFactory.Builder(table)
        .dataFileFormat(format)
        .dataSchema(schema)
        .writerProperties(writerProperties)
        .build();
  }

  @Override
  public Optional<FileWriterFactory<Record>> deltaWriterFactory(
      Table table, Schema schema, int[] equalityFieldIds, Schema deleteSchema) {
    return Optional.of(new GenericFileWriterFactory.Builder(table)
        .dataFileFormat(format)
        .dataSchema(schema)
        .deleteFileFormat(format)
        .equalityFieldIds(equalityFieldIds)
        .equalityDeleteRowSchema(deleteSchema)
        .writerProperties(writerProperties)
        .build());
  }

  @Override
  public Optional<FileWriterFactory<InternalRow>> internalWriterFactory(Table table, Schema schema) {
    if (!InternalRowWriterFactory.supports(format)) {
      return Optional.empty();
    }
    return Optional.of(new InternalRowWriterFactory(table, format, schema, null, null, writerProperties));
  }

  @Override
  public Optional<FileWriterFactory<InternalRow>> internalDeltaWriterFactory(
      Table table, Schema schema, int[] equalityFieldIds, Schema deleteSchema) {
    if (!InternalRowWriterFactory.supports(format)) {
      return Optional.empty();
    }
    return Optional.of(new InternalRowWriterFactory(table, format, schema, equalityFieldIds, deleteSchema, writerProperties));
  }

  @Override
  public String toString() {
    return "GenericFormatWriter{" + format + "}";
  }
}
