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

import org.apache.iceberg.FileFormat;
import org.apache.storm.iceberg.spi.contract.FileFormatWriterContractTest;
import org.junit.jupiter.api.Nested;

/** The Parquet, ORC and Avro writers keep the SPI's file format writer contract. */
class FormatWriterContractTest {
  @Nested
  class Parquet extends FileFormatWriterContractTest {
    @Override
    protected String providerName() {
      return ParquetFormatWriterFactory.NAME;
    }

    @Override
    protected FileFormat expectedFormat() {
      return FileFormat.PARQUET;
    }
  }

  @Nested
  class Orc extends FileFormatWriterContractTest {
    @Override
    protected String providerName() {
      return OrcFormatWriterFactory.NAME;
    }

    @Override
    protected FileFormat expectedFormat() {
      return FileFormat.ORC;
    }
  }

  @Nested
  class Avro extends FileFormatWriterContractTest {
    @Override
    protected String providerName() {
      return AvroFormatWriterFactory.NAME;
    }

    @Override
    protected FileFormat expectedFormat() {
      return FileFormat.AVRO;
    }
  }
}
