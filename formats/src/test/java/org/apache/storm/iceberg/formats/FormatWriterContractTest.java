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
