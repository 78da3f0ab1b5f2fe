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
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.RegistryBasedFileWriterFactory;
import org.apache.iceberg.data.parquet.InternalWriter;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.parquet.ParquetFormatModel;
import org.apache.storm.iceberg.spi.InternalRow;

/**
 * Writes {@link InternalRow}s to Parquet with Iceberg's own internal-model writer ({@link
 * InternalWriter}), through the same format-model registry and writer properties as the generic
 * writer, so the files are the same in layout, compression and column metrics; only the values
 * arrive already in the form Parquet stores.
 *
 * <p>With a key it also writes the row-level modes' equality-delete files (rows of the key alone)
 * and position-delete files, in Parquet.
 *
 * <p>The model is registered once per class loader, under {@code InternalRow}, a type no other
 * registrant uses. It writes only: reading goes through Iceberg's generic readers.
 */
final class InternalRowWriterFactory extends RegistryBasedFileWriterFactory<InternalRow, Void> {
  private static final long serialVersionUID = 1L;

  static {
    FormatModelRegistry.register(
        ParquetFormatModel.create(
            InternalRow.class,
            Void.class,
            (schema, fileSchema, engineSchema) -> InternalWriter.createWriter(schema, fileSchema),
            (schema, fileSchema, engineSchema, idToConstant) -> {
              throw new UnsupportedOperationException(
                  "storm-iceberg's InternalRow model writes Parquet; read with Iceberg's generic readers");
            }));
  }

  /**
   * Whether {@code format} has an internal-row writer: Parquet only. Iceberg 1.11 has none for ORC,
   * and files its Avro internal writer wrote from the mapping matrix's rows could not be read back
   * by its generic Avro reader, so Avro stays on generic records.
   */
  static boolean supports(FileFormat format) {
    return format == FileFormat.PARQUET;
  }

  /**
   * @param equalityFieldIds the key equality-delete files delete by, or null when the factory writes
   *     data files only
   * @param deleteSchema the equality-delete files' columns (the key), or null with no key
   */
  InternalRowWriterFactory(
      Table table, FileFormat format, Schema schema, int[] equalityFieldIds, Schema deleteSchema,
      Map<String, String> writerProperties) {
    super(
        table,
        format,
        InternalRow.class,
        schema,
        null, // as GenericFileWriterFactory: the files record no sort order
        format,
        equalityFieldIds,
        deleteSchema,
        null,
        writerProperties,
        null,
        null);
  }
}
