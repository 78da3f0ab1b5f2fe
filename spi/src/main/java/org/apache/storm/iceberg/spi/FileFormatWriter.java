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

package org.apache.storm.iceberg.spi;

import java.io.Serializable;
import java.util.Optional;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FileWriterFactory;

/**
 * Makes the Iceberg data-file writers for one table in one file format.
 *
 * <p>The kernel wraps the returned factory in Iceberg's fanout writer, one open file per partition,
 * and rolls files at the sink's {@code write.target-file-size-bytes}, else the table's. Implementations should build
 * on Iceberg's own writers (its format models) rather than writing files themselves. A writer must
 * not keep a record after its {@code write} returns: mappers may hand the kernel the same record
 * object for every tuple (Iceberg's Parquet, ORC and Avro writers encode or copy each value).
 */
public interface FileFormatWriter extends Serializable {
  /** The format of the files this writer produces. */
  FileFormat format();

  /**
   * A writer factory for generic {@link Record}s of {@code schema}, honouring the table's write
   * properties. Called once per batch, against the metadata version the batch is written with.
   */
  FileWriterFactory<Record> writerFactory(Table table, Schema schema);

  /**
   * A writer factory for {@link InternalRow}s of {@code schema}, with the same files, properties and
   * metrics as {@link #writerFactory}, or empty when this format has no internal-row writer (the
   * default). The kernel uses it whenever the record mapper is an {@link InternalRowMapper}.
   */
  default Optional<FileWriterFactory<InternalRow>> internalWriterFactory(Table table, Schema schema) {
    return Optional.empty();
  }

  /**
   * A writer factory for generic {@link Record}s of {@code schema} that also writes equality-delete
   * files in this format, keyed by {@code equalityFieldIds}, whose rows hold only those columns
   * ({@code deleteSchema}), and position-delete files in this format (a batch that streams beyond
   * its held keys on format version 2 writes them): what the row-level write modes (upsert,
   * changelog) write. Empty when this
   * format writes no delete files (the default); such a format is refused for those modes.
   */
  default Optional<FileWriterFactory<Record>> deltaWriterFactory(
      Table table, Schema schema, int[] equalityFieldIds, Schema deleteSchema) {
    return Optional.empty();
  }

  /**
   * What {@link #deltaWriterFactory} writes, for {@link InternalRow}s: data, equality-delete and
   * position-delete files with the same properties and metrics, or empty when this format has no
   * internal-row writer (the default). The kernel uses it for the row-level write modes whenever the
   * record mapper is an {@link InternalRowMapper}, and {@link #deltaWriterFactory} otherwise.
   */
  default Optional<FileWriterFactory<InternalRow>> internalDeltaWriterFactory(
      Table table, Schema schema, int[] equalityFieldIds, Schema deleteSchema) {
    return Optional.empty();
  }
}
